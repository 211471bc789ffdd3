// npx tsx bench/tree-names/run.ts - what filling node references with names (issue 13) costs
// GET /api/trees/{id} on a 10,000-Sim legacy: the read statement and the text pass, against the
// same statement without the names, alternated in one run on one database; and the body's bytes,
// raw and gzipped. Results: bench/results/tree-names.json.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import pg from "pg";
import { TREE_JSON_SQL } from "@/lib/server/sql/reads";
import { withPersonNames } from "@/lib/server/trees/ref-names";
import { applyMigrations } from "../../scripts/lib/schema-engine";
import { generateLegacy, generateWideLegacy } from "../editor/generate";

const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB = process.env.BENCH_NAMES_DB ?? "heirloom_bench_names";
const DB_URL = ADMIN_URL.replace(/\/[^/]*$/, `/${DB}`);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

/** The statement as it was before issue 13: the same row, no names. */
const WITHOUT_NAMES_SQL = TREE_JSON_SQL.replace(
  /\(\s*SELECT json_object_agg[\s\S]*?\) AS "names"/,
  'NULL::text AS "names"',
);
if (WITHOUT_NAMES_SQL === TREE_JSON_SQL) throw new Error("could not take the names out");

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function seed(client: pg.Client, shape: "deep" | "wide") {
  const owner = `bench-${shape}`;
  const options = { sims: 10_000, personId: () => randomUUID() };
  const legacy = shape === "deep" ? generateLegacy(options) : generateWideLegacy(options);
  const treeId = randomUUID();
  await client.query(
    `INSERT INTO "User" ("id", "email", "passwordHash", "accountId", "updatedAt")
     VALUES ($1, $2, 'x', $3, now())`,
    [owner, `${owner}@example.com`, randomUUID()],
  );
  await client.query(
    `INSERT INTO "Tree" ("id", "ownerId", "title", "data", "updatedAt")
     VALUES ($1, $2, $3, $4, now())`,
    [treeId, owner, `${shape} legacy`, JSON.stringify(legacy.data)],
  );
  for (let at = 0; at < legacy.people.length; at += 1_000) {
    const batch = legacy.people.slice(at, at + 1_000);
    await client.query(
      `INSERT INTO "Person" ("id", "treeId", "firstName", "lastName", "updatedAt")
       SELECT id, $1, f, l, now() FROM unnest($2::text[], $3::text[], $4::text[]) AS x(id, f, l)`,
      [
        treeId,
        batch.map((p) => p._id),
        batch.map((p) => p.firstName),
        batch.map((p) => p.lastName),
      ],
    );
  }
  return { owner, treeId, people: legacy.people.length };
}

async function read(client: pg.Client, sql: string, treeId: string, owner: string) {
  const started = performance.now();
  const { rows } = await client.query<{ json: string; names: string | null }>(sql, [treeId, owner]);
  const queried = performance.now();
  const row = rows[0]!;
  const body = withPersonNames(row.json, row.names);
  const done = performance.now();
  return { query: queried - started, pass: done - queried, total: done - started, body };
}

async function main() {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${DB}"`);
  try {
    await applyMigrations({
      target: { databaseUrl: DB_URL },
      migrationsDir: "prisma/migrations",
      schemaPath: "prisma/schema.prisma",
    });
    const client = new pg.Client({ connectionString: DB_URL });
    await client.connect();
    const results = [];
    for (const shape of ["deep", "wide"] as const) {
      const tree = await seed(client, shape);
      const before: Awaited<ReturnType<typeof read>>[] = [];
      const after: Awaited<ReturnType<typeof read>>[] = [];
      // One warm-up each, then alternate so both see the same machine.
      await read(client, WITHOUT_NAMES_SQL, tree.treeId, tree.owner);
      await read(client, TREE_JSON_SQL, tree.treeId, tree.owner);
      for (let run = 0; run < RUNS; run++) {
        before.push(await read(client, WITHOUT_NAMES_SQL, tree.treeId, tree.owner));
        after.push(await read(client, TREE_JSON_SQL, tree.treeId, tree.owner));
      }
      const bytes = (body: string) => ({
        raw: Buffer.byteLength(body),
        gzip: gzipSync(body, { level: 6 }).length,
      });
      const summary = (samples: typeof before) => ({
        queryMs: +median(samples.map((s) => s.query)).toFixed(1),
        passMs: +median(samples.map((s) => s.pass)).toFixed(1),
        totalMs: +median(samples.map((s) => s.total)).toFixed(1),
        totalSamplesMs: samples.map((s) => +s.total.toFixed(1)),
        bytes: bytes(samples[0]!.body),
      });
      const result = {
        shape,
        sims: tree.people,
        withoutNames: summary(before),
        withNames: summary(after),
      };
      results.push({
        ...result,
        ratio: +(result.withNames.totalMs / result.withoutNames.totalMs).toFixed(2),
      });
      console.log(JSON.stringify(results.at(-1)));
    }
    await client.end();
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync(
      "bench/results/tree-names.json",
      `${JSON.stringify({ date: new Date().toISOString(), runs: RUNS, results }, null, 2)}\n`,
    );
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
    await admin.end();
  }
}

await main();
