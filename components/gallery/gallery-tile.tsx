import { useTranslations } from "next-intl";
import type { GalleryItem } from "@/lib/schemas/published";
import { resizedImageUrl } from "@/lib/image-url";
import { htmlToPlainText, truncateText } from "@/components/public-tree/plain-text";
import { cx, focusRing } from "@/components/ui/class-names";

/**
 * One published tree in the Gallery: cover, title, its author, a line of description, Sims and
 * generations. Without a cover it shows, in a search, the Sim the search found (avatar and name),
 * else the title's first letter, in a band low enough that a phone shows several tiles.
 */
export function GalleryTile({ item }: { item: GalleryItem }) {
  const t = useTranslations("GalleryTile");
  const title = item.title.trim() || t("untitledTree");
  const description = truncateText(htmlToPlainText(item.description), 160);
  const match = item.match ?? null;
  return (
    <a
      href={`/public/${encodeURIComponent(item._id)}`}
      className={cx(
        "flex h-full flex-col overflow-hidden rounded-lg border border-plum-100 bg-white shadow-sm hover:border-plum-500",
        focusRing,
      )}
    >
      {item.cover ? (
        // eslint-disable-next-line @next/next/no-img-element -- the server's own resized cover
        <img
          src={resizedImageUrl(item.cover, "600x320")}
          alt=""
          width={600}
          height={320}
          loading="lazy"
          className="aspect-[15/8] w-full object-cover"
        />
      ) : match?.avatar ? (
        <span className="flex h-24 w-full items-center justify-center bg-gradient-to-br from-plum-100 to-plum-300 sm:aspect-[15/8] sm:h-auto">
          {/* eslint-disable-next-line @next/next/no-img-element -- the server's own resized avatar */}
          <img
            src={resizedImageUrl(match.avatar, "200x200")}
            alt=""
            width={96}
            height={96}
            loading="lazy"
            className="size-20 rounded-full border-2 border-white object-cover sm:size-24"
          />
        </span>
      ) : (
        <span
          aria-hidden="true"
          className="flex h-20 w-full items-center justify-center bg-gradient-to-br from-plum-100 to-plum-300 text-3xl font-bold text-plum-800 sm:aspect-[15/8] sm:h-auto sm:text-4xl"
        >
          {title.slice(0, 1).toUpperCase()}
        </span>
      )}
      <span className="flex flex-1 flex-col gap-1 p-4">
        <span className="line-clamp-2 font-semibold text-plum-900">{title}</span>
        <span data-gallery-author className="truncate text-sm text-neutral-600">
          {t("by", { author: item.author })}
        </span>
        {match ? (
          <span data-gallery-match className="truncate text-sm text-plum-800">
            {t("found", { name: match.name })}
          </span>
        ) : null}
        {description ? (
          <span className="line-clamp-1 text-sm text-neutral-700">{description}</span>
        ) : null}
        <span className="mt-auto pt-2 text-xs text-neutral-600">
          {t("sims", { count: item.sims })} · {t("generations", { count: item.generations })}
        </span>
      </span>
    </a>
  );
}
