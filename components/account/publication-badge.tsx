"use client";
import type { AccountPublication } from "@/lib/schemas/account-publications";
import { cx } from "@/components/ui/class-names";

/** What a tree's public copy is, in words: for screen readers and tooltips. */
export function publicationText(publication: AccountPublication): string {
  if (publication.inGallery) return "Published and shown in the Gallery";
  if (publication.hiddenFromGallery) return "Published; hidden from the Gallery by the site";
  return "Published, not in the Gallery";
}

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
  if (!publication) return null;
  const listed = publication.inGallery;
  return (
    <span
      title={publicationText(publication)}
      data-publication={listed ? "gallery" : "public"}
      className={cx(
        "inline-flex shrink-0 items-center rounded-full px-1.5 py-0.5 text-[0.6875rem] leading-none font-semibold",
        listed ? "bg-plum-700 text-white" : "text-plum-800 bg-plum-100",
        className,
      )}
    >
      <span aria-hidden="true">{listed ? "Gallery" : "Public"}</span>
      <span className="sr-only">, {publicationText(publication).toLowerCase()}</span>
    </span>
  );
}
