import { GALLERY_LIMITS, GALLERY_SORTS, type GallerySort } from "@/lib/schemas/published";

/** The /gallery page's own address parameters, read leniently: a bad value is its default. */
export interface GalleryPageParams {
  page: number;
  search: string;
  sort: GallerySort;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function readGalleryParams(
  params: Record<string, string | string[] | undefined>,
): GalleryPageParams {
  const rawPage = Number(first(params.page) ?? "1");
  const page =
    Number.isInteger(rawPage) && rawPage >= 1 ? Math.min(rawPage, GALLERY_LIMITS.maxPage) : 1;
  const rawSort = first(params.sort) ?? "newest";
  const sort = (GALLERY_SORTS as readonly string[]).includes(rawSort)
    ? (rawSort as GallerySort)
    : "newest";
  const search = (first(params.search) ?? "").slice(0, GALLERY_LIMITS.maxSearch);
  return { page, search, sort };
}

/** The address of a Gallery page; defaults are left out, so each page has one address. */
export function galleryHref(params: Partial<GalleryPageParams>): string {
  const query = new URLSearchParams();
  const search = params.search?.trim() ?? "";
  if (search.length >= GALLERY_LIMITS.minSearch) query.set("search", search);
  if (params.sort && params.sort !== "newest") query.set("sort", params.sort);
  if (params.page && params.page > 1) query.set("page", String(params.page));
  const text = query.toString();
  return text ? `/gallery?${text}` : "/gallery";
}
