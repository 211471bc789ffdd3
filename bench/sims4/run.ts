/**
 * `npx tsx --conditions react-server bench/sims4/run.ts`: times the Sims 4 households list and
 * the import of a household's family, for each real save in ../shared/data/sims4 and for a
 * generated 2,000-Sim legacy save, against the goals of issue 24 (households list 300 ms, import
 * 1 s), and the import of several households into one tree (issue 34: every household of the save
 * at once, the largest such import a player can ask for) against the same 1 s. The list is the pure reader (what POST /api/trees/import/households runs after the
 * upload); the import goes through importFile (parse + one transaction) on a fresh PostgreSQL
 * database created and dropped here. Writes bench/results/sims4.json. BENCH_RUNS sets the runs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { applyMigrations } from "../../scripts/lib/schema-engine";
import { listSims4Households, parseSims4 } from "../../lib/sims4";
import { generatedLegacy } from "./generate";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GOALS = { householdsMs: 300, importMs: 1000 };
const root = path.resolve(import.meta.dirname, "../..");
const saves = path.resolve(root, "../shared/data/sims4");
const database = `heirloom_bench_sims4_${process.pid}`;
const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-bench-sims4-"));

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fixed CPU-bound loop, timed beside each figure: how loaded the shared machine was. */
function referenceLoopMs(): number {
  const started = performance.now();
  let sum = 0;
  for (let i = 0; i < 20_000_000; i += 1) sum += i & 7;
  if (sum < 0) console.log(sum);
  return performance.now() - started;
}

function median(runs: number[]): number {
  const sorted = [...runs].sort((x, y) => x - y);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
}

async function main() {
  await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${database}"`);
  process.env.DATABASE_URL = databaseUrl;
  process.env.DATA_DIR = dataDir;
  process.env.LOG_LEVEL = "warn";
  process.env.JWT_SECRET ??= "bench-secret-that-is-at-least-32-characters-long";
  try {
    await applyMigrations({
      target: { databaseUrl },
      migrationsDir: path.join(root, "prisma/migrations"),
      schemaPath: path.join(root, "prisma/schema.prisma"),
    });
    const { db } = await import("@/lib/server/db");
    const { importFile } = await import("@/lib/server/import/import-file");
    const owner = "bench_sims4";
    await db.user.create({ data: { id: owner, email: "bench-sims4@example.test", passwordHash: "x" } });

    const generated = generatedLegacy(2_000);
    const inputs = [
      ...["ffrese-2024.save", "randomis-2019.save"].map((name) => ({
        name,
        bytes: new Uint8Array(fs.readFileSync(path.join(saves, name))),
      })),
      { name: `generated ${generated.sims}-Sim legacy`, bytes: generated.bytes },
    ];
    const results = [];
    for (const input of inputs) {
      const households = listSims4Households(input.bytes);
      const largest = [...households].sort((x, y) => y.family - x.family)[0]!;
      const listRuns: number[] = [];
      const importRuns: number[] = [];
      const multiRuns: number[] = [];
      const everyHousehold = households.map((h) => h.id);
      const referenceRuns: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        referenceRuns.push(referenceLoopMs());
        let started = performance.now();
        listSims4Households(input.bytes);
        listRuns.push(performance.now() - started);
        started = performance.now();
        await importFile(owner, input.bytes, { household: largest.id });
        importRuns.push(performance.now() - started);
        started = performance.now();
        await importFile(owner, input.bytes, { households: everyHousehold });
        multiRuns.push(performance.now() - started);
      }
      const multiPeople = parseSims4(input.bytes, { households: everyHousehold }).people.length;
      const people = parseSims4(input.bytes, { household: largest.id }).people.length;
      const row = {
        save: input.name,
        bytes: input.bytes.length,
        households: households.length,
        importedHousehold: { name: largest.name, family: largest.family, people },
        householdsMs: { median: median(listRuns), runs: listRuns.map((n) => Math.round(n)) },
        importMs: { median: median(importRuns), runs: importRuns.map((n) => Math.round(n)) },
        everyHousehold: { households: everyHousehold.length, people: multiPeople },
        multiHouseholdImportMs: { median: median(multiRuns), runs: multiRuns.map((n) => Math.round(n)) },
        withinGoals:
          median(listRuns) <= GOALS.householdsMs &&
          median(importRuns) <= GOALS.importMs &&
          median(multiRuns) <= GOALS.importMs,
        // the same loop takes about 15 ms on an idle core: the machine's load in this run
        referenceLoopMs: { median: median(referenceRuns), runs: referenceRuns.map((n) => Math.round(n)) },
      };
      console.log(JSON.stringify(row));
      results.push(row);
    }
    const output = {
      benchmark: "sims4",
      date: new Date().toISOString(),
      goals: GOALS,
      machine: { cpus: os.cpus().length, loadAverageAtStart: os.loadavg().map((n) => Math.round(n * 100) / 100), node: process.version },
      method: {
        runs: RUNS,
        householdsList: "listSims4Households(bytes): DBPF index, inflate, SaveGameData decode, family counts (what POST /api/trees/import/households runs after the upload)",
        import: "importFile(owner, bytes, {household}) of the save's largest family: parse + build + one PostgreSQL transaction, in process, without HTTP",
        multiHouseholdImport: "importFile(owner, bytes, {households}) of every household of the save into one tree (issue 34), the same way",
      },
      results,
    };
    fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
    fs.writeFileSync(path.join(root, "bench/results/sims4.json"), `${JSON.stringify(output, null, 2)}\n`);
    console.log("wrote bench/results/sims4.json");
    await db.$disconnect();
  } finally {
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
