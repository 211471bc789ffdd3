/**
 * `npm run bench:import`: times import and export of 1,000- and 10,000-Sim legacies, through the
 * services the API routes call (no HTTP), on a fresh PostgreSQL database of its own (created and
 * dropped here) and a temporary uploads directory. For each size:
 *   - Plum Tree ZIP import (parse, image checks and re-encoding, one transaction);
 *   - Heirloom backup ZIP export of the imported tree, and its import back;
 *   - GEDCOM export and import, when lib/gedcom (the GEDCOM engineer's modules) is there.
 * Each legacy carries a cover and 20 avatars (real 200x200 PNG and JPEG images).
 * Writes bench/results/import.json (BENCH_OUT names another file in bench/results/). BENCH_RUNS
 * sets the runs per figure (default 3), BENCH_SIZES the sizes (default 1000,10000).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { applyMigrations } from "../../scripts/lib/schema-engine";
import { generateLegacy } from "../editor/generate";
import { buildPlumTreeZip, makeImage } from "../../tests/fixtures/plumtree/build";

const SIZES = (process.env.BENCH_SIZES ?? "1000,10000").split(",").map(Number);
const AVATARS = 20;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const OUT = path.basename(process.env.BENCH_OUT ?? "import.json");
const root = path.resolve(import.meta.dirname, "../..");
const database = `heirloom_bench_import_${process.pid}`;
const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-bench-import-"));

/** PostgreSQL restarting under us (other engineers' reliability tests on the shared server). */
const isRestart = (error: unknown) =>
  /shutting down|starting up|terminating connection|ECONNREFUSED|Connection terminated|connection closed|Server has closed/i.test(
    String((error as Error | undefined)?.message ?? error),
  );

/** Runs `work`, again after a pause when the database restarted in the middle (at most 5 times). */
async function withRetries<T>(what: string, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 5 || !isRestart(error)) throw error;
      console.log(`${what}: the database restarted; retrying in 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 10_000));
    }
  }
}

async function admin(sql: string): Promise<void> {
  await withRetries(sql, async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}

interface Figure {
  medianMs: number;
  minMs: number;
  maxMs: number;
  runsMs: number[];
}

function figure(runs: number[]): Figure {
  const sorted = [...runs].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    medianMs: round(sorted[Math.floor(sorted.length / 2)]!),
    minMs: round(sorted[0]!),
    maxMs: round(sorted[sorted.length - 1]!),
    runsMs: runs.map(round),
  };
}

async function time<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** A Plum Tree backup of `sims` Sims: Mongo-style ids, a cover and AVATARS avatars. */
async function plumTreeBackup(sims: number): Promise<Uint8Array> {
  const id = (n: number) => n.toString(16).padStart(24, "0");
  const legacy = generateLegacy({ sims, treeId: id(0xffffff), personId: (i) => id(i + 1) });
  const images: Record<string, Uint8Array> = {
    "images/cover.jpg": await makeImage("jpeg", 600, 320, 17),
  };
  const people = legacy.people.map((person, index) => {
    if (index >= AVATARS) return { ...person, links: [] };
    const name = index % 2 === 0 ? `avatar-${index}.png` : `avatar-${index}.jpg`;
    return { ...person, avatar: `avatar/${name}`, links: [] };
  });
  for (let index = 0; index < AVATARS; index++) {
    const png = index % 2 === 0;
    images[`images/avatar-${index}.${png ? "png" : "jpg"}`] = await makeImage(
      png ? "png" : "jpeg",
      200,
      200,
      index * 11,
    );
  }
  const tree = {
    _id: legacy.treeId,
    title: `Benchmark legacy of ${sims} Sims`,
    description: "<p>Generated for <strong>bench:import</strong>.</p>",
    cover: "cover/cover.jpg",
    data: legacy.data,
  };
  return buildPlumTreeZip(tree, people, images);
}

async function main() {
  const startedAt = new Date();
  await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${database}"`);
  process.env.DATABASE_URL = databaseUrl;
  process.env.DATA_DIR = dataDir;
  process.env.LOG_LEVEL = "warn";
  process.env.JWT_SECRET ??= "bench-secret-that-is-at-least-32-characters-long";
  try {
    await withRetries("migrations", () =>
      applyMigrations({
        target: { databaseUrl },
        migrationsDir: path.join(root, "prisma/migrations"),
        schemaPath: path.join(root, "prisma/schema.prisma"),
      }),
    );
    // Loaded after the environment points at the benchmark database.
    const { db } = await import("@/lib/server/db");
    const { importFile } = await import("@/lib/server/import/import-file");
    const { exportTreeZip } = await import("@/lib/server/export/export-tree-zip");
    const gedcomAvailable = fs.existsSync(path.join(root, "lib/gedcom/export.ts"));
    const { exportTreeGedcom } = gedcomAvailable
      ? await import("@/lib/server/export/export-tree-gedcom")
      : { exportTreeGedcom: null };

    const owner = "bench_importer";
    await withRetries("owner", () =>
      db.user.create({ data: { id: owner, email: "bench@example.test", passwordHash: "x" } }),
    );

    const results: Record<string, unknown>[] = [];
    for (const sims of SIZES) {
      const backup = await plumTreeBackup(sims);
      const plumImport: number[] = [];
      const zipExport: number[] = [];
      const heirloomImport: number[] = [];
      const gedcomExport: number[] = [];
      const gedcomImport: number[] = [];
      let exportedBytes = 0;
      let gedcomBytes = 0;
      let imported: { people: number; images: number } = { people: 0, images: 0 };
      for (let run = 0; run < RUNS; run++) {
        await withRetries(`${sims} Sims, run ${run + 1}`, async () => {
          const first = await time(() => importFile(owner, backup, {}));
          const treeId = first.value.tree._id;
          const exported = await time(() => exportTreeZip(owner, treeId));
          const again = await time(() => importFile(owner, exported.value.bytes, {}));
          let gedcom: { ms: number; value: { bytes: Uint8Array } } | null = null;
          let back: { ms: number } | null = null;
          if (exportTreeGedcom) {
            gedcom = await time(() => exportTreeGedcom(owner, treeId));
            const bytes = gedcom.value.bytes;
            back = await time(() => importFile(owner, bytes, { format: "gedcom" }));
          }
          // Recorded only once the whole run went through.
          plumImport.push(first.ms);
          imported = first.value.imported;
          zipExport.push(exported.ms);
          exportedBytes = exported.value.bytes.length;
          heirloomImport.push(again.ms);
          if (gedcom && back) {
            gedcomExport.push(gedcom.ms);
            gedcomBytes = gedcom.value.bytes.length;
            gedcomImport.push(back.ms);
          }
        });
        console.log(
          `${sims} Sims, run ${run + 1}: Plum Tree import ${Math.round(plumImport.at(-1)!)} ms, ZIP export ${Math.round(zipExport.at(-1)!)} ms, Heirloom import ${Math.round(heirloomImport.at(-1)!)} ms` +
            (exportTreeGedcom
              ? `, GEDCOM export ${Math.round(gedcomExport.at(-1)!)} ms, import ${Math.round(gedcomImport.at(-1)!)} ms`
              : ""),
        );
      }
      results.push({
        sims,
        images: imported.images,
        peopleImported: imported.people,
        plumTreeZipBytes: backup.length,
        heirloomZipBytes: exportedBytes,
        plumTreeZipImport: figure(plumImport),
        heirloomZipExport: figure(zipExport),
        heirloomZipImport: figure(heirloomImport),
        ...(exportTreeGedcom
          ? {
              gedcomBytes,
              gedcomExport: figure(gedcomExport),
              gedcomImport: figure(gedcomImport),
            }
          : { gedcom: "lib/gedcom was not there when this ran" }),
      });
    }
    await db.$disconnect();

    const output = {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      machine: {
        platform: `${os.type()} ${os.release()} ${os.arch()}`,
        cpuCount: os.cpus().length,
        memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
        loadAverageAtStart: os.loadavg().map((n) => Math.round(n * 100) / 100),
        node: process.version,
      },
      method: {
        runs: RUNS,
        through:
          "the services behind POST /api/trees/import and GET /api/trees/{id}/export (importFile, exportTreeZip, exportTreeGedcom), in process, without HTTP",
        database: "a fresh PostgreSQL database on 127.0.0.1, created and dropped by the benchmark",
        storage: "local disk in a temporary directory",
        legacy:
          "bench/editor/generate.ts (every Sim placed once, partner rows of every type), with a 600x320 JPEG cover and 20 avatars of 200x200 (PNG and JPEG), as a Plum Tree backup ZIP",
        plumTreeZipImport: "parse + checks and re-encoding of 21 images + one transaction",
        heirloomZipExport: "load tree and people + read images + write the ZIP (with tree.html)",
        heirloomZipImport: "import of that exported ZIP",
      },
      results,
    };
    fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
    fs.writeFileSync(
      path.join(root, "bench/results", OUT),
      `${JSON.stringify(output, null, 2)}\n`,
    );
    console.log(`wrote bench/results/${OUT}`);
  } finally {
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
