import type { Metadata } from "next";
import { RequireLogin } from "@/components/shell/session-guards";
import { PeopleList } from "@/components/people/people-list";

export const metadata: Metadata = { title: "People in Your Tree" };

export default async function PeoplePage({ params }: { params: Promise<{ treeId: string }> }) {
  const { treeId } = await params;
  return (
    <RequireLogin>
      <PeopleList key={treeId} treeId={treeId} />
    </RequireLogin>
  );
}
