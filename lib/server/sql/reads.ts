// The SQL of the hot reads, as text with positional parameters. Two callers run the same text:
// the route handlers under app/api (through Prisma's $queryRawUnsafe, parameters bound) and the
// fast read path in lib/server/fast-reads.ts (through pg). Keeping one copy keeps their answers
// byte for byte the same; tests/api/fast-reads.test.ts compares them.

import { treeDataText } from "./tree-data";

/**
 * $1 session id, $2 username, $3 account id (a token's sid, username and aid) → the signed-in user,
 * or no row when the session was revoked or the account deleted (ADR 003). One statement, two
 * primary-key lookups: the session, then its user; a later account with the same username has
 * another account id and none of the old sessions.
 */
export const SESSION_USER_SQL = `
  SELECT u."id", u."email", u."accountId", s."id" AS "sessionId"
  FROM "Session" s JOIN "User" u ON u."id" = s."userId"
  WHERE s."id" = $1 AND s."userId" = $2 AND u."accountId" = $3`;

/** $1 treeId, $2 ownerId: the owner's tree, not deleted. */
const OWNED_TREE = `t."id" = $1 AND t."ownerId" = $2 AND t."deletedAt" IS NULL`;
/**
 * …and $3, $4 are the token's session id and account id: SESSION_USER_SQL's check folded into the
 * read, so the fast path spends one statement where the route handler spends two. No row then
 * means "revoked" (or "account deleted") as well as "not found"; the fast path hands both to the
 * route handler, which tells them apart.
 */
const CURRENT_SESSION = `EXISTS (
    SELECT 1 FROM "Session" s JOIN "User" u ON u."id" = s."userId"
    WHERE s."id" = $3 AND s."userId" = $2 AND u."accountId" = $4
  )`;

/**
 * The generation of GET /api/trees/{id}'s answer, which keys its cached body: the answer holds the
 * tree's row and its people's names (issue 13), so a change to either makes it new. Both
 * generations only ever grow, so their sum is the same only while neither has changed.
 */
export const TREE_BODY_GENERATION = `(t."treeGeneration" + t."peopleGeneration")`;

/** The tree's JSON text (treeJson) before its structure: `{"_id":…,"data":`. */
const TREE_JSON_HEAD = `'{"_id":' || to_json(t."id")::text
    || ',"title":' || to_json(t."title")::text
    || ',"description":' || to_json(t."description")::text
    || ',"cover":' || COALESCE(to_json(t."cover")::text, 'null')
    || ',"data":'`;
/** …and after it, up to (not including) its closing brace: `,"version":…,"heirs":[…]`. */
const TREE_JSON_TAIL = `',"version":' || t."version"::text
    || ',"heirs":' || t."heirs"::text`;

/**
 * The tree's row as row_to_json wrote it (keys without spaces, each value as json writes it), its
 * structure put together from its chunks (ADR 037) and written as jsonb writes it, as before.
 */
const treeJson = (where: string) => `
  SELECT ${TREE_JSON_HEAD} || ${treeDataText("t")} || ${TREE_JSON_TAIL} || '}' AS "json", (
    SELECT json_object_agg(p."id", json_build_array(p."firstName", p."lastName"))::text
    FROM "Person" p WHERE p."treeId" = t."id"
  ) AS "names", t."version", t."detailsVersion",
  ${TREE_BODY_GENERATION} AS "generation", t."treeGeneration"
  FROM "Tree" t
  WHERE ${where}`;

/**
 * $1 treeId, $2 ownerId → the tree as the JSON text of GET /api/trees/{id} (serializeTree's keys in
 * its order) with, apart, its people's names (`{id: [firstName, lastName]}` as JSON text, for
 * withPersonNames), its version and details version for the ETag and the body's generation (the
 * cache key, read in the same snapshot); no row for someone else's, a missing or a deleted tree.
 */
export const TREE_JSON_SQL = treeJson(OWNED_TREE);
/** TREE_JSON_SQL for the token's ($2 username, $3 session id, $4 account id) live session only. */
export const TREE_JSON_FOR_SESSION_SQL = treeJson(`${OWNED_TREE} AND ${CURRENT_SESSION}`);

/** A person's keys in serializePerson's order (GET /api/people?tree=, the original client's). */
const PERSON_COLUMNS = `p."id" AS "_id", p."treeId" AS "tree", p."avatar", p."firstName", p."lastName",
          p."bio", p."traits", p."aspirations", p."lifeStates", p."custom", p."links", p."gameId"`;
/** Each person's JSON text, from PERSON_COLUMNS, as `person.json` (WHOLE_PERSON.from). */
const WHOLE_PERSON = {
  json: "person.json",
  from: `
    CROSS JOIN LATERAL (
      -- gameId is the last key, and only Sims that came from the game have one (serializePerson)
      SELECT replace(row_to_json(r)::text, ',"gameId":null}', '}') AS json FROM (
        SELECT ${PERSON_COLUMNS}
      ) r
    ) person`,
};
/**
 * What the editor's canvas draws of a person (GET /api/people?tree=&fields=canvas, ADR 032): the
 * same keys in the same order without the tree id (the editor knows it), the bio, the lists and
 * the custom rows, which the details panel fetches when it opens. The database keeps it with the
 * person (migration person_canvas_json, a generated column): the very text that row_to_json
 * wrote of those keys on every read before.
 */
const CANVAS_PERSON = { json: `p."canvasJson"`, from: "" };

/**
 * The people lists' order, oldest first: the people part's, and the ids' that the editor's read
 * indexes its references against (TREE_CANVAS_HEAD_IDS_FOR_SESSION_SQL), which must be the same.
 */
const PEOPLE_ORDER = `p."createdAt", p."id"`;

const peopleJson = (
  where: string,
  person = WHOLE_PERSON,
  tail = `t."peopleGeneration" AS "generation"`,
) => `
  SELECT '[' || COALESCE((
    SELECT string_agg(${person.json}, ',' ORDER BY ${PEOPLE_ORDER})
    FROM "Person" p${person.from}
    WHERE p."treeId" = t."id"
  ), '') || ']' AS "json", ${tail}
  FROM "Tree" t
  WHERE ${where}`;

/**
 * $1 treeId, $2 ownerId → the people of the owner's tree, oldest first, as the JSON text of
 * GET /api/people?tree= (serializePerson's keys in its order) and the tree's people generation
 * (the cache key, read in the same snapshot); no row when the tree is not the owner's. The ordered aggregate sorts the persons' JSON (3.5 MB at 10,000 people), so callers
 * run it with a work_mem of 64 MB: with the default 4 MB that sort spills to temporary files.
 */
export const PEOPLE_JSON_SQL = peopleJson(OWNED_TREE);
/** PEOPLE_JSON_SQL for the token's ($2 username, $3 session id, $4 account id) live session only. */
export const PEOPLE_JSON_FOR_SESSION_SQL = peopleJson(`${OWNED_TREE} AND ${CURRENT_SESSION}`);
/** PEOPLE_JSON_SQL with the canvas's keys only (CANVAS_PERSON). */
export const PEOPLE_CANVAS_JSON_SQL = peopleJson(OWNED_TREE, CANVAS_PERSON);
/** PEOPLE_CANVAS_JSON_SQL for the token's live session only (the fast read in front of Next). */
export const PEOPLE_CANVAS_JSON_FOR_SESSION_SQL = peopleJson(
  `${OWNED_TREE} AND ${CURRENT_SESSION}`,
  CANVAS_PERSON,
);

/**
 * $1 treeId, $2 username, $3 session id, $4 account id → the generations and version of the owner's
 * tree, for a live session only: what the fast path checks before it serves a cached body. The
 * generations are bumped by triggers (migration 20261122132122_read_generations).
 */
export const TREE_GENERATIONS_FOR_SESSION_SQL = `
  SELECT ${TREE_BODY_GENERATION} AS "treeBodyGeneration", t."peopleGeneration", t."version",
    t."detailsVersion", t."treeGeneration"
  FROM "Tree" t
  WHERE ${OWNED_TREE} AND ${CURRENT_SESSION}`;

/** The work_mem PEOPLE_JSON_SQL wants (see above). */
export const PEOPLE_WORK_MEM = "64MB";

/** The published tree's own keys, in getPublishedTree's order, as json_build_object arguments. */
const PUBLISHED_TREE_KEYS = `
    '_id', p."treeId",
    'title', p."tree" -> 'title',
    'description', p."tree" -> 'description',
    'cover', p."tree" -> 'cover',
    'data', p."tree" -> 'data',
    'heirs', COALESCE(p."tree" -> 'heirs', '[]'::jsonb),
    'people', p."people",
    'lastPublishDate', to_char(p."publishedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * $1 treeId → GET /api/published/{id}'s answer as JSON text: the tree itself, as the original
 * client reads it (\`answer.data\`, \`answer.title\`), with its people, publish date and view count,
 * in getPublishedTree's key order. \`publishedAt\` is UTC without a zone, so the pattern gives
 * toISOString's form.
 */
export const PUBLISHED_JSON_SQL = `
  SELECT json_build_object(${PUBLISHED_TREE_KEYS},
    'viewCount', p."viewCount",
    'publishToGallery', p."listed"
  )::text AS "json"
  FROM "PublishedTree" p
  WHERE p."treeId" = $1`;

/**
 * $1 treeId → the head of the public pages (their bar, their link preview): the published tree's
 * title, description, cover and publish date as one small JSON text, without its structure and
 * people, so that a page of a large publication need not read the whole of it for its head.
 */
export const PUBLISHED_HEAD_SQL = `
  SELECT json_build_object(
    '_id', p."treeId",
    'title', p."tree" -> 'title',
    'description', p."tree" -> 'description',
    'cover', p."tree" -> 'cover',
    'lastPublishDate', to_char(p."publishedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text AS "json"
  FROM "PublishedTree" p
  WHERE p."treeId" = $1`;

/**
 * $1 treeId, $2 publishedAt in epoch milliseconds → the immutable snapshot at
 * /api/published/{id}/snapshot/{version}: PUBLISHED_JSON_SQL's answer without the view count
 * (which changes with every view), only while that very publication is the current one.
 */
export const PUBLISHED_SNAPSHOT_SQL = `
  SELECT json_build_object(${PUBLISHED_TREE_KEYS})::text AS "json"
  FROM "PublishedTree" p
  WHERE p."treeId" = $1
    AND floor(extract(epoch FROM p."publishedAt") * 1000)::bigint = $2::bigint`;

/**
 * $1 treeId → when the current publication was made, in epoch milliseconds (as text), and its view
 * count; no row if none. One primary-key lookup.
 */
export const PUBLISHED_VERSION_SQL = `
  SELECT floor(extract(epoch FROM p."publishedAt") * 1000)::bigint::text AS "publishedAt",
    p."viewCount", p."listed"
  FROM "PublishedTree" p
  WHERE p."treeId" = $1`;

/**
 * GET /api/published/{id}'s answer is PUBLISHED_SNAPSHOT_SQL's text without its closing brace,
 * then this and the brace: json_build_object writes `"key" : value` pairs joined by ", ", so the
 * bytes are PUBLISHED_JSON_SQL's own (tests/api/fast-reads.test.ts compares them). The server in
 * front keeps the publication's text compressed once and adds the count to each answer.
 */
export const publishedJsonTail = (viewCount: number, listed: boolean) =>
  `, "viewCount" : ${viewCount}, "publishToGallery" : ${listed}}`;

/**
 * GET /api/trees/{id}?fields=canvas's parts (ADR 038): TREE_JSON_SQL's tree (its `names` column is
 * not asked for, so the planner drops it) and PEOPLE_CANVAS_JSON_SQL's people, in one statement,
 * so in one snapshot: every reference in the structure is one of these very people or none. The
 * tree's body generation covers both (its people's generation is in it). `treeWhere` holds the
 * owner's, and for the fast read the live session's, check; the people's side then needs only
 * the tree's own row.
 */
const treeCanvasJson = (treeWhere: string) => `
  SELECT tree."json", people."json" AS "people", tree."version", tree."detailsVersion",
    tree."generation", tree."treeGeneration"
  FROM (${treeJson(treeWhere)}) tree
  CROSS JOIN (${peopleJson(OWNED_TREE, CANVAS_PERSON)}) people`;

/**
 * GET /api/trees/{id}?fields=canvas's tree part in pieces (ADR 038, "Later"), for the fast read,
 * which keeps the chunks' texts between reads, in one statement, so one snapshot. Its first row
 * (`key` null): the tree's JSON text up to its structure (`head`) and after it without its closing
 * brace (`tail`), the top of the structure as stored (`root`, jsonb's text, chunks still
 * placeholders), every chunk's key and row version (`chunks`: `key:xmin,…`, or null), the version,
 * details version and both generations; with `ids`, its people's ids in the people part's order
 * (comma-separated, or null), so that the chunks can be indexed while that part is still being
 * read. Then a row for each chunk whose `key:xmin` is not in $5 (comma-separated, as `chunks`
 * writes them): its `key`, `xmin` and `text`. A chunk's `xmin` is the transaction that wrote its
 * row version: a save that rewrites a chunk gives it a new one, one it left alone keeps it.
 * $1 treeId, $2 username, $3 session id, $4 account id (the live session only), $5 kept chunks.
 */
const treeCanvasHead = (ids: boolean) => `
  WITH tree AS (
    SELECT t.* FROM "Tree" t WHERE ${OWNED_TREE} AND ${CURRENT_SESSION}
  )
  SELECT NULL::int AS "key", NULL::text AS "xmin", NULL::text AS "text",
    ${TREE_JSON_HEAD} AS "head", t."data"::text AS "root", ${TREE_JSON_TAIL} AS "tail", (
      SELECT string_agg(c."key"::text || ':' || c."xmin"::text, ',')
      FROM "TreeChunk" c WHERE c."treeId" = t."id"
    ) AS "chunks", ${
      ids
        ? `(
      SELECT string_agg(p."id", ',' ORDER BY ${PEOPLE_ORDER})
      FROM "Person" p WHERE p."treeId" = t."id"
    )`
        : "NULL::text"
    } AS "ids", t."version", t."detailsVersion", t."treeGeneration", t."peopleGeneration"
  FROM tree t
  UNION ALL
  SELECT c."key", c."xmin"::text, c."data"::text,
    NULL, NULL, NULL, NULL, NULL, NULL::int, NULL::int, NULL::int, NULL::int
  FROM "TreeChunk" c JOIN tree t ON c."treeId" = t."id"
  WHERE NOT (c."key"::text || ':' || c."xmin"::text = ANY(string_to_array($5::text, ',')))`;
export const TREE_CANVAS_HEAD_FOR_SESSION_SQL = treeCanvasHead(false);
/** TREE_CANVAS_HEAD_FOR_SESSION_SQL with its people's ids. */
export const TREE_CANVAS_HEAD_IDS_FOR_SESSION_SQL = treeCanvasHead(true);

/**
 * The people's part of TREE_CANVAS_JSON_FOR_SESSION_SQL, with the tree row's own body generation,
 * tree generation, version and details version: the fast read joins it to the tree's pieces
 * (TREE_CANVAS_HEAD_FOR_SESSION_SQL) when both answer the same generations, so one snapshot's.
 */
export const TREE_CANVAS_PEOPLE_PART_FOR_SESSION_SQL = peopleJson(
  `${OWNED_TREE} AND ${CURRENT_SESSION}`,
  CANVAS_PERSON,
  `${TREE_BODY_GENERATION} AS "generation", t."treeGeneration", t."version", t."detailsVersion"`,
);

/**
 * $1 treeId, $2 ownerId → the tree's JSON text (TREE_JSON_SQL's, references as stored), the canvas
 * people's JSON text (PEOPLE_CANVAS_JSON_SQL's, oldest first), the version, details version and
 * body generation; no row for someone else's, a missing or a deleted tree. The people's sort wants
 * PEOPLE_WORK_MEM.
 */
export const TREE_CANVAS_JSON_SQL = treeCanvasJson(OWNED_TREE);
/** TREE_CANVAS_JSON_SQL for the token's ($2 username, $3 session id, $4 account id) live session only. */
export const TREE_CANVAS_JSON_FOR_SESSION_SQL = treeCanvasJson(
  `${OWNED_TREE} AND ${CURRENT_SESSION}`,
);
