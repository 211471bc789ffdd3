import type { GalleryItem } from "@/lib/schemas/published";
import { resizedImageUrl } from "@/lib/image-url";
import { htmlToPlainText, truncateText } from "@/components/public-tree/plain-text";
import { cx, focusRing } from "@/components/ui/class-names";

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** One published tree in the Gallery: cover, title, a line of description, Sims and generations. */
export function GalleryTile({ item }: { item: GalleryItem }) {
  const title = item.title.trim() || "Untitled Tree";
  const description = truncateText(htmlToPlainText(item.description), 160);
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
      ) : (
        <div
          aria-hidden="true"
          className="to-plum-300 text-plum-800 flex aspect-[15/8] w-full items-center justify-center bg-gradient-to-br from-plum-100 text-4xl font-bold"
        >
          {title.slice(0, 1).toUpperCase()}
        </div>
      )}
      <span className="flex flex-1 flex-col gap-1 p-4">
        <span className="line-clamp-2 font-semibold text-plum-900">{title}</span>
        {description ? (
          <span className="line-clamp-1 text-sm text-neutral-700">{description}</span>
        ) : null}
        <span className="mt-auto pt-2 text-xs text-neutral-600">
          {plural(item.sims, "Sim", "Sims")} ·{" "}
          {plural(item.generations, "generation", "generations")}
        </span>
      </span>
    </a>
  );
}
