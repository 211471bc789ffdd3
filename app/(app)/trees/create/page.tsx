import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { RequireLogin } from "@/components/shell/session-guards";
import { TreeDetailsForm } from "@/components/tree-details/tree-details-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("TreeDetails");
  return { title: t("createPageTitle") };
}

export default function CreateTreePage() {
  return (
    <RequireLogin>
      <TreeDetailsForm />
    </RequireLogin>
  );
}
