import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { NotFoundMessage } from "@/components/ui/not-found-message";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("GalleryNotFound");
  return { title: t("title") };
}

/**
 * A Gallery page past the last one (issue 36): a 404 that says so, with a link back to the
 * Gallery's first page, a plain <a> that needs no script.
 */
export default function GalleryNotFound() {
  const t = useTranslations("GalleryNotFound");
  return (
    <NotFoundMessage
      title={t("title")}
      text={t("text")}
      link={{ href: "/gallery", label: t("back") }}
    />
  );
}
