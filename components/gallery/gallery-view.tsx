import { useTranslations } from "next-intl";
import type { GalleryPage } from "@/lib/schemas/published";
import { GALLERY_LIMITS } from "@/lib/schemas/published";
import { PageHeader } from "@/components/ui/card";
import { cx, focusRing } from "@/components/ui/class-names";
import { GalleryTile } from "./gallery-tile";
import { galleryHref, type GalleryPageParams } from "@/lib/gallery-query";

const pill = (active: boolean) =>
  cx(
    "rounded-full px-3 py-1 text-sm",
    active ? "bg-plum-700 text-white" : "bg-plum-50 text-plum-900 hover:bg-plum-100",
    focusRing,
  );

/** The Gallery's page: search, sort, tiles and paging, all plain links and a GET form. */
export function GalleryView({
  params,
  page,
  notice,
}: {
  params: GalleryPageParams;
  page: GalleryPage | null;
  notice?: string;
}) {
  const t = useTranslations("GalleryView");
  const searching = params.search.trim().length >= GALLERY_LIMITS.minSearch;
  const totalPages = page?.meta.totalPages ?? 1;
  const total = page?.meta.total ?? 0;
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title={t("title")}
        description={t("intro")}
      />
      <form
        role="search"
        action="/gallery"
        method="get"
        className="mb-4 flex flex-wrap items-center gap-2"
      >
        <label htmlFor="gallery-search" className="sr-only">
          {t("searchLabel")}
        </label>
        <input
          id="gallery-search"
          type="search"
          name="search"
          defaultValue={params.search}
          maxLength={GALLERY_LIMITS.maxSearch}
          placeholder={t("searchPlaceholder")}
          className={cx(
            "min-w-0 flex-1 rounded-md border border-plum-200 bg-white px-3 py-2",
            focusRing,
          )}
        />
        {params.sort !== "newest" ? <input type="hidden" name="sort" value={params.sort} /> : null}
        <button
          type="submit"
          className={cx("rounded-md bg-plum-700 px-4 py-2 font-medium text-white", focusRing)}
        >
          {t("search")}
        </button>
      </form>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-neutral-700" aria-live="polite">
          {page === null
            ? ""
            : searching
              ? t("matches", { count: total, search: params.search.trim() })
              : t("total", { count: total })}
        </p>
        <nav aria-label={t("sortLabel")} className="flex gap-2">
          {(["newest", "views"] as const).map((sort) => (
            <a
              key={sort}
              href={galleryHref({ ...params, sort, page: 1 })}
              aria-current={params.sort === sort ? "page" : undefined}
              className={pill(params.sort === sort)}
            >
              {sort === "newest" ? t("newest") : t("views")}
            </a>
          ))}
        </nav>
      </div>
      {notice ? (
        <p role="alert" className="rounded-md bg-amber-50 p-4 text-amber-900">
          {notice}
        </p>
      ) : null}
      {page && page.data.length > 0 ? (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {page.data.map((item) => (
            <li key={item._id}>
              <GalleryTile item={item} />
            </li>
          ))}
        </ul>
      ) : page ? (
        <p className="rounded-md bg-white p-6 text-neutral-700">
          {searching ? t("noMatch") : t("empty")}
        </p>
      ) : null}
      {page && totalPages > 1 ? (
        <nav aria-label={t("pagesLabel")} className="mt-8 flex items-center justify-center gap-4 text-sm">
          {params.page > 1 ? (
            <a
              rel="prev"
              href={galleryHref({ ...params, page: Math.min(params.page - 1, totalPages) })}
              className={pill(false)}
            >
              {t("previous")}
            </a>
          ) : null}
          <span className="text-neutral-700">
            {t("pageOf", { page: params.page, pages: totalPages })}
          </span>
          {params.page < totalPages ? (
            <a
              rel="next"
              href={galleryHref({ ...params, page: params.page + 1 })}
              className={pill(false)}
            >
              {t("next")}
            </a>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
