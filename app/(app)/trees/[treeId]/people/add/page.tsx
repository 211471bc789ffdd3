import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { RequireLogin } from "@/components/shell/session-guards";
import { PersonEditor } from "@/components/person-editor/person-editor";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("PersonEditor");
  return { title: t("createTitle") };
}

export default async function AddPersonPage({ params }: { params: Promise<{ treeId: string }> }) {
  const { treeId } = await params;
  return (
    <RequireLogin>
      <PersonEditor key={treeId} treeId={treeId} />
    </RequireLogin>
  );
}
