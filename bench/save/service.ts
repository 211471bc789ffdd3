/**
 * `npm run bench:save:service -- --engine postgres|pglite`: the server's own time of one
 * structure save (issue 23), in process, on one engine, before and after in the same run:
 *
 * - before: the old path, kept here as it was (read and parse the stored structure,
 *   fast-json-patch, the whole treeData schema, every referenced id checked, stringify, write);
 * - after: `patchTreeData` (the structure held in memory since the last save, each op checked and
 *   counted where it applies, only new ids checked, one serialization);
 * - whole: `saveTreeData` with the whole structure, as the original client saves.
 *
 * Each sample adds one empty child to the root, alternating the three kinds so a busy moment of
 * this shared machine falls on all of them. Trees: the 4,578-person genealogy (gedcom4j sample 3,
 * imported as a player imports it) and the deep and wide 10,000-Sim legacies of bench:editor.
 * Writes bench/results/save-service-<engine>.json (median and p99 per kind, against the goals).
 * End-to-end figures over loopback come from bench/save/time.ts against a running server.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { applyMigrations } from "../../scripts/lib/schema-engine";
import { generateLegacy, generateWideLegacy } from "../editor/generate";

const { values: args } = parseArgs({
  options: { engine: { type: "string", default: "postgres" }, runs: { type: "string" } },
});
const engine = args.engine === "pglite" ? "pglite" : "postgres";
const RUNS = Number(args.runs ?? process.env.BENCH_SAVE_RUNS ?? 15);
const root = path.resolve(import.meta.dirname, "../..");
const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const database = `heirloom_bench_save_${process.pid}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-bench-save-"));
const GENEALOGY = path.resolve(root, "../shared/data/gedcom-corpus/gedcom4j-sample3.ged.gz");
const GOALS_MS = { genealogy: 20, deep: 25, wide: 25 } as const;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const round = (n: number) => Math.round(n * 10) / 10;
function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { medianMs: round(at(0.5)), p99Ms: round(at(0.99)), samplesMs: samples.map(round) };
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
  // loaded after the engine is chosen: lib/env.ts reads it once
  const { db } = await import("@/lib/server/db");
  const { patchTreeData, saveTreeData } = await import("@/lib/server/trees/save-tree-data");
  const { lockTreeOrThrow, TREE_TX_OPTIONS } = await import("@/lib/server/trees/lock-tree");
  const { readTreeData } = await import("@/lib/server/trees/read-tree-data");
  const { importFile } = await import("@/lib/server/import/import-file");
  const { treeData } = await import("@/lib/schemas/tree");
  const jsonPatch = (await import("fast-json-patch")).default;
  type TreeNode = import("@/lib/schemas/tree").TreeNode;

  const ownerId = `bench${process.pid}`;
  await db.user.create({ data: { id: ownerId, email: "bench@example.com", passwordHash: "x" } });

  /** The save before issue 23, as lib/server/trees/save-tree-data.ts did it at 0b1f91a. */
  async function oldPatch(treeId: string, operations: unknown[], expected: number) {
    return db.$transaction(async (tx) => {
      const current = await lockTreeOrThrow(tx, ownerId, treeId);
      if (current.version !== expected) throw new Error("409");
      // the whole structure (its chunks put in place, ADR 037)
      const rows = await tx.$queryRaw<{ data: string }[]>`
        SELECT heirloom_tree_text("id", "data") AS "data" FROM "Tree" WHERE "id" = ${treeId}`;
      const document = { data: JSON.parse(rows[0]!.data) as unknown };
      jsonPatch.applyPatch(document, operations as never, true, true, true);
      const data = treeData.parse(document.data);
      const ids = new Set<string>();
      const stack: TreeNode[] = [data];
      for (let node = stack.pop(); node; node = stack.pop()) {
        if (node.person) ids.add(node.person._id);
        for (const partner of node.partners) for (const p of partner.people) ids.add(p._id);
        for (const p of node.parents) ids.add(p._id);
        for (const p of node.adoptiveParents) ids.add(p._id);
        stack.push(...node.children);
      }
      const list = [...ids];
      await tx.$queryRaw`
        SELECT ref."id" FROM unnest(${list}::text[]) WITH ORDINALITY AS ref("id", "position")
        WHERE NOT EXISTS (SELECT 1 FROM "Person" p WHERE p."id" = ref."id" AND p."treeId" = ${treeId})`;
      // as the code before issue 23 stored it: one value, rewritten whole
      await tx.$executeRaw`DELETE FROM "TreeChunk" WHERE "treeId" = ${treeId}`;
      const written = await tx.$queryRaw<{ version: number }[]>`
        UPDATE "Tree" SET "data" = ${JSON.stringify(data)}::jsonb, "version" = "version" + 1,
          "updatedAt" = CURRENT_TIMESTAMP
        WHERE "id" = ${treeId} RETURNING "version"`;
      return written[0]!.version;
    }, TREE_TX_OPTIONS);
  }

  async function seedLegacy(shape: "deep" | "wide"): Promise<string> {
    const legacy =
      shape === "wide"
        ? generateWideLegacy({ sims: 10_000, personId: (i) => `w${i}-${randomUUID()}` })
        : generateLegacy({
            sims: 10_000,
            generations: 14,
            seed: 10_000,
            personId: (i) => `d${i}-${randomUUID()}`,
          });
    const treeId = randomUUID();
    await db.tree.create({ data: { id: treeId, ownerId, title: shape, data: {} } });
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

  async function seedGenealogy(): Promise<string> {
    const imported = await importFile(
      ownerId,
      new Uint8Array(gunzipSync(fs.readFileSync(GENEALOGY))),
      {
        fileName: "gedcom4j-sample3.ged",
      },
    );
    return imported.tree._id;
  }

  const shapes: Record<string, unknown>[] = [];
  for (const shape of ["genealogy", "deep", "wide"] as const) {
    const treeId = shape === "genealogy" ? await seedGenealogy() : await seedLegacy(shape);
    const row = await db.tree.findUniqueOrThrow({ where: { id: treeId }, select: { version: true } });
    let version = row.version;
    const nodes = JSON.stringify(await readTreeData(db, treeId)).split('"parentType"').length - 1;
    const times = { before: [] as number[], after: [] as number[], whole: [] as number[] };
    const add = [{ op: "add" as const, path: "/data/children/-", value: {} }];
    // one warm-up of each, so the after path holds the structure as an editor's second save does
    version = (await patchTreeData(ownerId, treeId, add, version)).saved.version;
    for (let run = 0; run < 3 * RUNS; run++) {
      const kind = (["before", "after", "whole"] as const)[run % 3]!;
      const started = performance.now();
      if (kind === "before") version = await oldPatch(treeId, add, version);
      else if (kind === "after") {
        version = (await patchTreeData(ownerId, treeId, add, version)).saved.version;
      } else {
        // the whole body as the server receives it: parsed from the text, then the schema
        const text = JSON.stringify({ data: await readTreeData(db, treeId) });
        const begun = performance.now();
        const data = treeData.parse((JSON.parse(text) as { data: unknown }).data);
        version = (await saveTreeData(ownerId, treeId, data, version)).saved.version;
        times.whole.push(performance.now() - begun);
        continue;
      }
      times[kind].push(performance.now() - started);
      // the before path does not hold the structure; the next after save must not gain from it
    }
    const result = {
      shape,
      nodes,
      goalMs: GOALS_MS[shape],
      before: stats(times.before),
      after: stats(times.after),
      whole: stats(times.whole),
    };
    console.log(
      JSON.stringify({
        ...result,
        before: result.before.medianMs,
        after: result.after.medianMs,
        whole: result.whole.medianMs,
      }),
    );
    shapes.push(result);
  }
  await db.$disconnect();
  const out = path.join(root, `bench/results/save-service-${engine}.json`);
  fs.writeFileSync(
    out,
    `${JSON.stringify(
      {
        benchmark: "bench/save/service.ts",
        engine,
        date: new Date().toISOString(),
        runs: RUNS,
        machine: { cpus: os.cpus().length, loadAverageAtEnd: os.loadavg().map(round) },
        method:
          "in process, one engine; per tree, runs × (before: the old patch path at 0b1f91a reproduced in this file; after: patchTreeData; whole: treeData.parse of the whole body then saveTreeData), interleaved, each adding one empty child to the root with the current version; the server's own time of the save (no HTTP), median and p99",
        shapes,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`Wrote ${out}`);
}

try {
  await main();
} finally {
  if (engine === "postgres")
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
