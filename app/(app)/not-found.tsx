import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { NotFoundMessage } from "@/components/ui/not-found-message";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("NotFound");
  return { title: t("pageTitle") };
}

// notFound() in a page of the app (an unknown guide, tree or person) renders here, inside the
// (app) layout's shell; app/not-found.tsx would draw a second shell inside it.
export default function NotFound() {
  return <NotFoundMessage />;
}
