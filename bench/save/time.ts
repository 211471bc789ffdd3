/**
 * `npx tsx bench/save/time.ts`: one autosave end to end over loopback (issue 23), on both engines,
 * before and after in the same run, against the goals.
 *
 * Builds: this checkout ("after") and, when BENCH_SAVE_BEFORE_DIR names one, a built checkout of
 * the code before the work (b1b3bc7: `git worktree add --detach DIR b1b3bc7`, `npm install`,
 * `npx tsx scripts/ensure-build.ts`). Per engine (BENCH_SAVE_ENGINES, default postgres,pglite)
 * each build's production server is started as `npm start` runs it, on a fresh database
 * (PostgreSQL) or DATA_DIR (PGlite), and given the same trees: the 4,578-person genealogy
 * (gedcom4j sample 3, imported through the import endpoint) and the deep 10,000-Sim legacy of
 * bench:editor (people created through the API, the structure saved whole).
 *
 * Each sample is one JSON Patch adding an empty child to the root, with If-Match of the version
 * the previous save answered, as the editor's autosave sends it; the builds and trees alternate
 * so a busy moment of this shared machine falls on all of them. Reported per engine, build and
 * tree: median and p99 of the request until its answer is read, the server's own time (its
 * Server-Timing `save;dur`, which the code before the work did not send) and GET /api/version in
 * the same run as the floor. Merged into bench/results/save.json as `endToEnd`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { JSON_PATCH_TYPE } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { startArgs } from "../../scripts/lib/start-command";
import { generateLegacy } from "../editor/generate";
import { call, seed, setSeedBase, signUp } from "../editor/seed";
import { positiveInt, round } from "../editor/stats";

const root = path.resolve(import.meta.dirname, "../..");
const RUNS = positiveInt(process.env.BENCH_SAVE_RUNS, 21, "BENCH_SAVE_RUNS");
const RESULTS = path.join(root, "bench/results/save.json");
const GENEALOGY = path.resolve(root, "../shared/data/gedcom-corpus/gedcom4j-sample3.ged.gz");
const ENGINES = (process.env.BENCH_SAVE_ENGINES ?? "postgres,pglite").split(",") as (
  "postgres" | "pglite"
)[];
const PG = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
const BASE_PORT = Number(process.env.BENCH_SAVE_PORT ?? 3341);
const GOALS_MS = { genealogy: 20, deep10k: 25 } as const;
type Shape = keyof typeof GOALS_MS;

const builds: { name: "before" | "after"; dir: string }[] = [{ name: "after", dir: root }];
if (process.env.BENCH_SAVE_BEFORE_DIR) {
  builds.unshift({ name: "before", dir: path.resolve(process.env.BENCH_SAVE_BEFORE_DIR) });
}

function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!, 1);
}

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: `${PG}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Server {
  name: string;
  baseURL: string;
  child: ChildProcess;
  cleanup: () => Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** A build's production server on one engine, started as `npm start` runs it. */
async function start(
  build: (typeof builds)[number],
  engine: string,
  port: number,
): Promise<Server> {
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `heirloom-bench-save-${build.name}-`));
  const database = `heirloom_bench_save_${build.name}_${process.pid}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    APP_URL: baseURL,
    SIGNUPS_PER_ADDRESS_HOUR: "100000",
    SIGNUPS_PER_ADDRESS_DAY: "100000",
    TREES_PER_ACCOUNT_HOUR: "100000",
    SMTP_URL: `smtp://127.0.0.1:${port + 1000}`,
    MAIL_FROM: "Heirloom <no-reply@heirloom.test>",
    DATA_DIR: dataDir,
    LOG_LEVEL: "error",
  };
  delete env.DATABASE_URL;
  if (engine === "postgres") {
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin(`CREATE DATABASE "${database}"`);
    env.DATABASE_URL = `${PG}/${database}`;
  }
  const child = spawn("npx", ["tsx", ...startArgs(build.dir)], {
    cwd: build.dir,
    env,
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const deadline = Date.now() + 600_000;
  while (!(await answers(`${baseURL}/api/version`))) {
    if (child.exitCode !== null) throw new Error(`${build.name} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${build.name} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return {
    name: build.name,
    baseURL,
    child,
    cleanup: async () => {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 2000));
      if (engine === "postgres") await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Tree {
  treeId: string;
  version: number;
}

/** The trees every server gets: the genealogy imported, the deep 10,000-Sim legacy seeded. */
async function seedTrees(server: Server, token: string): Promise<Record<Shape, Tree>> {
  setSeedBase(server.baseURL);
  const response = await fetch(`${server.baseURL}/api/trees/import?format=gedcom`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
    body: gunzipSync(fs.readFileSync(GENEALOGY)),
  });
  if (!response.ok) throw new Error(`import → ${response.status} ${await response.text()}`);
  const imported = (await response.json()) as { _id?: string; tree?: { _id: string } };
  const genealogy = imported.tree?._id ?? imported._id!;
  const legacy = generateLegacy({ sims: 10_000, generations: 14, seed: 10_000 });
  const deep = (await seed(token, legacy, "Save bench deep 10000")).treeId;
  const version = async (treeId: string) =>
    (await call<{ version: number }>("GET", `/api/trees/${treeId}`, undefined, token)).version;
  return {
    genealogy: { treeId: genealogy, version: await version(genealogy) },
    deep10k: { treeId: deep, version: await version(deep) },
  };
}

const ADD_CHILD = JSON.stringify([{ op: "add", path: "/data/children/-", value: emptyNode() }]);

async function patch(server: Server, token: string, tree: Tree) {
  const started = performance.now();
  const response = await fetch(`${server.baseURL}/api/trees/${tree.treeId}`, {
    method: "PATCH",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": JSON_PATCH_TYPE,
      "if-match": `"${tree.version}"`,
    },
    body: ADD_CHILD,
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`PATCH → ${response.status} ${text.slice(0, 300)}`);
  tree.version = (JSON.parse(text) as { version: number }).version;
  const timing = /save;dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "");
  return { ms, serverMs: timing ? Number(timing[1]) : null };
}

async function floor(server: Server): Promise<number> {
  const started = performance.now();
  await (await fetch(`${server.baseURL}/api/version`)).text();
  return performance.now() - started;
}

async function measureEngine(engine: "postgres" | "pglite") {
  const servers: Server[] = [];
  try {
    for (const [i, build] of builds.entries()) {
      console.log(`Starting ${build.name} on ${engine}…`);
      servers.push(await start(build, engine, BASE_PORT + i));
    }
    const sessions = [];
    for (const server of servers) {
      setSeedBase(server.baseURL);
      const token = await signUp();
      console.log(`Seeding ${server.name} on ${engine}…`);
      sessions.push({ server, token, trees: await seedTrees(server, token) });
    }
    const samples = new Map<string, { ms: number[]; serverMs: number[]; floorMs: number[] }>();
    const key = (build: string, shape: string) => `${build}/${shape}`;
    // one save of each first: the after build holds the structure from then on, as it does
    // from an editor's second save
    for (const { server, token, trees } of sessions) {
      for (const shape of Object.keys(GOALS_MS) as Shape[])
        await patch(server, token, trees[shape]);
    }
    for (let run = 0; run < RUNS; run += 1) {
      for (const { server, token, trees } of run % 2 ? [...sessions].reverse() : sessions) {
        for (const shape of Object.keys(GOALS_MS) as Shape[]) {
          const entry = samples.get(key(server.name, shape)) ?? {
            ms: [],
            serverMs: [],
            floorMs: [],
          };
          const saved = await patch(server, token, trees[shape]);
          entry.ms.push(saved.ms);
          if (saved.serverMs !== null) entry.serverMs.push(saved.serverMs);
          entry.floorMs.push(await floor(server));
          samples.set(key(server.name, shape), entry);
        }
      }
    }
    const rows = [];
    for (const { server } of sessions) {
      for (const shape of Object.keys(GOALS_MS) as Shape[]) {
        const entry = samples.get(key(server.name, shape))!;
        const medianMs = quantile(entry.ms, 0.5);
        const row = {
          engine,
          build: server.name,
          shape,
          goalMs: GOALS_MS[shape],
          medianMs,
          p99Ms: quantile(entry.ms, 0.99),
          serverMedianMs: entry.serverMs.length ? quantile(entry.serverMs, 0.5) : null,
          serverP99Ms: entry.serverMs.length ? quantile(entry.serverMs, 0.99) : null,
          versionFloorMedianMs: quantile(entry.floorMs, 0.5),
          meetsGoal: medianMs < GOALS_MS[shape],
          samplesMs: entry.ms.map((ms) => round(ms, 1)),
        };
        console.log(JSON.stringify({ ...row, samplesMs: undefined }));
        rows.push(row);
      }
    }
    return rows;
  } finally {
    for (const server of servers) await server.cleanup().catch(() => undefined);
  }
}

async function main() {
  const loadAtStart = os.loadavg().map((value) => round(value, 2));
  const rows = [];
  for (const engine of ENGINES) rows.push(...(await measureEngine(engine)));
  const existing = fs.existsSync(RESULTS)
    ? (JSON.parse(fs.readFileSync(RESULTS, "utf8")) as Record<string, unknown>)
    : {};
  delete existing.serverSave; // the deep/wide whole-body figures of issue 15, replaced by these
  existing.endToEnd = {
    date: new Date().toISOString(),
    runs: RUNS,
    builds: Object.fromEntries(builds.map((build) => [build.name, build.dir])),
    machine: {
      cpus: os.cpus().length,
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: os.loadavg().map((value) => round(value, 2)),
    },
    method:
      "per engine, each build's production server (scripts/start.ts) on a fresh database; per tree (the gedcom4j sample 3 genealogy imported, the deep 10,000-Sim legacy of bench:editor), one warm-up then runs × a JSON Patch adding an empty child to the root with If-Match of the previous save's version, builds and trees alternating; medianMs/p99Ms: fetch over loopback until the answer is read; serverMs: the answer's Server-Timing save;dur (the route handler's time; absent before); versionFloorMedianMs: GET /api/version right after each save",
    goalsMs: GOALS_MS,
    rows,
  };
  fs.writeFileSync(RESULTS, `${JSON.stringify(existing, null, 2)}\n`);
  console.log(`Wrote ${RESULTS}`);
}

await main();
