// One page of the Gallery read from the database (ADR 028), engine-agnostic: the route handler
// runs it through Prisma (list-gallery.ts), the server in front of Next through its data-access
// seam (front/front-db.ts), so both read the same SQL and answer the same JSON. Loaded by both
// module graphs: no "server-only" imports.
import {
  GALLERY_LIMITS,
  GALLERY_SORTS,
  type GalleryPage,
  type GallerySort,
} from "@/lib/schemas/published";
import { searchWords } from "./terms";

export interface GalleryQuery {
  page: number;
  /** The search as index words; empty for no search. */
  words: string[];
  sort: GallerySort;
}

/** Runs one statement with positional parameters ($1…) and answers its rows. */
export type GalleryRunner = <Row extends Record<string, unknown>>(
  name: string,
  text: string,
  values: readonly unknown[],
) => Promise<Row[]>;

export const GALLERY_PAGE_MESSAGE = `The page must be a whole number from 1 to ${GALLERY_LIMITS.maxPage}.`;
export const GALLERY_SORT_MESSAGE = `The sort must be one of: ${GALLERY_SORTS.join(", ")}.`;

/**
 * Reads a listing request's page (`page[number]`, as the original client sends it, or `page`),
 * `search` and `sort` (newest, the default, or views); a bad value is the sentence of its 400.
 */
export function readGalleryQuery(params: URLSearchParams): GalleryQuery | { error: string } {
  const rawPage = (params.get("page[number]") ?? params.get("page") ?? "1").trim();
  if (!/^\d{1,6}$/.test(rawPage)) return { error: GALLERY_PAGE_MESSAGE };
  const page = Number(rawPage);
  if (page < 1 || page > GALLERY_LIMITS.maxPage) return { error: GALLERY_PAGE_MESSAGE };
  const rawSort = params.get("sort") ?? "newest";
  if (!(GALLERY_SORTS as readonly string[]).includes(rawSort)) {
    return { error: GALLERY_SORT_MESSAGE };
  }
  return { page, words: searchWords(params.get("search")), sort: rawSort as GallerySort };
}

/** The kept page's key: one per distinct answer. */
export const galleryKeyOf = (q: GalleryQuery) => `${q.sort}|${q.page}|${q.words.join(" ")}`;

const ORDER: Record<GallerySort, string> = {
  newest: `p."publishedAt" DESC, p."treeId" DESC`,
  views: `p."viewCount" DESC, p."treeId" DESC`,
};

// The publication time as epoch milliseconds: a number on every driver (pg reads a timestamp
// without time zone in the process's zone; Prisma in UTC).
const TILE_COLUMNS = `p."treeId" AS "_id", p."title", p."description", p."cover", p."sims",
  p."generations", p."viewCount",
  round(extract(epoch FROM p."publishedAt") * 1000)::float8 AS "publishedMs"`;

/** $1 limit, $2 offset: a page of the Gallery without a search. */
const pageSql = (sort: GallerySort) => `
  SELECT ${TILE_COLUMNS}
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

interface TileRow extends Record<string, unknown> {
  _id: string;
  title: string;
  description: string;
  cover: string | null;
  sims: number;
  generations: number;
  viewCount: number;
  publishedMs: number;
  total?: bigint | number | string;
}

/** Reads one page of the Gallery through `run` (one or two statements). */
export async function readGalleryPage(run: GalleryRunner, q: GalleryQuery): Promise<GalleryPage> {
  const { pageSize } = GALLERY_LIMITS;
  const offset = (q.page - 1) * pageSize;
  let rows: TileRow[];
  let total: number;
  if (q.words.length === 0) {
    const [page, count] = await Promise.all([
      run<TileRow>(`gallery_page_${q.sort}`, pageSql(q.sort), [pageSize, offset]),
      run<{ total: bigint | number | string }>("gallery_count", COUNT_SQL, []),
    ]);
    rows = page;
    total = Number(count[0]?.total ?? 0);
  } else {
    const search = searchSql(q.sort);
    rows = await run<TileRow>(`gallery_search_${q.sort}`, search, [q.words, pageSize, offset]);
    if (rows[0]) total = Number(rows[0].total);
    else if (q.page === 1) total = 0;
    else {
      // Past the last page: count the matches once, from the first page's window.
      const first = await run<TileRow>(`gallery_search_${q.sort}`, search, [q.words, 1, 0]);
      total = Number(first[0]?.total ?? 0);
    }
  }
  return {
    data: rows.map((r) => ({
      _id: r._id,
      title: r.title,
      description: r.description,
      cover: r.cover,
      sims: Number(r.sims),
      generations: Number(r.generations),
      viewCount: Number(r.viewCount),
      lastPublishDate: new Date(Number(r.publishedMs)).toISOString(),
    })),
    meta: {
      totalPages: Math.max(1, Math.ceil(total / pageSize)),
      total,
      page: q.page,
      pageSize,
    },
  };
}
