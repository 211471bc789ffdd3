import type { Metadata } from "next";
import { AppShell } from "@/components/shell/app-shell";
import { NotFoundMessage } from "@/components/ui/not-found-message";

export const metadata: Metadata = { title: "Page not found" };

// Served with HTTP 404 for unknown paths, under the root layout alone: so the shell is drawn
// here. A notFound() inside the app's pages uses app/(app)/not-found.tsx, already in the shell.
export default function NotFound() {
  return (
    <AppShell>
      <NotFoundMessage />
    </AppShell>
  );
}
