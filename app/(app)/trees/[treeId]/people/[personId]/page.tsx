import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { RequireLogin } from "@/components/shell/session-guards";
import { PersonEditor } from "@/components/person-editor/person-editor";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("PersonEditor");
  return { title: t("editTitle") };
}

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
