import type { Metadata } from "next";
import { RequireLogin } from "@/components/shell/session-guards";
import { TreeDetailsForm } from "@/components/tree-details/tree-details-form";

export const metadata: Metadata = { title: "Update Tree Details" };

export default async function TreeDetailsPage({ params }: { params: Promise<{ treeId: string }> }) {
  const { treeId } = await params;
  return (
    <RequireLogin>
      <TreeDetailsForm key={treeId} treeId={treeId} />
    </RequireLogin>
  );
}
