import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { RequireLogin } from "@/components/shell/session-guards";
import { PublishSettings } from "@/components/publish/publish-settings";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("PublishSettings");
  return { title: t("pageTitle") };
}

export default async function PublishPage({ params }: { params: Promise<{ treeId: string }> }) {
  const { treeId } = await params;
  return (
    <RequireLogin>
      <PublishSettings key={treeId} treeId={treeId} />
    </RequireLogin>
  );
}
