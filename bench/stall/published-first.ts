/**
 * The first GET /api/published/{id} of a 100,000-Sim publication (issue 35), the read that builds
 * the kept body, alone: bench:stall's row for it sends four readers over and over for 10 s, so the
 * first read's stall is one moment among hundreds of cached reads. Here each run publishes the
 * tree again (a new publication, nothing kept) and times another client's GET /api/version round
 * trips, one after another, while that first read runs; then one cached read, alone. On PostgreSQL
 * and on PGlite, against a production server (scripts/start.ts).
 *
 * BENCH_FIRST_ENGINES (postgres,pglite), BENCH_FIRST_PEOPLE (100000), BENCH_FIRST_RUNS (5),
 * BENCH_FIRST_OUT (bench/results/stall-published-first.json); RELIABILITY_REUSE_BUILD=1 and
 * HEIRLOOM_DIST_DIR as for bench:stall. The machine is shared: read medians, not single runs.
 */
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { genealogyGedcom } from "../../tests/reliability/support/big-gedcom";
import { request, signUp } from "../../tests/reliability/support/client";
import {
  AppServer,
  createDatabase,
  dropDatabase,
  ensureBuild,
  pickPort,
  removeTempDirs,
  tempDir,
} from "../../tests/reliability/support/server";
import {
  alongside,
  heavyRequest,
  postImport,
  treeWithOneSim,
  VERSION_PATH,
} from "../../tests/reliability/support/stall";

const ENGINES = (process.env.BENCH_FIRST_ENGINES ?? "postgres,pglite").split(",");
const PEOPLE = Number(process.env.BENCH_FIRST_PEOPLE ?? 100_000);
const RUNS = Number(process.env.BENCH_FIRST_RUNS ?? 5);
const OUT = path.resolve(
  process.env.BENCH_FIRST_OUT ??
    path.join(import.meta.dirname, "../results/stall-published-first.json"),
);
const GOAL_MS = 100;

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[at]! * 10) / 10;
};
const median = (values: (number | null)[]) =>
  percentile(
    values.filter((v): v is number => v !== null),
    50,
  );

interface Run {
  firstMs: number;
  bytes: number;
  versions: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  cachedMs: number;
}

async function benchEngine(engine: string) {
  const dataDir = tempDir(`bench-first-${engine}`);
  const database = `heirloom_bench_first_${process.pid}`;
  const databaseUrl = engine === "postgres" ? await createDatabase(database) : undefined;
  const server = new AppServer({
    port: pickPort(engine === "postgres" ? 4480 : 4620),
    dataDir,
    databaseUrl,
  });
  try {
    await server.start();
    const token = await signUp(server.url, "first");
    // Warm-up: every route measured below, once, on a small tree (Next loads a route's code on
    // its first request, on the request thread).
    const small = await treeWithOneSim(server.url, "warm", token);
    await heavyRequest(server.url, "PUT", `/api/published/${small.treeId}`, { token });
    await heavyRequest(server.url, "GET", `/api/published/${small.treeId}`);
    for (let i = 0; i < 50; i++) await request(server.url, "GET", VERSION_PATH);

    const imported = await postImport(server.url, token, genealogyGedcom(PEOPLE, 38));
    const treeId = (imported.body as { tree?: { _id: string } } | undefined)?.tree?._id;
    if (!treeId) throw new Error(`import: ${imported.status} ${imported.text.slice(0, 200)}`);
    const runs: Run[] = [];
    for (let run = 0; run < RUNS; run++) {
      // A new publication: nothing of the last one's body is kept for this one.
      const published = await heavyRequest(server.url, "PUT", `/api/published/${treeId}`, {
        token,
      });
      if (published.status !== 200) throw new Error(`publish: ${published.status}`);
      await sleep(1_500); // the front's idea of the current publication is at most 1 s old
      for (let i = 0; i < 20; i++) await request(server.url, "GET", VERSION_PATH);
      // No Accept-Encoding, as bench:stall's client: the body is sent inflated, part by part.
      const overlap = await alongside(server.url, () =>
        heavyRequest(server.url, "GET", `/api/published/${treeId}`),
      );
      if (overlap.answer.status !== 200) throw new Error(`GET: ${overlap.answer.status}`);
      const cached = await heavyRequest(server.url, "GET", `/api/published/${treeId}`);
      const result: Run = {
        firstMs: Math.round(overlap.answer.ms),
        bytes: Number(overlap.answer.headers?.get("content-length") ?? 0),
        versions: overlap.versionMs.length,
        p50Ms: percentile(overlap.versionMs, 50),
        p99Ms: percentile(overlap.versionMs, 99),
        maxMs: percentile(overlap.versionMs, 100),
        cachedMs: Math.round(cached.ms),
      };
      console.log(engine, `run ${run + 1}/${RUNS}`, JSON.stringify(result));
      runs.push(result);
    }
    return {
      runs,
      medians: {
        firstMs: median(runs.map((r) => r.firstMs)),
        p99Ms: median(runs.map((r) => r.p99Ms)),
        maxMs: median(runs.map((r) => r.maxMs)),
        cachedMs: median(runs.map((r) => r.cachedMs)),
      },
      worstMaxMs: Math.max(...runs.map((r) => r.maxMs ?? 0)),
    };
  } finally {
    await server.stop();
    if (databaseUrl) await dropDatabase(database);
  }
}

ensureBuild();
const engines: Record<string, Awaited<ReturnType<typeof benchEngine>>> = {};
try {
  for (const engine of ENGINES) engines[engine] = await benchEngine(engine);
} finally {
  removeTempDirs();
}
fs.writeFileSync(
  OUT,
  `${JSON.stringify(
    {
      what: `the first GET /api/published/{id} (no Accept-Encoding) of a ${PEOPLE}-Sim publication after each publish, alone: another client's GET /api/version round trips one after another while it ran (p50/p99/max per run), the read's own time, and one cached read after it; medians over ${RUNS} runs`,
      goalMs: GOAL_MS,
      machine: `${(await import("node:os")).availableParallelism()} cores, shared and noisy`,
      commit: process.env.BENCH_FIRST_LABEL ?? null,
      ranAt: new Date().toISOString(),
      engines,
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote ${path.relative(process.cwd(), OUT)}`);
