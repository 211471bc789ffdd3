import type { Metadata } from "next";
import { RequireLogin } from "@/components/shell/session-guards";
import { PersonLinker } from "@/components/person-linker/person-linker";

export const metadata: Metadata = { title: "Link Person" };

export default async function LinkPersonPage({
  params,
}: {
  params: Promise<{ treeId: string; personId: string }>;
}) {
  const { treeId, personId } = await params;
  return (
    <RequireLogin>
      <PersonLinker key={personId} treeId={treeId} personId={personId} />
    </RequireLogin>
  );
}
