// One page of the Gallery read from the database (ADR 028), engine-agnostic: the route handler
// runs it through Prisma (list-gallery.ts), the server in front of Next through its data-access
// seam (front/front-db.ts), so both read the same SQL and answer the same JSON. Loaded by both
// module graphs: no "server-only" imports.
import {
  GALLERY_LIMITS,
  GALLERY_SORTS,
  type GalleryMatch,
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
  round(extract(epoch FROM p."publishedAt") * 1000)::float8 AS "publishedMs",
  p."ownerId" AS "author"`;

/**
 * What the Gallery lists: shown (listed, not hidden) and with at least one Sim. An empty tree's
 * tile would lead to a page with nothing on it (issue 36); it is listed again, without a word
 * from its owner, once a publish brings Sims.
 */
const LISTED = `p."shown" AND p."sims" > 0`;

/** $1 limit, $2 offset: a page of the Gallery without a search. */
const pageSql = (sort: GallerySort) => `
  SELECT ${TILE_COLUMNS}
  FROM "PublishedTree" p
  WHERE ${LISTED}
  ORDER BY ${ORDER[sort]}
  LIMIT $1 OFFSET $2`;

const COUNT_SQL = `SELECT count(*) AS "total" FROM "PublishedTree" p WHERE ${LISTED}`;

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
  FROM hits JOIN "PublishedTree" p ON p."treeId" = hits."treeId" AND ${LISTED}
  ORDER BY hits."rank", ${ORDER[sort]}
  LIMIT $2 OFFSET $3`;

/**
 * SQL's version of terms.ts's foldText for a Sim's name, for the letters Sims names carry most:
 * lower case, the Latin accents taken off, and the letters NFKD does not take apart folded as
 * foldText folds them. A letter it does not know stays as it is (the match is then missed, never
 * wrong).
 */
const ACCENTED = "àáâãäåāăąçćĉċčďèéêëēĕėęěĝğġģĥìíîïĩīĭįĵķĺļľñńņňòóôõöōŏőŕŗřśŝşšţťùúûüũūŭůűųŵýÿŷźżž";
const PLAIN = "aaaaaaaaacccccdeeeeeeeeegggghiiiiiiiijklllnnnnoooooooorrrssssttuuuuuuuuuuwyyyzzz";
const foldSql = (text: string) =>
  `replace(replace(replace(replace(replace(replace(translate(lower(${text}), '${ACCENTED}', '${PLAIN}'),
    'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe'), 'ø', 'o'), 'ł', 'l'), 'þ', 'th')`;

/**
 * $1 the page's tree ids, $2 the search's words: for each tree, a Sim of its snapshot with a name
 * word that begins with one of the words (the first in the snapshot's order), for the tile to
 * show beside a match found by name (issue 36). One Sim per tree, and only for the page's trees.
 */
const MATCHES_SQL = `
  SELECT t."treeId", m."firstName", m."lastName", m."avatar"
  FROM unnest($1::text[]) AS t("treeId")
  JOIN "PublishedTree" p ON p."treeId" = t."treeId"
  CROSS JOIN LATERAL (
    SELECT s ->> 'firstName' AS "firstName", s ->> 'lastName' AS "lastName", s ->> 'avatar' AS "avatar"
    FROM jsonb_array_elements(p."people") s
    WHERE EXISTS (
      SELECT 1 FROM unnest($2::text[]) AS w(word)
      WHERE position(w.word IN ${foldSql(`concat_ws(' ', s ->> 'firstName', s ->> 'lastName')`)}) > 0
        AND ${foldSql(`concat_ws(' ', s ->> 'firstName', s ->> 'lastName')`)} ~ ('(^|[ ''’.-])' || w.word)
    )
    LIMIT 1
  ) m`;

interface MatchRow extends Record<string, unknown> {
  treeId: string;
  firstName: string | null;
  lastName: string | null;
  avatar: string | null;
}

interface TileRow extends Record<string, unknown> {
  _id: string;
  title: string;
  description: string;
  cover: string | null;
  sims: number;
  generations: number;
  viewCount: number;
  publishedMs: number;
  author: string;
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
  const matches = new Map<string, MatchRow>();
  if (q.words.length > 0 && rows.length > 0) {
    const found = await run<MatchRow>("gallery_matches", MATCHES_SQL, [rows.map((r) => r._id), q.words]);
    for (const match of found) matches.set(match.treeId, match);
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
      author: r.author,
      ...(q.words.length > 0 ? { match: matchOf(matches.get(r._id)) } : {}),
    })),
    meta: {
      totalPages: Math.max(1, Math.ceil(total / pageSize)),
      total,
      page: q.page,
      pageSize,
    },
  };
}

/** The Sim a search found in a tree, as a tile shows it; null when the words matched no Sim. */
function matchOf(row: MatchRow | undefined): GalleryMatch | null {
  if (!row) return null;
  const name = [row.firstName, row.lastName].filter((part) => part?.trim()).join(" ");
  return { name, avatar: row.avatar || null };
}
