import type { Metadata } from "next";
import { RequireLogin } from "@/components/shell/session-guards";
import { PersonEditor } from "@/components/person-editor/person-editor";

export const metadata: Metadata = { title: "Create Person" };

export default async function AddPersonPage({ params }: { params: Promise<{ treeId: string }> }) {
  const { treeId } = await params;
  return (
    <RequireLogin>
      <PersonEditor key={treeId} treeId={treeId} />
    </RequireLogin>
  );
}
