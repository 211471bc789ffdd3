import type { Metadata } from "next";
import { headers } from "next/headers";
import { RequireLogin } from "@/components/shell/session-guards";
import { EARLY_LOAD_SCRIPT } from "@/components/tree-editor/early-load";
import { TreeEditor } from "@/components/tree-editor/tree-editor";

export const metadata: Metadata = { title: "Tree Editor" };

export default async function TreeEditorPage({ params }: { params: Promise<{ treeId: string }> }) {
  const { treeId } = await params;
  // The CSP lets inline scripts run only with this request's nonce (proxy.ts).
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <>
      {/* Starts the tree's and its people's requests while the page's scripts still load. */}
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: EARLY_LOAD_SCRIPT }} />
      <RequireLogin>
        <TreeEditor key={treeId} treeId={treeId} />
      </RequireLogin>
    </>
  );
}
