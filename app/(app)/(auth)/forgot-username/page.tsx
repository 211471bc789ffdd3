import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { AuthCard } from "@/components/account/auth-card";
import { ForgotUsernameForm } from "@/components/account/forgot-username-form";
import { TextLink } from "@/components/ui/button";
import { AnonymousOnly } from "@/components/shell/session-guards";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("ForgotUsernamePage");
  return { title: t("title") };
}

export default function ForgotUsernamePage() {
  const t = useTranslations("ForgotUsernamePage");
  return (
    <AnonymousOnly>
      <AuthCard
        title={t("title")}
        intro={
          <>
            <p>{t("intro")}</p>
            <p className="mt-2">
              {t.rich("caseSensitive", {
                strong: (chunks) => <strong className="text-plum-900">{chunks}</strong>,
              })}
            </p>
          </>
        }
        footer={
          <p>
            <TextLink href="/login">{t("backToLogin")}</TextLink>
            <span aria-hidden="true" className="mx-2">
              ·
            </span>
            <TextLink href="/forgot-password">{t("forgotPassword")}</TextLink>
          </p>
        }
      >
        <ForgotUsernameForm />
      </AuthCard>
    </AnonymousOnly>
  );
}
