import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { AuthCard } from "@/components/account/auth-card";
import { SignupForm } from "@/components/account/signup-form";
import { TextLink } from "@/components/ui/button";
import { AnonymousOnly } from "@/components/shell/session-guards";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("SignupPage");
  return { title: t("title") };
}

export default function SignupPage() {
  const t = useTranslations("SignupPage");
  return (
    <AnonymousOnly>
      <AuthCard
        title={t("title")}
        intro={t("intro")}
        footer={
          <p>
            {t.rich("haveAccount", {
              login: (chunks) => <TextLink href="/login">{chunks}</TextLink>,
            })}
          </p>
        }
      >
        <SignupForm />
      </AuthCard>
    </AnonymousOnly>
  );
}
