import type { Metadata } from "next";
import { RequireLogin } from "@/components/shell/session-guards";
import { TreeEditor } from "@/components/tree-editor/tree-editor";

export const metadata: Metadata = { title: "Tree Editor" };

export default async function TreeEditorPage({ params }: { params: Promise<{ treeId: string }> }) {
  const { treeId } = await params;
  return (
    <RequireLogin>
      <TreeEditor key={treeId} treeId={treeId} />
    </RequireLogin>
  );
}
