/**
 * `npx tsx --conditions react-server bench/save/chunk-read.ts` (ADR 037): what reading a whole
 * structure costs once it is stored in chunks, against reading it as one value, on both engines.
 * The same structures (the gedcom4j sample 3 genealogy and the 10,000-Sim deep legacy of
 * bench:editor) are stored twice in one database: whole in "Tree"."data" and cut into chunks by
 * the save's own code (chunkedWrite). Each read is `heirloom_tree_text` (what GET /api/trees/{id},
 * the export and the publish run), alternated, medians of BENCH_CHUNK_RUNS (15). Writes
 * bench/results/chunk-read.json.
 */
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { gunzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { parseGedcom } from "@/lib/gedcom/import";
import type { TreeNode } from "@/lib/schemas/tree";
import { chunkedWrite } from "@/lib/server/trees/structure-json";
import { generateLegacy } from "../editor/generate";
import { round } from "../editor/stats";

const root = path.resolve(import.meta.dirname, "../..");
const RUNS = Number(process.env.BENCH_CHUNK_RUNS ?? 15);
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
const MIGRATION = fs.readFileSync(
  path.join(root, "prisma/migrations/20261126030000_tree_chunks/migration.sql"),
  "utf8",
);

type Query = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;

const shapes: Record<string, () => TreeNode> = {
  genealogy: () => {
    const file = path.resolve(root, "../shared/data/gedcom-corpus/gedcom4j-sample3.ged.gz");
    return parseGedcom(gunzipSync(fs.readFileSync(file))).data;
  },
  deep10k: () => generateLegacy({ sims: 10_000 }).data,
};

async function setUp(query: Query) {
  await query(`CREATE TABLE "Tree" ("id" TEXT PRIMARY KEY, "data" JSONB NOT NULL)`);
  await query(MIGRATION);
  for (const [name, make] of Object.entries(shapes)) {
    const data = make();
    await query(`INSERT INTO "Tree" VALUES ($1, $2::jsonb)`, [`${name}-whole`, JSON.stringify(data)]);
    const write = chunkedWrite(data, null);
    await query(`INSERT INTO "Tree" VALUES ($1, $2::jsonb)`, [`${name}-chunks`, write.root]);
    for (const chunk of write.put) {
      await query(`INSERT INTO "TreeChunk" VALUES ($1, $2, $3::jsonb)`, [
        `${name}-chunks`,
        chunk.key,
        chunk.text,
      ]);
    }
  }
}

async function measure(query: Query) {
  const figures: Record<string, unknown> = {};
  for (const name of Object.keys(shapes)) {
    const times: Record<string, number[]> = { whole: [], chunks: [] };
    let texts: Record<string, string> = {};
    for (let run = 0; run < RUNS + 1; run++) {
      for (const form of ["whole", "chunks"] as const) {
        const started = performance.now();
        const rows = await query(
          `SELECT heirloom_tree_text("id", "data") AS "text" FROM "Tree" WHERE "id" = $1`,
          [`${name}-${form}`],
        );
        const ms = performance.now() - started;
        if (run > 0) times[form]!.push(ms);
        texts = { ...texts, [form]: rows[0]!.text as string };
      }
    }
    if (texts.whole !== texts.chunks) throw new Error(`${name}: the chunks read back differently`);
    const chunks = await query(`SELECT count(*)::int AS "n" FROM "TreeChunk" WHERE "treeId" = $1`, [
      `${name}-chunks`,
    ]);
    const median = (xs: number[]) => round([...xs].sort((a, b) => a - b)[xs.length >> 1]!, 2);
    figures[name] = {
      bytes: texts.whole!.length,
      chunks: chunks[0]!.n,
      wholeMedianMs: median(times.whole!),
      chunksMedianMs: median(times.chunks!),
      ratio: round(median(times.chunks!) / median(times.whole!), 2),
    };
    console.log(name, JSON.stringify(figures[name]));
  }
  return figures;
}

async function main() {
  const results: Record<string, unknown> = {
    bench: "bench/save/chunk-read.ts",
    when: new Date().toISOString(),
    runs: RUNS,
  };
  const database = `heirloom_bench_chunk_read_${process.pid}`;
  const admin = new pg.Client({ connectionString: `${PG_URL}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  const client = new pg.Client({ connectionString: `${PG_URL}/${database}` });
  try {
    await client.connect();
    const query: Query = async (text, values) => (await client.query<Record<string, unknown>>(text, values)).rows;
    await setUp(query);
    console.log("PostgreSQL");
    results.postgres = await measure(query);
  } finally {
    await client.end();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
  const lite = new PGlite();
  try {
    const query: Query = async (text, values) =>
      values ? (await lite.query<Record<string, unknown>>(text, values)).rows : (await lite.exec(text), []);
    await setUp(query);
    console.log("PGlite");
    results.pglite = await measure(query);
  } finally {
    await lite.close();
  }
  fs.writeFileSync(
    path.join(root, "bench/results/chunk-read.json"),
    `${JSON.stringify(results, null, 2)}\n`,
  );
}

await main();
