/**
 * `npm run bench:api:scale -- --full-database-url URL [--rounds 3] [--duration 10]`
 *
 * bench:api's read mix (readTree, people, published, avatar) on a database seeded at the Plum
 * Tree's full scale (220,000 users, 500,000 trees: `npm run seed:scale` into it first) next to the
 * usual 22,000-user database (bench:api seeds its own when missing), in the same session: rounds
 * alternate which database goes first, so a change in the machine's load falls on both. Each run
 * is `bench/api/run.ts --only … --out <tmp>` (its own servers), then this writes medians, the
 * full/small ratio of each round and their median, requests a second per core, the load averages,
 * and EXPLAIN (ANALYZE, BUFFERS) of each read's SQL on both databases to bench/results/api-scale.json.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import {
  PEOPLE_JSON_FOR_SESSION_SQL,
  PEOPLE_WORK_MEM,
  PUBLISHED_JSON_SQL,
  TREE_GENERATIONS_FOR_SESSION_SQL,
  TREE_JSON_FOR_SESSION_SQL,
} from "../../lib/server/sql/reads";
import type { Figures } from "./report";

const root = path.resolve(import.meta.dirname, "../..");
const { values: args } = parseArgs({
  options: {
    "full-database-url": { type: "string", default: process.env.BENCH_API_FULL_DATABASE_URL },
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "10" },
    "reuse-build": { type: "boolean", default: false },
  },
});
const FULL_URL = args["full-database-url"];
if (!FULL_URL) {
  console.error(
    "Pass --full-database-url (or BENCH_API_FULL_DATABASE_URL): a database seeded by npm run seed:scale -- --users 220000 --trees 500000",
  );
  process.exit(2);
}
const ROUNDS = Number(args.rounds);
const READS = ["readTree", "people", "published", "avatar"] as const;
const TARGETS = ["app", "router", "baseline"] as const;
const PG_BASE = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
const SMALL_URL = `${PG_BASE}/${process.env.BENCH_API_DB ?? "heirloom_bench_api"}`;
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-bench-scale-"));

const log = (line: string) => console.log(`[bench:api:scale] ${line}`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");

interface RunResult {
  startedAt: string;
  machine: { cores: number; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  scale: { users: number; trees: number; people: number; published: number };
  scenarios: Record<string, { app: Figures; baseline: Figures | null; viaNextRouter?: Figures }>;
}

function benchOnce(
  label: "small" | "full",
  index: number,
  reuseBuild: boolean,
): Promise<RunResult> {
  const out = path.join(TMP, `${label}-${index}.json`);
  const argv = [
    "tsx",
    "bench/api/run.ts",
    "--only",
    READS.join(","),
    "--duration",
    String(args.duration),
    "--out",
    out,
    ...(label === "full" ? ["--database-url", FULL_URL!] : []),
    ...(reuseBuild ? ["--reuse-build"] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("npx", argv, { cwd: root, stdio: "inherit", env: process.env });
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`bench:api on the ${label} database exited ${code}`));
      resolve(JSON.parse(fs.readFileSync(out, "utf8")) as RunResult);
    });
  });
}

const figuresOf = (run: RunResult, read: string, target: (typeof TARGETS)[number]) => {
  const scenario = run.scenarios[read];
  if (!scenario) return null;
  return target === "app"
    ? scenario.app
    : target === "router"
      ? (scenario.viaNextRouter ?? null)
      : scenario.baseline;
};

/** EXPLAIN (ANALYZE, BUFFERS) of each read's SQL for one tree of a seeded owner, run twice. */
async function explainReads(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    // A tree of median size whose owner has a session (bench:api opened them), and a published one.
    const { rows } = await pool.query<{
      treeId: string;
      ownerId: string;
      sid: string;
      aid: string;
    }>(
      `SELECT t."id" AS "treeId", t."ownerId", s."id" AS sid, u."accountId" AS aid
       FROM "Session" s JOIN "User" u ON u."id" = s."userId"
       JOIN LATERAL (SELECT "id", "ownerId" FROM "Tree" WHERE "ownerId" = u."id" AND "deletedAt" IS NULL
                     ORDER BY md5("id") LIMIT 1) t ON true
       ORDER BY md5(s."id") LIMIT 1`,
    );
    const published = await pool.query<{ treeId: string }>(
      `SELECT "treeId" FROM "PublishedTree" ORDER BY md5("treeId") LIMIT 1`,
    );
    const pick = rows[0];
    const publishedId = published.rows[0]?.treeId;
    if (!pick || !publishedId) return null;
    const session = [pick.treeId, pick.ownerId, pick.sid, pick.aid];
    const plans: Record<string, { executionMs: number; planningMs: number; plan: string[] }> = {};
    for (const [name, sql, values] of [
      ["treeGenerations", TREE_GENERATIONS_FOR_SESSION_SQL, session],
      ["treeJson", TREE_JSON_FOR_SESSION_SQL, session],
      ["peopleJson", PEOPLE_JSON_FOR_SESSION_SQL, session],
      ["publishedJson", PUBLISHED_JSON_SQL, [publishedId]],
    ] as const) {
      const client = await pool.connect();
      try {
        await client.query(`SET work_mem = '${PEOPLE_WORK_MEM}'`);
        let lines: string[] = [];
        // The second run is the warm one, as under the benchmark.
        for (let i = 0; i < 2; i += 1) {
          const { rows: plan } = await client.query<{ "QUERY PLAN": string }>(
            `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
            [...values],
          );
          lines = plan.map((row) => row["QUERY PLAN"]);
        }
        const ms = (label: string) =>
          Number(new RegExp(`${label} Time: ([\\d.]+) ms`).exec(lines.join("\n"))?.[1] ?? NaN);
        plans[name] = { executionMs: ms("Execution"), planningMs: ms("Planning"), plan: lines };
      } finally {
        client.release();
      }
    }
    return plans;
  } finally {
    await pool.end();
  }
}

async function sizeOf(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ bytes: string }>(
      "SELECT pg_database_size(current_database())::text AS bytes",
    );
    return Number(rows[0]?.bytes ?? 0);
  } finally {
    await client.end();
  }
}

const runs: Record<"small" | "full", RunResult[]> = { small: [], full: [] };
const startedAt = new Date().toISOString();
const loadAtStart = os.loadavg().map((l) => round(l));
let built = args["reuse-build"];
for (let i = 0; i < ROUNDS; i += 1) {
  const order: ("small" | "full")[] = i % 2 === 0 ? ["small", "full"] : ["full", "small"];
  for (const label of order) {
    log(`Round ${i + 1}/${ROUNDS}: the ${label} database (load ${os.loadavg()[0]!.toFixed(2)})`);
    runs[label].push(await benchOnce(label, i, built));
    built = true; // the first run built .next-bench when the sources changed
  }
}

const cores = runs.full[0]?.machine.cores ?? os.cpus().length;
const reads = Object.fromEntries(
  READS.map((read) => [
    read,
    Object.fromEntries(
      TARGETS.map((target) => {
        const per = (label: "small" | "full") =>
          runs[label].map((run) => figuresOf(run, read, target)).filter((f) => f !== null);
        const small = per("small");
        const full = per("full");
        if (small.length === 0 || full.length === 0) return [target, null];
        const med = (list: Figures[], key: "rps" | "p50" | "p99") =>
          round(median(list.map((f) => f[key])), 1);
        // A ratio from each round (full / small), then the median of those.
        const roundRatios = (key: "rps" | "p50" | "p99") =>
          full
            .slice(0, small.length)
            .map((f, i) => round(f[key] / Math.max(small[i]![key], 0.001)));
        const errors = [...small, ...full].reduce((n, f) => n + f.errors + f.non2xx, 0);
        return [
          target,
          {
            small: { rps: med(small, "rps"), p50: med(small, "p50"), p99: med(small, "p99") },
            full: { rps: med(full, "rps"), p50: med(full, "p50"), p99: med(full, "p99") },
            fullOverSmall: {
              rps: round(median(roundRatios("rps"))),
              p50: round(median(roundRatios("p50"))),
              p99: round(median(roundRatios("p99"))),
              rpsPerRound: roundRatios("rps"),
              p99PerRound: roundRatios("p99"),
            },
            rpsPerCore: {
              small: round(med(small, "rps") / cores, 0),
              full: round(med(full, "rps") / cores, 0),
            },
            errorsAndNon2xx: errors,
          },
        ];
      }),
    ),
  ]),
);
const slower = Object.entries(reads).flatMap(([read, byTarget]) => {
  const app = byTarget.app;
  // Slower: at least 10% fewer requests a second, or a p50 at least 10% longer, at full scale.
  return app && (app.fullOverSmall.rps < 0.9 || app.fullOverSmall.p50 > 1.1)
    ? [
        {
          read,
          rpsRatio: app.fullOverSmall.rps,
          p50Ratio: app.fullOverSmall.p50,
          p99Ratio: app.fullOverSmall.p99,
        },
      ]
    : [];
});

log("EXPLAIN (ANALYZE, BUFFERS) of each read on both databases…");
const explain = { small: await explainReads(SMALL_URL), full: await explainReads(FULL_URL) };
const result = {
  benchmark: "bench:api:scale",
  startedAt,
  finishedAt: new Date().toISOString(),
  machine: `${cores} cores shared with other sessions; load averages (1, 5, 15 min) of every run below`,
  loadAverage: {
    atStart: loadAtStart,
    atEnd: os.loadavg().map((l) => round(l)),
    runs: Object.fromEntries(
      (["small", "full"] as const).map((label) => [
        label,
        runs[label].map((run) => ({
          startedAt: run.startedAt,
          atStart: run.machine.loadAverageAtStart,
          atEnd: run.machine.loadAverageAtEnd,
        })),
      ]),
    ),
  },
  method: `bench/api/run.ts --only ${READS.join(",")} (50 connections, ${args.duration} s after a 3 s warm-up, per target), ${ROUNDS} rounds alternating which database goes first; figures are medians over rounds; fullOverSmall is the median of each round's full/small ratio. rpsPerCore = median rps / ${cores} cores (the app, PostgreSQL and autocannon share them). "slower" lists the app's reads with rps < 0.9x or p50 > 1.1x at full scale.`,
  databases: {
    small: {
      database: redact(SMALL_URL),
      scale: runs.small[0]?.scale,
      bytes: await sizeOf(SMALL_URL),
    },
    full: { database: redact(FULL_URL), scale: runs.full[0]?.scale, bytes: await sizeOf(FULL_URL) },
  },
  reads,
  slower,
  explain,
};
fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
fs.writeFileSync(
  path.join(root, "bench/results/api-scale.json"),
  `${JSON.stringify(result, null, 2)}\n`,
);
fs.rmSync(TMP, { recursive: true, force: true });
log(`Wrote bench/results/api-scale.json; slower at full scale: ${JSON.stringify(slower)}`);
