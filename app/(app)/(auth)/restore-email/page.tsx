import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { AuthCard } from "@/components/account/auth-card";
import { RestoreEmailForm } from "@/components/account/restore-email-form";
import { Loading } from "@/components/ui/loading";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("RestoreEmailPage");
  return { title: t("title") };
}

// Open to anyone holding the link mailed to the old address, logged in or not (issue 22.5).
export default function RestoreEmailPage() {
  const t = useTranslations("RestoreEmailPage");
  return (
    <AuthCard title={t("title")} intro={t("intro")}>
      <Suspense fallback={<Loading />}>
        <RestoreEmailForm />
      </Suspense>
    </AuthCard>
  );
}
