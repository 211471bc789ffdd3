"use client";
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
  const [seenLoggedIn, setSeenLoggedIn] = useState(false);
  if (loggedIn && !seenLoggedIn) setSeenLoggedIn(true);
  const redirect = ready && !loggedIn && !seenLoggedIn;

  useEffect(() => {
    if (redirect) router.replace("/login");
  }, [redirect, router]);

  if (!ready || redirect) return <Loading label={ready ? "Redirecting to login" : "Loading"} />;
  if (!loggedIn) {
    return (
      <p className="py-6 text-neutral-700">
        You are logged out. <TextLink href="/login">Log in</TextLink> to continue.
      </p>
    );
  }
  return children;
}

/** For pages only anonymous visitors need (login, signup, recovery): a logged-in user goes home. */
export function AnonymousOnly({ children }: { children: ReactNode }) {
  const { ready, loggedIn } = useSession();
  const router = useRouter();

  useEffect(() => {
    if (ready && loggedIn) router.replace("/");
  }, [ready, loggedIn, router]);

  if (!ready) return <Loading />;
  if (loggedIn) return <Loading label="Redirecting home" />;
  return children;
}
