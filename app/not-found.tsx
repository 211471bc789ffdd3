import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AppShell } from "@/components/shell/app-shell";
import { NotFoundMessage } from "@/components/ui/not-found-message";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("NotFound");
  return { title: t("pageTitle") };
}

// Served with HTTP 404 for unknown paths, under the root layout alone: so the shell is drawn
// here. A notFound() inside the app's pages uses app/(app)/not-found.tsx, already in the shell.
export default function NotFound() {
  return (
    <AppShell>
      <NotFoundMessage />
    </AppShell>
  );
}
