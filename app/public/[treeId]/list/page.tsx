import Image from "next/image";
import { countView } from "@/lib/server/published/count-view";
import { PublicTreeList } from "@/components/public-tree/public-tree-list";
import { resizedImageUrl } from "@/lib/image-url";
import { RichTextContent } from "@/components/rich-text/rich-text-content";
import { loadPublicTree } from "@/lib/server/published/load-public-tree";

type Props = { params: Promise<{ treeId: string }> };

/** The published tree as a nested list: readable without JavaScript and by screen readers. */
export default async function PublicTreeListPage({ params }: Props) {
  const { treeId } = await params;
  const view = await loadPublicTree(treeId);
  countView(treeId);
  const title = view.title || "Untitled Tree";
  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-6">
      <section aria-label="About this tree" className="space-y-4">
        {view.cover ? (
          <Image
            src={resizedImageUrl(view.cover, "600x320")}
            alt={`Cover of ${title}`}
            width={600}
            height={320}
            unoptimized
            priority
            className="aspect-[15/8] w-full max-w-[600px] rounded-lg bg-plum-100 object-cover"
          />
        ) : null}
        <RichTextContent html={view.description} className="max-w-prose text-neutral-800" />
      </section>
      <PublicTreeList treeId={view._id} data={view.data} people={view.people} />
    </div>
  );
}
