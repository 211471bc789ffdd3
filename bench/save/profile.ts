/**
 * `npx tsx --conditions react-server bench/save/profile.ts --engine postgres|pglite`: where one
 * structure save's server time goes (issue 23, ADR 034), step by step, on one engine, and what
 * the stored value's form costs: the UPDATE of the whole JSONB value under pglz (the default),
 * lz4 and no compression (STORAGE EXTERNAL), against the UPDATE of one chunk of a split structure.
 *
 * Trees: the 4,578-person genealogy (gedcom4j sample 3, imported) and the deep 10,000-Sim legacy.
 * Prints medians; writes bench/results/save-profile-<engine>.json.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { applyMigrations } from "../../scripts/lib/schema-engine";
import { generateLegacy } from "../editor/generate";

const { values: args } = parseArgs({
  options: { engine: { type: "string", default: "postgres" }, runs: { type: "string" } },
});
const engine = args.engine === "pglite" ? "pglite" : "postgres";
const RUNS = Number(args.runs ?? 11);
const root = path.resolve(import.meta.dirname, "../..");
const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const database = `heirloom_bench_profile_${process.pid}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-bench-profile-"));
interface TreeJson {
  children: TreeJson[];
}
const GENEALOGY = path.resolve(root, "../shared/data/gedcom-corpus/gedcom4j-sample3.ged.gz");

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return round(s[Math.floor((s.length - 1) / 2)]!);
};

async function time<T>(samples: number[], run: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const value = await run();
  samples.push(performance.now() - started);
  return value;
}

async function main() {
  if (engine === "postgres") {
    await admin(`CREATE DATABASE "${database}"`);
    process.env.DATABASE_URL = Object.assign(new URL(adminUrl), {
      pathname: `/${database}`,
    }).toString();
    await applyMigrations({
      target: { databaseUrl: process.env.DATABASE_URL },
      migrationsDir: path.join(root, "prisma/migrations"),
      schemaPath: path.join(root, "prisma/schema.prisma"),
    });
  } else {
    delete process.env.DATABASE_URL;
    process.env.DATA_DIR = dataDir;
    await applyMigrations({
      target: { pgliteDir: path.join(dataDir, "pglite") },
      migrationsDir: path.join(root, "prisma/migrations"),
      schemaPath: path.join(root, "prisma/schema.prisma"),
    });
  }
  const { db } = await import("@/lib/server/db");
  const { saveTreeData, patchTreeData } = await import("@/lib/server/trees/save-tree-data");
  const { lockTreeOrThrow, TREE_TX_OPTIONS } = await import("@/lib/server/trees/lock-tree");
  const { importFile } = await import("@/lib/server/import/import-file");
  const { treeData } = await import("@/lib/schemas/tree");
  const { takeStructure, holdStructure } = await import("@/lib/server/trees/structure-cache");
  const { applyTreePatch } = await import("@/lib/server/trees/apply-tree-patch");
  const { forgetNodeJson, structureJson } = await import("@/lib/server/trees/structure-json");

  const ownerId = `bench${process.pid}`;
  await db.user.create({ data: { id: ownerId, email: "bench@example.com", passwordHash: "x" } });
  await db.$executeRawUnsafe(
    `CREATE TABLE "BenchChunk" ("treeId" text, "n" int, "data" jsonb, PRIMARY KEY ("treeId", "n"))`,
  );

  async function seedGenealogy(): Promise<string> {
    const imported = await importFile(
      ownerId,
      new Uint8Array(gunzipSync(fs.readFileSync(GENEALOGY))),
      { fileName: "gedcom4j-sample3.ged" },
    );
    return imported.tree._id;
  }
  async function seedDeep(): Promise<string> {
    const legacy = generateLegacy({
      sims: 10_000,
      generations: 14,
      seed: 10_000,
      personId: (i) => `d${i}-${randomUUID()}`,
    });
    const treeId = randomUUID();
    await db.tree.create({ data: { id: treeId, ownerId, title: "deep", data: {} } });
    await db.person.createMany({
      data: legacy.people.map((p) => ({
        id: p._id,
        treeId,
        firstName: p.firstName,
        lastName: p.lastName,
      })),
    });
    await saveTreeData(ownerId, treeId, treeData.parse(legacy.data));
    return treeId;
  }

  const results: Record<string, unknown>[] = [];
  for (const shape of ["genealogy", "deep"] as const) {
    const treeId = shape === "genealogy" ? await seedGenealogy() : await seedDeep();
    let version = (await db.tree.findUniqueOrThrow({ where: { id: treeId } })).version;
    const add = [{ op: "add" as const, path: "/data/children/-", value: {} }];
    version = (await patchTreeData(ownerId, treeId, add, version)).saved.version;
    const held = takeStructure(treeId, version)!;
    holdStructure(treeId, held);

    // the whole save, as the route handler calls it
    const whole: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      version = (await time(whole, () => patchTreeData(ownerId, treeId, add, version))).saved
        .version;
    }
    // its steps, one transaction each
    const steps = {
      txEmpty: [] as number[],
      lock: [] as number[],
      apply: [] as number[],
      stringify: [] as number[],
      serialize: [] as number[],
      update: [] as number[],
      commit: [] as number[],
    };
    for (let i = 0; i < RUNS; i++) {
      const h = takeStructure(treeId, version)!;
      await time(steps.txEmpty, () => db.$transaction(async () => undefined, TREE_TX_OPTIONS));
      let endOfWork = 0;
      const commitStarted = { t: 0 };
      await db.$transaction(async (tx) => {
        await time(steps.lock, () => lockTreeOrThrow(tx, ownerId, treeId));
        const applied = await time(steps.apply, () =>
          applyTreePatch(h.data, h.size, add, forgetNodeJson),
        );
        // the whole text as JSON.stringify makes it, against the per-node texts the save keeps
        await time(steps.stringify, () => JSON.stringify(applied.data));
        const json = await time(steps.serialize, () => structureJson(applied.data));
        await time(
          steps.update,
          () =>
            tx.$queryRaw`UPDATE "Tree" SET "data" = ${json}::jsonb, "version" = "version" + 1 WHERE "id" = ${treeId} RETURNING "version"`,
        );
        h.size = { ...h.size, ...applied.totals, bytes: json.length };
        endOfWork = performance.now();
        commitStarted.t = endOfWork;
      }, TREE_TX_OPTIONS);
      steps.commit.push(performance.now() - commitStarted.t);
      version += 1;
      holdStructure(treeId, { ...h, version });
    }
    // the stored value's form: the same UPDATE in its own transaction, per storage setting,
    // the settings interleaved so that a busy moment of this shared machine falls on all of them
    const json = JSON.stringify(takeStructure(treeId, version)!.data);
    const variants: [string, string[]][] = [
      ["pglz", [`SET STORAGE EXTENDED`, `SET COMPRESSION pglz`]],
      ["lz4", [`SET STORAGE EXTENDED`, `SET COMPRESSION lz4`]],
      ["external", [`SET STORAGE EXTERNAL`]],
    ];
    const formSamples: Record<string, number[]> = {};
    const storedBytes: Record<string, number> = {};
    for (let i = 0; i < RUNS; i++) {
      for (const [name, alters] of variants) {
        try {
          for (const alter of alters) {
            await db.$executeRawUnsafe(`ALTER TABLE "Tree" ALTER COLUMN "data" ${alter}`);
          }
        } catch {
          continue; // lz4 is not built into PGlite
        }
        await time((formSamples[name] ??= []), () =>
          db.$transaction(
            (tx) =>
              tx.$executeRaw`UPDATE "Tree" SET "data" = ${json}::jsonb WHERE "id" = ${treeId}`,
            TREE_TX_OPTIONS,
          ),
        );
        const size = await db.$queryRawUnsafe<{ stored: number }[]>(
          `SELECT pg_column_size("data")::int AS stored FROM "Tree" WHERE "id" = $1`,
          treeId,
        );
        storedBytes[name] = size[0]!.stored;
      }
    }
    await db.$executeRawUnsafe(`ALTER TABLE "Tree" ALTER COLUMN "data" SET STORAGE EXTENDED`);
    await db.$executeRawUnsafe(`ALTER TABLE "Tree" ALTER COLUMN "data" SET COMPRESSION pglz`);
    const forms = Object.fromEntries(
      Object.entries(formSamples).map(([k, v]) => [
        k,
        { medianMs: median(v), storedBytes: storedBytes[k] },
      ]),
    );
    // a split structure: one chunk of about `target` bytes (nodes in breadth-first order, as a
    // JSON array) rewritten in a transaction that also bumps the tree's version
    const data = JSON.parse(json) as TreeJson;
    const order: TreeJson[] = [];
    for (let queue = [data], k = 0; k < queue.length; k++) {
      order.push(queue[k]!);
      queue.push(...queue[k]!.children);
    }
    const chunkMs: Record<string, number> = {};
    for (const target of [8_192, 32_768, 131_072]) {
      const nodes: unknown[] = [];
      let bytes = 0;
      for (const node of order.slice(1)) {
        if (bytes >= target) break;
        const flat = JSON.stringify({ ...node, children: [] });
        nodes.push(JSON.parse(flat) as unknown);
        bytes += flat.length;
      }
      const chunk = JSON.stringify(nodes);
      await db.$executeRaw`INSERT INTO "BenchChunk" VALUES (${treeId}, ${target}, ${chunk}::jsonb)`;
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        await time(samples, () =>
          db.$transaction(async (tx) => {
            await lockTreeOrThrow(tx, ownerId, treeId);
            await tx.$executeRaw`UPDATE "BenchChunk" SET "data" = ${chunk}::jsonb WHERE "treeId" = ${treeId} AND "n" = ${target}`;
            await tx.$executeRaw`UPDATE "Tree" SET "version" = "version" + 1 WHERE "id" = ${treeId}`;
          }, TREE_TX_OPTIONS),
        );
      }
      chunkMs[`${chunk.length}B`] = median(samples);
    }
    version = (await db.tree.findUniqueOrThrow({ where: { id: treeId } })).version;
    const parse: number[] = [];
    for (let i = 0; i < RUNS; i++) await time(parse, () => JSON.parse(json) as unknown);
    const result = {
      shape,
      jsonBytes: json.length,
      patchTreeDataMs: median(whole),
      stepsMs: Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, median(v)])),
      updateWholeValueInTransaction: forms,
      chunkSaveMs: chunkMs,
      jsonParseMs: median(parse),
    };
    console.log(JSON.stringify(result));
    results.push(result);
  }
  await db.$disconnect();
  fs.writeFileSync(
    path.join(root, `bench/results/save-profile-${engine}.json`),
    `${JSON.stringify({ engine, date: new Date().toISOString(), runs: RUNS, load: os.loadavg().map(round), results }, null, 2)}\n`,
  );
}

try {
  await main();
} finally {
  if (engine === "postgres")
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
