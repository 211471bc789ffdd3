"use client";
import { useTranslations } from "next-intl";
import { useSession } from "@/lib/client/session";
import { LinkButton } from "@/components/ui/button";

/** The home page's calls to action, which depend on whether the visitor is logged in. */
export function StartActions() {
  const { ready, loggedIn } = useSession();
  const t = useTranslations("StartActions");
  return (
    <div className="flex min-h-10 flex-wrap gap-3">
      {ready &&
        (loggedIn ? (
          <LinkButton href="/trees/create">{t("createTree")}</LinkButton>
        ) : (
          <>
            <LinkButton href="/signup">{t("createAccount")}</LinkButton>
            <LinkButton href="/login" variant="secondary">
              {t("login")}
            </LinkButton>
          </>
        ))}
      <LinkButton href="/guides" variant={ready && !loggedIn ? "ghost" : "secondary"}>
        {t("readGuides")}
      </LinkButton>
    </div>
  );
}
