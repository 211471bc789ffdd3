import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { GalleryView } from "@/components/gallery/gallery-view";
import { galleryHref, readGalleryParams } from "@/lib/gallery-query";
import { getEnv } from "@/lib/env";
import { GALLERY_LIMITS } from "@/lib/schemas/published";
import { ApiError } from "@/lib/server/http/errors";
import { GALLERY_RENDER_HEADER, isGalleryRender } from "@/lib/server/gallery/gallery-pages-secret";
import { listGallery } from "@/lib/server/gallery/list-gallery";
import { searchWords } from "@/lib/server/gallery/terms";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const params = readGalleryParams(await searchParams);
  const t = await getTranslations("GalleryPage");
  const search = params.search.trim();
  const title = search.length >= GALLERY_LIMITS.minSearch ? t("searchTitle", { search }) : t("title");
  const DESCRIPTION = t("description");
  const url = galleryHref(params);
  return {
    metadataBase: new URL(getEnv().APP_URL),
    title,
    description: DESCRIPTION,
    alternates: { canonical: url },
    openGraph: {
      type: "website",
      siteName: "Heirloom",
      url,
      title: `${title} · Heirloom`,
      description: DESCRIPTION,
    },
    twitter: { card: "summary", title: `${title} · Heirloom`, description: DESCRIPTION },
  };
}

/**
 * The Gallery: published trees whose owners listed them, newest or most viewed first, searchable
 * by title, description and the names of their Sims. Plain links and a GET form, so it works
 * before (and without) scripts; the production server keeps each page (ADR 028).
 */
export default async function GalleryPage({ searchParams }: Props) {
  const params = readGalleryParams(await searchParams);
  const requestHeaders = await headers();
  // The server's own render of a page it keeps was rate-limited there (gallery-pages.ts).
  const address = isGalleryRender(requestHeaders.get(GALLERY_RENDER_HEADER))
    ? null
    : (requestHeaders.get("x-forwarded-for")?.split(",").pop()?.trim() ?? "unknown");
  const query = { page: params.page, sort: params.sort, words: searchWords(params.search) };
  const result = await listGallery(query, address).then(
    ({ value }) => ({ page: value, notice: undefined }),
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 429) {
        return { page: null, notice: error.message };
      }
      throw error;
    },
  );
  // Past the last page is a 404 with a link back (gallery/not-found.tsx), not "Page 99 of 2": the
  // address names nothing, so a crawler drops it and a reader is not shown an empty Gallery.
  if (result.page && params.page > result.page.meta.totalPages) notFound();
  return <GalleryView params={params} page={result.page} notice={result.notice} />;
}
