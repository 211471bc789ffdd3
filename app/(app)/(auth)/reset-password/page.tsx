import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { AuthCard } from "@/components/account/auth-card";
import { ResetPasswordForm } from "@/components/account/reset-password-form";
import { Loading } from "@/components/ui/loading";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("ResetPasswordPage");
  return { title: t("title") };
}

// Open to anyone holding the e-mailed link, logged in or not.
export default function ResetPasswordPage() {
  const t = useTranslations("ResetPasswordPage");
  return (
    <AuthCard title={t("title")} intro={t("intro")}>
      <Suspense fallback={<Loading />}>
        <ResetPasswordForm />
      </Suspense>
    </AuthCard>
  );
}
