import { countView } from "@/components/public-tree/count-view";
import { PublicTreeList } from "@/components/public-tree/public-tree-list";
import { loadPublicTree } from "@/lib/server/published/load-public-tree";

type Props = { params: Promise<{ treeId: string }> };

/** The published tree as a nested list: readable without JavaScript and by screen readers. */
export default async function PublicTreeListPage({ params }: Props) {
  const { treeId } = await params;
  const { tree, people } = await loadPublicTree(treeId);
  await countView(treeId);
  return <PublicTreeList treeId={tree._id} data={tree.data} people={people} />;
}
