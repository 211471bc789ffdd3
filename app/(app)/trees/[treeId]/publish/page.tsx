import type { Metadata } from "next";
import { RequireLogin } from "@/components/shell/session-guards";
import { PublishSettings } from "@/components/publish/publish-settings";

export const metadata: Metadata = { title: "Publish Tree" };

export default async function PublishPage({ params }: { params: Promise<{ treeId: string }> }) {
  const { treeId } = await params;
  return (
    <RequireLogin>
      <PublishSettings key={treeId} treeId={treeId} />
    </RequireLogin>
  );
}
