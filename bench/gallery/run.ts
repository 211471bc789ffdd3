/**
 * `npm run bench:gallery` (issue 25): the Gallery on the full-scale PostgreSQL database made by
 * `npm run seed:scale -- --users 220000 --trees 500000` (BENCH_GALLERY_DB, default
 * postgres://postgres@127.0.0.1:5432/heirloom_scale_gallery).
 *
 * 1. EXPLAIN (ANALYZE, BUFFERS) of each query the listing makes, cold (the cache empty), for: the
 *    first page, a common-word search, a rare Sim name search, the 50th page. The SQL is captured
 *    from lib/server/gallery/gallery-read.ts as it runs. Written to bench/results/gallery-explain.txt.
 * 2. The production app (`npm start`, on BENCH_GALLERY_PORT, default 3261) on that database, and a
 *    bare node:http server with the same bodies in memory (the floor), each driven by autocannon
 *    at 50 connections for BENCH_GALLERY_SECONDS (default 10) per target: p50/p99 latency, requests
 *    per second, and PostgreSQL transactions per request (pg_stat_database's xact_commit, over the
 *    run) for the app. Targets: the four API reads above, and the same four as /gallery pages
 *    (HTML). Both are answered in front of Next from memory (lib/server/front/gallery.ts).
 * Writes bench/results/gallery.json.
 */
import { spawn, fork, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { startArgs } from "../../scripts/lib/start-command";

const root = path.resolve(import.meta.dirname, "../..");
const DB_URL =
  process.env.BENCH_GALLERY_DB ?? "postgres://postgres@127.0.0.1:5432/heirloom_scale_gallery";
const PORT = Number(process.env.BENCH_GALLERY_PORT ?? 3261);
const SECONDS = Number(process.env.BENCH_GALLERY_SECONDS ?? 10);
const CONNECTIONS = 50;
const base = `http://127.0.0.1:${PORT}`;

process.env.DATABASE_URL = DB_URL;
(process.env as Record<string, string | undefined>).NODE_ENV ??= "production";

const pool = new pg.Pool({ connectionString: DB_URL, max: 2 });
const dbName = new URL(DB_URL).pathname.slice(1);

async function scale() {
  const { rows } = await pool.query<{
    users: string;
    trees: string;
    published: string;
    listed: string;
    terms: string;
  }>(`
    SELECT (SELECT count(*) FROM "User") AS users, (SELECT count(*) FROM "Tree") AS trees,
      (SELECT count(*) FROM "PublishedTree") AS published,
      (SELECT count(*) FROM "PublishedTree" WHERE "shown") AS listed,
      (SELECT count(*) FROM "GalleryTerm") AS terms`);
  return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
}

/**
 * A rare Sim name: the seed draws names from a small list, so the bench lists one tree of its own,
 * through the API, with a Sim named uniquely (as a player's new legacy would be).
 */
async function listRareTree(): Promise<string> {
  const id = Math.random().toString(36).slice(2, 8);
  const name = `Zephyrine${id}`;
  const call = async <T>(method: string, url: string, body: unknown, token?: string) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const { token } = await call<{ token: string }>("POST", "/api/account/signup", {
    username: `gallery_${id}`,
    email: `gallery_${id}@example.test`,
    password: `pw-${id}-Plumbob!`,
  });
  const tree = await call<{ _id: string }>(
    "POST",
    "/api/trees",
    { title: "A Quiet Legacy" },
    token,
  );
  await call("POST", "/api/people", { tree: tree._id, firstName: name, lastName: "Quill" }, token);
  await call("PUT", `/api/published/${tree._id}`, { publishToGallery: true }, token);
  return name.toLowerCase();
}

async function explainAll(targets: { name: string; query: URLSearchParams }[]) {
  const { readGalleryPage, readGalleryQuery } =
    await import("../../lib/server/gallery/gallery-read");
  let text = "";
  const cold: Record<string, number> = {};
  for (const target of targets) {
    const query = readGalleryQuery(target.query);
    if ("error" in query) throw new Error(query.error);
    const captured: { sql: string; args: readonly unknown[] }[] = [];
    const started = performance.now();
    // The listing's own statements (gallery-read.ts), as the front and the route handler run them.
    await readGalleryPage(
      async <Row extends Record<string, unknown>>(
        _name: string,
        sql: string,
        args: readonly unknown[],
      ) => {
        captured.push({ sql, args });
        return (await pool.query<Row>(sql, [...args])).rows;
      },
      query,
    );
    cold[target.name] = Math.round((performance.now() - started) * 10) / 10;
    for (const { sql, args } of captured) {
      const plan = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, [
        ...args,
      ]);
      text += `=== ${target.name} (?${target.query.toString()})\n${sql.trim()}\n-- parameters: ${JSON.stringify(args)}\n`;
      text += plan.rows.map((r) => r["QUERY PLAN"]).join("\n") + "\n\n";
    }
  }
  return { text, cold };
}

async function answers(url: string) {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function startApp(): Promise<ChildProcess> {
  const child = spawn("npx", ["tsx", ...startArgs(root)], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      APP_URL: base,
      DATABASE_URL: DB_URL,
      DATA_DIR: `.data/bench-gallery-${PORT}`,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const deadline = Date.now() + 900_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The app exited with ${child.exitCode}`);
    if (await answers(`${base}/api/version`)) return child;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error("The app did not start");
}

async function startFloor(entries: { path: string; body: string; type: string }[]) {
  const child = fork(path.join(import.meta.dirname, "floor.ts"), [], {
    execArgv: ["--import", "tsx"],
  });
  const port = await new Promise<number>((resolve) => {
    child.once("message", (m) => resolve(m as number));
    child.send(entries);
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

const commits = async () =>
  Number(
    (
      await pool.query<{ n: string }>(
        `SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1`,
        [dbName],
      )
    ).rows[0]!.n,
  );

function cannon(url: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

const summary = (r: Result) => ({
  requests: r.requests.total,
  perSecond: Math.round(r.requests.average),
  p50: r.latency.p50,
  p99: r.latency.p99,
  errors: r.errors + r.timeouts,
  non2xx: r.non2xx,
});

const counts = await scale();
console.log("Database:", counts);
const app = await startApp();
const rare = await listRareTree();
const targets = [
  { name: "first page", query: new URLSearchParams({ "page[number]": "1" }) },
  {
    name: "common word search (legacy)",
    query: new URLSearchParams({ "page[number]": "1", search: "legacy" }),
  },
  {
    name: `rare Sim name search (${rare})`,
    query: new URLSearchParams({ "page[number]": "1", search: rare }),
  },
  { name: "50th page", query: new URLSearchParams({ "page[number]": "50" }) },
];
const explained = await explainAll(targets);
await fs.mkdir(path.join(root, "bench/results"), { recursive: true });
await fs.writeFile(path.join(root, "bench/results/gallery-explain.txt"), explained.text);
console.log("Cold (cache empty, in process), ms:", explained.cold);

const runs: Record<string, unknown>[] = [];
try {
  const paths = [
    ...targets.map((t) => ({ name: t.name, path: `/api/published?${t.query.toString()}` })),
    ...targets.map((t) => {
      const page = t.query.get("page[number]") ?? "1";
      const search = t.query.get("search");
      const query = new URLSearchParams({
        ...(search ? { search } : {}),
        ...(page !== "1" ? { page } : {}),
      }).toString();
      return { name: `/gallery: ${t.name} (HTML)`, path: `/gallery${query ? `?${query}` : ""}` };
    }),
  ];
  const entries = [];
  for (const p of paths) {
    const response = await fetch(`${base}${p.path}`);
    if (!response.ok) throw new Error(`${p.path} answered ${response.status}`);
    entries.push({
      path: p.path,
      body: await response.text(),
      type: response.headers.get("content-type") ?? "",
    });
  }
  const floor = await startFloor(entries);
  try {
    for (const p of paths) {
      const before = await commits();
      const appRun = await cannon(`${base}${p.path}`);
      const queries = (await commits()) - before;
      const floorRun = await cannon(`${floor.base}${p.path}`);
      const row = {
        name: p.name,
        path: p.path,
        app: summary(appRun),
        floor: summary(floorRun),
        p99VsFloor:
          Math.round((appRun.latency.p99 / Math.max(1, floorRun.latency.p99)) * 100) / 100,
        queriesPerView: Math.round((queries / Math.max(1, appRun.requests.total)) * 1e5) / 1e5,
        p99Goal: appRun.latency.p99 < 50,
        queriesGoal: queries / Math.max(1, appRun.requests.total) < 0.05,
      };
      console.log(JSON.stringify(row));
      runs.push(row);
    }
  } finally {
    floor.child.kill();
  }
} finally {
  if (app.pid) process.kill(-app.pid, "SIGTERM");
}
await fs.writeFile(
  path.join(root, "bench/results/gallery.json"),
  JSON.stringify(
    {
      when: new Date().toISOString(),
      loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
      database: counts,
      connections: CONNECTIONS,
      secondsPerRun: SECONDS,
      coldMs: explained.cold,
      runs,
    },
    null,
    2,
  ) + "\n",
);
await pool.end();
