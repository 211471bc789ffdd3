"use client";
import { useTranslations } from "next-intl";
import type { AccountPublication } from "@/lib/schemas/account-publications";
import { cx } from "@/components/ui/class-names";

/**
 * A small mark beside a tree's name: "Gallery" when its public copy is shown in the Gallery,
 * "Public" when it is published but not listed, nothing when it is not published. Its words are
 * read out after the name.
 */
export function PublicationBadge({
  publication,
  className,
}: {
  publication: AccountPublication | null | undefined;
  className?: string;
}) {
  const t = useTranslations("PublicationBadge");
  if (!publication) return null;
  const listed = publication.inGallery;
  // what the public copy is, in words: for screen readers and tooltips
  const text = publication.inGallery
    ? t("inGallery")
    : publication.hiddenFromGallery
      ? t("hiddenBySite")
      : t("notInGallery");
  return (
    <span
      title={text}
      data-publication={listed ? "gallery" : "public"}
      className={cx(
        "inline-flex shrink-0 items-center rounded-full px-1.5 py-0.5 text-[0.6875rem] leading-none font-semibold",
        listed ? "bg-plum-700 text-white" : "text-plum-800 bg-plum-100",
        className,
      )}
    >
      <span aria-hidden="true">{listed ? t("gallery") : t("public")}</span>
      <span className="sr-only">
        {publication.inGallery
          ? t("spokenInGallery")
          : publication.hiddenFromGallery
            ? t("spokenHiddenBySite")
            : t("spokenNotInGallery")}
      </span>
    </span>
  );
}
