"use client";
import { useTranslations } from "next-intl";
import { LinkButton, TextLink } from "@/components/ui/button";
import { useSession } from "@/lib/client/session";

/**
 * "Coming from The Plum Tree?": the backup ZIP its players downloaded before it closed imports
 * here with its images. Logged-out visitors are asked to sign up or log in first.
 */
export function PlumTreeSection() {
  const { ready, loggedIn } = useSession();
  const t = useTranslations("PlumTree");
  return (
    <section
      aria-labelledby="plum-tree"
      className="rounded-lg border border-plum-200 bg-white p-6 shadow-sm"
    >
      <h2 id="plum-tree" className="text-xl font-semibold text-plum-900">
        {t("heading")}
      </h2>
      <div className="mt-2 space-y-2 text-neutral-800">
        <p>{t("backup")}</p>
        <p className="text-neutral-700">{t("others")}</p>
        <p className="text-neutral-700" data-home-sims4="">
          {t.rich("sims4", {
            code: (chunks) => <code>{chunks}</code>,
            link: (chunks) => <TextLink href="/guides/import-from-the-sims-4">{chunks}</TextLink>,
          })}
        </p>
      </div>
      <div className="mt-4 flex min-h-10 flex-wrap items-center gap-3">
        <LinkButton href="/trees/import">{t("import")}</LinkButton>
        {ready && !loggedIn && (
          <p className="text-sm text-neutral-700">
            {t.rich("needAccount", {
              signup: (chunks) => <TextLink href="/signup">{chunks}</TextLink>,
              login: (chunks) => <TextLink href="/login">{chunks}</TextLink>,
            })}
          </p>
        )}
      </div>
    </section>
  );
}
