import "server-only";
import {
  GALLERY_LIMITS,
  GALLERY_SORTS,
  type GalleryItem,
  type GalleryPage,
  type GallerySort,
} from "@/lib/schemas/published";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { enforceRateLimit, type RateLimitRule } from "@/lib/server/rate-limit";
import { galleryPageKept, keptGalleryPage, type KeptGalleryPage } from "./gallery-cache";
import { searchWords } from "./terms";

export interface GalleryQuery {
  page: number;
  /** The search as index words; empty for no search. */
  words: string[];
  sort: GallerySort;
}

/** Searches that miss the kept pages, per client address: each one reads the database. */
export const GALLERY_SEARCH_PER_IP: RateLimitRule = {
  name: "gallery-search-ip",
  limit: 60,
  windowSeconds: 60,
  message: "Too many Gallery searches from this address.",
};

const PAGE_MESSAGE = `The page must be a whole number from 1 to ${GALLERY_LIMITS.maxPage}.`;
const SORT_MESSAGE = `The sort must be one of: ${GALLERY_SORTS.join(", ")}.`;

/**
 * Reads a listing request's page (`page[number]`, as the original client sends it, or `page`),
 * `search` and `sort` (newest, the default, or views). Bad values are a 400 with a sentence.
 */
export function parseGalleryQuery(params: URLSearchParams): GalleryQuery {
  const rawPage = params.get("page[number]") ?? params.get("page") ?? "1";
  if (!/^\d{1,6}$/.test(rawPage.trim())) throw new ApiError(400, PAGE_MESSAGE);
  const page = Number(rawPage.trim());
  if (page < 1 || page > GALLERY_LIMITS.maxPage) throw new ApiError(400, PAGE_MESSAGE);
  const rawSort = params.get("sort") ?? "newest";
  if (!(GALLERY_SORTS as readonly string[]).includes(rawSort))
    throw new ApiError(400, SORT_MESSAGE);
  return { page, words: searchWords(params.get("search")), sort: rawSort as GallerySort };
}

const keyOf = (q: GalleryQuery) => `${q.sort}|${q.page}|${q.words.join(" ")}`;

const ORDER: Record<GallerySort, string> = {
  newest: `p."publishedAt" DESC, p."treeId" DESC`,
  views: `p."viewCount" DESC, p."treeId" DESC`,
};

const TILE_COLUMNS = `p."treeId" AS "_id", p."title", p."description", p."cover", p."sims",
  p."generations", p."viewCount", p."publishedAt"`;

/** $1 limit, $2 offset: a page of the Gallery without a search. */
const pageSql = (sort: GallerySort) => `
  SELECT ${TILE_COLUMNS}, 0::bigint AS "total"
  FROM "PublishedTree" p
  WHERE p."shown"
  ORDER BY ${ORDER[sort]}
  LIMIT $1 OFFSET $2`;

const COUNT_SQL = `SELECT count(*) AS "total" FROM "PublishedTree" p WHERE p."shown"`;

/**
 * $1 words, $2 limit, $3 offset: the shown publications that have, for every word, a search word
 * beginning with it. Ranked by where each word was found at best (title 0, a Sim's name 1, the
 * description 2), summed over the words: title matches first (ADR 028). The range is the prefix's:
 * every text starting with w sorts (bytewise: the column's collation is C) between w and w || U+10FFFF.
 */
const searchSql = (sort: GallerySort) => `
  WITH matches AS (
    SELECT g."treeId", w.i, min(g."field") AS "field"
    FROM unnest($1::text[]) WITH ORDINALITY AS w(word, i)
    JOIN "GalleryTerm" g ON g."term" >= w.word AND g."term" < (w.word || chr(1114111))
    GROUP BY g."treeId", w.i
  ), hits AS (
    SELECT "treeId", sum("field") AS "rank" FROM matches
    GROUP BY "treeId" HAVING count(*) = cardinality($1::text[])
  )
  SELECT ${TILE_COLUMNS}, count(*) OVER () AS "total"
  FROM hits JOIN "PublishedTree" p ON p."treeId" = hits."treeId" AND p."shown"
  ORDER BY hits."rank", ${ORDER[sort]}
  LIMIT $2 OFFSET $3`;

interface TileRow {
  _id: string;
  title: string;
  description: string;
  cover: string | null;
  sims: number;
  generations: number;
  viewCount: number;
  publishedAt: Date;
  total: bigint | number;
}

const toItem = (r: TileRow): GalleryItem => ({
  _id: r._id,
  title: r.title,
  description: r.description,
  cover: r.cover,
  sims: r.sims,
  generations: r.generations,
  viewCount: r.viewCount,
  lastPublishDate: r.publishedAt.toISOString(),
});

async function readGalleryPage(q: GalleryQuery): Promise<GalleryPage> {
  const { pageSize } = GALLERY_LIMITS;
  const offset = (q.page - 1) * pageSize;
  let rows: TileRow[];
  let total: number;
  if (q.words.length === 0) {
    const [page, count] = await Promise.all([
      db.$queryRawUnsafe<TileRow[]>(pageSql(q.sort), pageSize, offset),
      db.$queryRawUnsafe<{ total: bigint | number }[]>(COUNT_SQL),
    ]);
    rows = page;
    total = Number(count[0]?.total ?? 0);
  } else {
    rows = await db.$queryRawUnsafe<TileRow[]>(searchSql(q.sort), q.words, pageSize, offset);
    if (rows[0]) total = Number(rows[0].total);
    else if (q.page === 1) total = 0;
    else {
      // Past the last page: count the matches once, from the first page's window.
      const first = await db.$queryRawUnsafe<TileRow[]>(searchSql(q.sort), q.words, 1, 0);
      total = Number(first[0]?.total ?? 0);
    }
  }
  return {
    data: rows.map(toItem),
    meta: {
      totalPages: Math.max(1, Math.ceil(total / pageSize)),
      total,
      page: q.page,
      pageSize,
    },
  };
}

/**
 * One page of the Gallery, from memory when this instance read it within GALLERY_CACHE_MS. A
 * search that must read the database counts against the client address's search budget (429).
 */
export async function listGallery(
  q: GalleryQuery,
  /** null: already limited by the caller (the server's own render of a kept page). */
  clientAddress: string | null,
): Promise<KeptGalleryPage<GalleryPage>> {
  const key = keyOf(q);
  if (clientAddress !== null && q.words.length > 0 && !galleryPageKept(key)) {
    await enforceRateLimit(GALLERY_SEARCH_PER_IP, clientAddress);
  }
  return keptGalleryPage(key, () => readGalleryPage(q));
}
