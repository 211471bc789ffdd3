/**
 * `npx tsx bench/gallery/options.ts` (issue 25, ADR 028): the three ways to search the Gallery,
 * measured on the scale database (BENCH_GALLERY_DB) over the same listed publications and words:
 * - terms: the GalleryTerm table the app uses (a btree with text_pattern_ops, prefix ranges);
 * - trigram: one folded document per publication with a pg_trgm GIN index, `doc LIKE '%word%'`;
 * - full-text: the same document as a tsvector ('simple' configuration) with a GIN index,
 *   `@@ to_tsquery('simple', 'word:*')`.
 * For each: build time, index size, and the median and p99 of 30 runs of a common word, a rare
 * Sim name and a two-word search, each answering the first page (24) ranked newest first, with the
 * match count. The documents are made from GalleryTerm itself, so the three see the same words.
 * Its tables are dropped at the end. Writes bench/results/gallery-options.json.
 */
import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";

const DB_URL =
  process.env.BENCH_GALLERY_DB ?? "postgres://postgres@127.0.0.1:5432/heirloom_scale_gallery";
const RUNS = Number(process.env.BENCH_GALLERY_RUNS ?? 30);
const client = new pg.Client({ connectionString: DB_URL });
await client.connect();

const timed = async (sql: string, params: unknown[] = []) => {
  const started = performance.now();
  const result = await client.query(sql, params);
  return { ms: performance.now() - started, rows: result.rows as Record<string, unknown>[] };
};
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: Math.round(at(0.5) * 100) / 100, p99: Math.round(at(0.99) * 100) / 100 };
};

const rare = (
  await client.query<{ term: string }>(`
    SELECT "term" FROM "GalleryTerm" WHERE "field" = 1 AND length("term") >= 5
    GROUP BY "term" HAVING count(*) <= 2 ORDER BY "term" LIMIT 1`)
).rows[0]!.term;
const searches: Record<string, string[]> = {
  "common word (legacy)": ["legacy"],
  [`rare Sim name (${rare})`]: [rare],
  "two words (the legacy)": ["the", "legacy"],
};

await client.query(`DROP TABLE IF EXISTS bench_gallery_docs`);
const build = await timed(`
  CREATE TABLE bench_gallery_docs AS
  SELECT p."treeId", p."publishedAt", string_agg(g."term", ' ') AS doc
  FROM "PublishedTree" p JOIN "GalleryTerm" g ON g."treeId" = p."treeId"
  WHERE p."shown" GROUP BY p."treeId", p."publishedAt"`);
await client.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
const trigramBuild = await timed(
  `CREATE INDEX bench_gallery_trgm ON bench_gallery_docs USING gin (doc gin_trgm_ops)`,
);
await client.query(`ALTER TABLE bench_gallery_docs ADD COLUMN tsv tsvector`);
const ftsFill = await timed(`UPDATE bench_gallery_docs SET tsv = to_tsvector('simple', doc)`);
const ftsBuild = await timed(
  `CREATE INDEX bench_gallery_fts ON bench_gallery_docs USING gin (tsv)`,
);
await client.query(`ANALYZE bench_gallery_docs`);
const size = async (name: string) =>
  Number(
    (await client.query<{ s: string }>(`SELECT pg_relation_size($1) AS s`, [name])).rows[0]!.s,
  );

const SQL = {
  terms: `
    WITH matches AS (
      SELECT g."treeId", w.i, min(g."field") AS "field"
      FROM unnest($1::text[]) WITH ORDINALITY AS w(word, i)
      JOIN "GalleryTerm" g ON g."term" ~>=~ w.word AND g."term" ~<~ (w.word || chr(1114111))
      GROUP BY g."treeId", w.i
    ), hits AS (
      SELECT "treeId", sum("field") AS "rank" FROM matches
      GROUP BY "treeId" HAVING count(*) = cardinality($1::text[])
    )
    SELECT p."treeId", count(*) OVER () AS total
    FROM hits JOIN "PublishedTree" p ON p."treeId" = hits."treeId" AND p."shown"
    ORDER BY hits."rank", p."publishedAt" DESC, p."treeId" DESC LIMIT 24`,
  trigram: `
    SELECT d."treeId", count(*) OVER () AS total FROM bench_gallery_docs d
    WHERE (SELECT bool_and(d.doc LIKE '%' || w || '%') FROM unnest($1::text[]) w)
      AND d.doc LIKE '%' || ($1::text[])[1] || '%'
    ORDER BY d."publishedAt" DESC, d."treeId" DESC LIMIT 24`,
  "full-text": `
    SELECT d."treeId", count(*) OVER () AS total FROM bench_gallery_docs d
    WHERE d.tsv @@ to_tsquery('simple', array_to_string(
      ARRAY(SELECT w || ':*' FROM unnest($1::text[]) w), ' & '))
    ORDER BY d."publishedAt" DESC, d."treeId" DESC LIMIT 24`,
};

const results: Record<string, Record<string, unknown>> = {};
for (const [method, sql] of Object.entries(SQL)) {
  results[method] = {};
  for (const [name, words] of Object.entries(searches)) {
    await client.query(sql, [words]); // warm
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const run = await timed(sql, [words]);
      times.push(run.ms);
      total = Number(run.rows[0]?.total ?? 0);
    }
    results[method][name] = { ...stats(times), matches: total };
    console.log(method, name, results[method][name]);
  }
}
const termIndex = await size('"GalleryTerm_term_field_treeId_idx"');
const termTable = await size('"GalleryTerm"');
const out = {
  when: new Date().toISOString(),
  listed: Number(
    (await client.query<{ n: string }>(`SELECT count(*) AS n FROM bench_gallery_docs`)).rows[0]!.n,
  ),
  runs: RUNS,
  build: {
    documentsMs: Math.round(build.ms),
    trigramIndexMs: Math.round(trigramBuild.ms),
    fullTextFillMs: Math.round(ftsFill.ms),
    fullTextIndexMs: Math.round(ftsBuild.ms),
  },
  bytes: {
    termsTable: termTable,
    termsIndex: termIndex,
    documents: await size("bench_gallery_docs"),
    trigramIndex: await size("bench_gallery_trgm"),
    fullTextIndex: await size("bench_gallery_fts"),
  },
  results,
};
await client.query(`DROP TABLE bench_gallery_docs`);
await client.end();
await fs.writeFile(
  path.resolve(import.meta.dirname, "../results/gallery-options.json"),
  JSON.stringify(out, null, 2) + "\n",
);
console.log(JSON.stringify(out.bytes), JSON.stringify(out.build));
