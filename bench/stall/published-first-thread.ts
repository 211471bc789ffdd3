/**
 * What the first GET /api/published/{id} of a large publication costs the request thread itself,
 * apart from the machine's other work (issue 35): the server in front of Next
 * (lib/server/front/public-pages.ts) alone in this process, on a database holding one publication
 * of BENCH_THREAD_PEOPLE Sims (100000; made in SQL, about 100 MB of JSON), read by curl (another
 * process) with and without gzip. While each first read runs (a new publication each time), a
 * 5 ms timer in this process records its gaps: the longest gap is the longest the thread was held.
 * bench/stall/published-first.ts measures the same read from another client, against a full server.
 *
 *   npx tsx bench/stall/published-first-thread.ts [--engine postgres|pglite] [--runs 5]
 */
import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import pg from "pg";
import pino from "pino";
import { pgFrontDb, pgliteFrontDb, type FrontDb } from "../../lib/server/front/front-db";
import { getPglite } from "../../lib/server/front/pglite";
import { createPublicPages } from "../../lib/server/front/public-pages";
import { ViewCounter } from "../../lib/server/published/view-counter";
import { applyMigrations } from "../../scripts/lib/schema-engine";
import {
  createDatabase,
  dropDatabase,
  removeTempDirs,
  tempDir,
} from "../../tests/reliability/support/server";

const { values: args } = parseArgs({
  options: {
    engine: { type: "string", default: "postgres" },
    runs: { type: "string", default: "5" },
  },
});
const PEOPLE = Number(process.env.BENCH_THREAD_PEOPLE ?? 100_000);
const RUNS = Number(args.runs);
const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/** A publication of PEOPLE Sims in the person shape, with a bio each, made by the database. */
const PUBLISH_SQL = `
  INSERT INTO "PublishedTree" ("treeId", "ownerId", tree, people, "publishedAt", "updatedAt")
  SELECT $1::text, $2::text, jsonb_build_object('title', 'Bench', 'description', '', 'cover', null,
      'data', jsonb_build_object('_id', 'root', 'person', 'p1', 'children', '[]'::jsonb)),
    (SELECT jsonb_agg(jsonb_build_object('_id', 'p' || g, 'tree', $1::text, 'firstName', 'Sim ' || g,
        'lastName', 'Légacy', 'gender', 'female', 'bio', repeat('<p>Zoë ☃ a long story</p>', 30),
        'traits', jsonb_build_array('Creative', 'Cheerful'), 'avatar', null) ORDER BY g)
      FROM generate_series(1, ${PEOPLE}) g),
    now(), now()
  ON CONFLICT ("treeId") DO UPDATE SET "publishedAt" = clock_timestamp()`;

async function main() {
  const engine = args.engine;
  const dataDir = tempDir("bench-thread");
  const name = `heirloom_bench_thread_${process.pid}`;
  const databaseUrl = engine === "postgres" ? await createDatabase(name) : undefined;
  const pgliteDir = path.join(dataDir, "pglite");
  await applyMigrations({
    target: databaseUrl ? { databaseUrl } : { pgliteDir },
    migrationsDir: path.join(ROOT, "prisma/migrations"),
    schemaPath: path.join(ROOT, "prisma/schema.prisma"),
  });
  let frontDb: FrontDb;
  let close: () => Promise<void>;
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    frontDb = pgFrontDb(pool);
    close = () => pool.end();
  } else {
    const pglite = getPglite(pgliteDir, { port: null });
    frontDb = pgliteFrontDb(pglite);
    close = () => pglite.close();
  }
  const treeId = "bench-published-first";
  await frontDb.query(
    "bench_user",
    `INSERT INTO "User" (id, email, "passwordHash", "updatedAt") VALUES ('u1', 'u1@example.com', 'x', now())`,
    [],
  );
  await frontDb.query(
    "bench_tree",
    `INSERT INTO "Tree" (id, "ownerId", title, data, "updatedAt") VALUES ($1, 'u1', 'Bench', '{}', now())`,
    [treeId],
  );
  const views = new ViewCounter(async () => undefined, undefined, { intervalMs: 60_000 });
  const front = createPublicPages({
    db: frontDb,
    render: async () => ({ status: 500, headers: {}, body: Buffer.from("") }),
    renderSecret: "bench-render-secret",
    views,
    logger: pino({ level: "silent" }),
  });
  const server = http.createServer((req, res) => {
    void front(req, res).then((answered) => {
      if (!answered) {
        res.writeHead(599);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/published/${treeId}`;
  const results: Record<
    string,
    { ms: number; bytes: number; maxGapMs: number; p99GapMs: number; peakHeapMb: number }[]
  > = { gzip: [], plain: [] };
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const kind of ["gzip", "plain"] as const) {
        await frontDb.query("bench_publish", PUBLISH_SQL, [treeId, "u1"]);
        await new Promise((resolve) => setTimeout(resolve, 1_200)); // past the front's CHECK_MS
        const gaps: number[] = [];
        let last = performance.now();
        let peakHeap = 0;
        const timer = setInterval(() => {
          const now = performance.now();
          gaps.push(now - last);
          last = now;
          peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
        }, 5);
        const started = performance.now();
        const curl = await run("curl", [
          "-s",
          "-o",
          "/dev/null",
          "-w",
          "%{http_code} %{size_download}",
          ...(kind === "gzip" ? ["-H", "accept-encoding: gzip"] : []),
          url,
        ]);
        const ms = performance.now() - started;
        clearInterval(timer);
        const [status, bytes] = curl.stdout.trim().split(" ").map(Number);
        if (status !== 200) throw new Error(`status ${status}`);
        gaps.sort((a, b) => a - b);
        const row = {
          ms: Math.round(ms),
          bytes: bytes!,
          maxGapMs: Math.round(gaps.at(-1)! * 10) / 10,
          p99GapMs:
            Math.round(gaps[Math.min(gaps.length - 1, Math.ceil(0.99 * gaps.length) - 1)]! * 10) /
            10,
          /** The JavaScript heap's largest size the timer saw (the parts' text lives there). */
          peakHeapMb: Math.round(peakHeap / 2 ** 20),
        };
        results[kind]!.push(row);
        console.log(engine, kind, `run ${i + 1}/${RUNS}`, JSON.stringify(row));
      }
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await views.close();
    await close();
    if (databaseUrl) await dropDatabase(name);
    removeTempDirs();
  }
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(
    JSON.stringify({
      engine,
      people: PEOPLE,
      runs: RUNS,
      medians: Object.fromEntries(
        Object.entries(results).map(([kind, rows]) => [
          kind,
          {
            ms: median(rows.map((r) => r.ms)),
            maxGapMs: median(rows.map((r) => r.maxGapMs)),
            p99GapMs: median(rows.map((r) => r.p99GapMs)),
            peakHeapMb: median(rows.map((r) => r.peakHeapMb)),
            bytes: rows[0]?.bytes,
          },
        ]),
      ),
    }),
  );
}

await main();
