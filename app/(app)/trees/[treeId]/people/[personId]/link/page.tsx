import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { RequireLogin } from "@/components/shell/session-guards";
import { PersonLinker } from "@/components/person-linker/person-linker";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("PersonLinker");
  return { title: t("title") };
}

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
