import "server-only";
import type { GalleryPage } from "@/lib/schemas/published";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { enforceRateLimit, type RateLimitRule } from "@/lib/server/rate-limit";
import { galleryPageKept, keptGalleryPage, type KeptGalleryPage } from "./gallery-cache";
import {
  galleryKeyOf,
  readGalleryPage,
  readGalleryQuery,
  type GalleryQuery,
  type GalleryRunner,
} from "./gallery-read";

export type { GalleryQuery };

/** Searches that miss the kept pages, per client address: each one reads the database. */
export const GALLERY_SEARCH_PER_IP: RateLimitRule = {
  name: "gallery-search-ip",
  limit: 60,
  windowSeconds: 60,
  message: "Too many Gallery searches from this address.",
};

/**
 * Reads a listing request's page (`page[number]`, as the original client sends it, or `page`),
 * `search` and `sort` (newest, the default, or views). Bad values are a 400 with a sentence.
 */
export function parseGalleryQuery(params: URLSearchParams): GalleryQuery {
  const query = readGalleryQuery(params);
  if ("error" in query) throw new ApiError(400, query.error);
  return query;
}

/** The listing's statements through Prisma (the front runs the same ones through its pool). */
const prismaRunner: GalleryRunner = <Row extends Record<string, unknown>>(
  _name: string,
  text: string,
  values: readonly unknown[],
) => db.$queryRawUnsafe<Row[]>(text, ...values);

/**
 * One page of the Gallery, from memory when this instance read it lately (gallery-cache.ts). A
 * search that must read the database counts against the client address's search budget (429).
 */
export async function listGallery(
  q: GalleryQuery,
  /** null: already limited by the caller (the server's own render of a kept page). */
  clientAddress: string | null,
): Promise<KeptGalleryPage<GalleryPage>> {
  const key = galleryKeyOf(q);
  if (clientAddress !== null && q.words.length > 0 && !galleryPageKept(key)) {
    await enforceRateLimit(GALLERY_SEARCH_PER_IP, clientAddress);
  }
  return keptGalleryPage(key, () => readGalleryPage(prismaRunner, q));
}
