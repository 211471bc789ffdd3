import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { buttonClasses } from "@/components/ui/button";

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
    <div className="mx-auto max-w-xl py-10 text-center">
      <p className="text-6xl font-bold text-plum-500" aria-hidden="true">
        {404}
      </p>
      <h1 className="mt-4 text-2xl font-bold text-plum-900">{t("title")}</h1>
      <p className="mt-2 text-neutral-700">{t("text")}</p>
      <a href="/gallery" className={buttonClasses({ className: "mt-6" })}>
        {t("back")}
      </a>
    </div>
  );
}
