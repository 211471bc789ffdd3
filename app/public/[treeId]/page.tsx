import { PublicTreeView } from "@/components/tree-view/public-tree-view";
import { countView } from "@/components/public-tree/count-view";
import { loadPublicTree } from "@/lib/server/published/load-public-tree";

type Props = {
  params: Promise<{ treeId: string }>;
  searchParams: Promise<{ p?: string | string[] }>;
};

/** The published tree on the read-only canvas; ?p= opens that Sim's panel, centred. */
export default async function PublicTreeCanvasPage({ params, searchParams }: Props) {
  const { treeId } = await params;
  const { p } = await searchParams;
  const { tree, people } = await loadPublicTree(treeId);
  await countView(treeId);
  return (
    <section
      aria-label="Family tree"
      className="h-[75vh] overflow-hidden rounded-lg border border-plum-100 bg-white"
    >
      <PublicTreeView
        tree={tree}
        people={people}
        initialPersonId={typeof p === "string" ? p : null}
      />
    </section>
  );
}
