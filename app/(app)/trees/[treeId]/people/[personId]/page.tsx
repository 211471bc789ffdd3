import type { Metadata } from "next";
import { RequireLogin } from "@/components/shell/session-guards";
import { PersonEditor } from "@/components/person-editor/person-editor";

export const metadata: Metadata = { title: "Edit Person" };

export default async function EditPersonPage({
  params,
}: {
  params: Promise<{ treeId: string; personId: string }>;
}) {
  const { treeId, personId } = await params;
  return (
    <RequireLogin>
      <PersonEditor key={personId} treeId={treeId} personId={personId} />
    </RequireLogin>
  );
}
