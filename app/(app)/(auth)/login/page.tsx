import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { AuthCard } from "@/components/account/auth-card";
import { LoginForm } from "@/components/account/login-form";
import { TextLink } from "@/components/ui/button";
import { AnonymousOnly } from "@/components/shell/session-guards";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("LoginPage");
  return { title: t("title") };
}

export default function LoginPage() {
  const t = useTranslations("LoginPage");
  return (
    <AnonymousOnly>
      <AuthCard
        title={t("title")}
        intro={t("intro")}
        footer={
          <>
            <p>
              {t.rich("newHere", {
                signup: (chunks) => <TextLink href="/signup">{chunks}</TextLink>,
              })}
            </p>
            <p>
              <TextLink href="/forgot-password">{t("forgotPassword")}</TextLink>
              <span aria-hidden="true" className="mx-2">
                ·
              </span>
              <TextLink href="/forgot-username">{t("forgotUsername")}</TextLink>
            </p>
          </>
        }
      >
        <LoginForm />
      </AuthCard>
    </AnonymousOnly>
  );
}
