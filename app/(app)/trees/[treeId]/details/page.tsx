import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { RequireLogin } from "@/components/shell/session-guards";
import { TreeDetailsForm } from "@/components/tree-details/tree-details-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("TreeDetails");
  return { title: t("updateTitle") };
}

export default async function TreeDetailsPage({ params }: { params: Promise<{ treeId: string }> }) {
  const { treeId } = await params;
  return (
    <RequireLogin>
      <TreeDetailsForm key={treeId} treeId={treeId} />
    </RequireLogin>
  );
}
