import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { RequireLogin } from "@/components/shell/session-guards";
import { PeopleList } from "@/components/people/people-list";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("PeopleList");
  return { title: t("pageTitle") };
}

export default async function PeoplePage({ params }: { params: Promise<{ treeId: string }> }) {
  const { treeId } = await params;
  return (
    <RequireLogin>
      <PeopleList key={treeId} treeId={treeId} />
    </RequireLogin>
  );
}
