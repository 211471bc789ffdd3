"use client";
import { useSession } from "@/lib/client/session";
import { LinkButton } from "@/components/ui/button";

/** The home page's calls to action, which depend on whether the visitor is logged in. */
export function StartActions() {
  const { ready, loggedIn } = useSession();
  return (
    <div className="flex min-h-10 flex-wrap gap-3">
      {ready &&
        (loggedIn ? (
          <LinkButton href="/trees/create">Create a New Tree</LinkButton>
        ) : (
          <>
            <LinkButton href="/signup">Create Account</LinkButton>
            <LinkButton href="/login" variant="secondary">
              Login
            </LinkButton>
          </>
        ))}
      <LinkButton href="/guides" variant={ready && !loggedIn ? "ghost" : "secondary"}>
        Read the guides
      </LinkButton>
    </div>
  );
}
