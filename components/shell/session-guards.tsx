"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import { useSession } from "@/lib/client/session";
import { TextLink } from "@/components/ui/button";
import { Loading } from "@/components/ui/loading";

/**
 * For pages that need a login. A visitor who arrives logged out is sent to /login. A user who
 * logs out while here is not: whoever ended the session (Logout, account deletion, a 403) already
 * navigates, so this only offers a link instead of racing that navigation.
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { ready, loggedIn } = useSession();
  const router = useRouter();
  const t = useTranslations("SessionGuards");
  const [seenLoggedIn, setSeenLoggedIn] = useState(false);
  if (loggedIn && !seenLoggedIn) setSeenLoggedIn(true);
  const redirect = ready && !loggedIn && !seenLoggedIn;

  useEffect(() => {
    if (redirect) router.replace("/login");
  }, [redirect, router]);

  if (!ready || redirect) return <Loading label={ready ? t("redirectingToLogin") : t("loading")} />;
  if (!loggedIn) {
    return (
      <p className="py-6 text-neutral-700">
        {t.rich("loggedOut", {
          login: (chunks) => <TextLink href="/login">{chunks}</TextLink>,
        })}
      </p>
    );
  }
  return children;
}

/** For pages only anonymous visitors need (login, signup, recovery): a logged-in user goes home. */
export function AnonymousOnly({ children }: { children: ReactNode }) {
  const { ready, loggedIn } = useSession();
  const router = useRouter();
  const t = useTranslations("SessionGuards");

  useEffect(() => {
    if (ready && loggedIn) router.replace("/");
  }, [ready, loggedIn, router]);

  if (!ready) return <Loading label={t("loading")} />;
  if (loggedIn) return <Loading label={t("redirectingHome")} />;
  return children;
}
