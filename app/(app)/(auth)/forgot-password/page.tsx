import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { AuthCard } from "@/components/account/auth-card";
import { ForgotPasswordForm } from "@/components/account/forgot-password-form";
import { TextLink } from "@/components/ui/button";
import { AnonymousOnly } from "@/components/shell/session-guards";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("ForgotPasswordPage");
  return { title: t("title") };
}

export default function ForgotPasswordPage() {
  const t = useTranslations("ForgotPasswordPage");
  return (
    <AnonymousOnly>
      <AuthCard
        title={t("title")}
        intro={t("intro")}
        footer={
          <p>
            {t.rich("remembered", {
              login: (chunks) => <TextLink href="/login">{chunks}</TextLink>,
            })}
            <span aria-hidden="true" className="mx-2">
              ·
            </span>
            <TextLink href="/forgot-username">{t("forgotUsername")}</TextLink>
          </p>
        }
      >
        <ForgotPasswordForm />
      </AuthCard>
    </AnonymousOnly>
  );
}
