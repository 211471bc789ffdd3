import type { Metadata } from "next";
import { LinkButton } from "@/components/ui/button";
import { AppShell } from "@/components/shell/app-shell";

export const metadata: Metadata = { title: "Page not found" };

// Served with HTTP 404 for every unknown path (and for notFound()), inside the app shell.
export default function NotFound() {
  return (
    <AppShell>
      <div className="mx-auto max-w-xl py-10 text-center">
        <p className="text-plum-500 text-6xl font-bold" aria-hidden="true">
          404
        </p>
        <h1 className="text-plum-900 mt-4 text-2xl font-bold">This page does not exist</h1>
        <p className="mt-2 text-neutral-700">
          The page you were looking for does not exist. It may have moved, or the link may be
          mistyped.
        </p>
        <LinkButton href="/" className="mt-6">
          Return home
        </LinkButton>
      </div>
    </AppShell>
  );
}
