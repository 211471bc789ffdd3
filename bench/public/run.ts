/**
 * `npm run bench:public` (issue 14): published trees of 100 to 10,000 Sims, imported as GEDCOM
 * files of three shapes (bench/public/gedcom.ts), read as an anonymous visitor would:
 * - time to first byte, p50 and p99, of the page's HTML and of the snapshot JSON, at 1 and at 50
 *   concurrent readers, cold (no validator) and revalidated (If-None-Match, answered 304);
 * - the same bytes served from memory by a bare node:http server: the floor, with the ratio;
 * - a hot link: HOT_CONNECTIONS readers of one 1,000-Sim tree for HOT_SECONDS with autocannon,
 *   with PostgreSQL transactions per request (pg_stat_database) and the view count's drift;
 * - in Chromium: navigation until the Sims are on screen (the canvas's paint mark), median of 5.
 * Writes bench/results/public.json.
 *
 * The server: BENCH_BASE_URL if given (with BENCH_DB naming its database), else the production app
 * started here like Playwright's webServer on BENCH_PORT (default 3450).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { median, percentile, round } from "../editor/stats";
import { launchChromium } from "../support/chromium";
import { generateGedcom, type Shape } from "./gedcom";

const port = Number(process.env.BENCH_PORT ?? 3450);
const baseURL = process.env.BENCH_BASE_URL ?? `http://127.0.0.1:${port}`;
const database = process.env.BENCH_DB ?? "heirloom_bench_pub";
const postgresUrl = process.env.E2E_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432";
const root = path.resolve(import.meta.dirname, "../..");
const HOT_SECONDS = Number(process.env.BENCH_PUBLIC_HOT_SECONDS ?? 30);
const HOT_CONNECTIONS = 200;
const SAMPLES = Number(process.env.BENCH_PUBLIC_SAMPLES ?? 100);
const BROWSER_LOADS = Number(process.env.BENCH_PUBLIC_LOADS ?? 5);

/** BENCH_PUBLIC_TREES="wide:1000,deep:10000" runs only those trees. */
const ONLY = process.env.BENCH_PUBLIC_TREES?.split(",");
const ALL_TREES: { sims: number; shape: Shape }[] = [
  { sims: 100, shape: "wide" },
  { sims: 1_000, shape: "wide" },
  { sims: 5_000, shape: "wide" },
  { sims: 5_000, shape: "deep" },
  { sims: 5_000, shape: "real" },
  { sims: 10_000, shape: "wide" },
  { sims: 10_000, shape: "deep" },
];
const TREES = ONLY
  ? ALL_TREES.filter((tree) => ONLY.includes(`${tree.shape}:${tree.sims}`))
  : ALL_TREES;

async function answers(url: string) {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function ensureServer(): Promise<ChildProcess | null> {
  if (await answers(`${baseURL}/api/version`)) return null;
  if (process.env.BENCH_BASE_URL) throw new Error(`${baseURL} does not answer`);
  console.log(`Starting the app on ${baseURL} (a build may come first)…`);
  const child = spawn("npx", ["tsx", "tests/e2e/support/serve.ts"], {
    cwd: root,
    env: {
      ...process.env,
      E2E_PORT: String(port),
      E2E_SMTP_PORT: process.env.E2E_SMTP_PORT ?? String(port + 1),
      E2E_DB: database,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  for (const deadline = Date.now() + 900_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}`);
    if (await answers(`${baseURL}/api/version`)) return child;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error("The server did not start in 15 minutes");
}

async function call<T>(method: string, url: string, body?: BodyInit, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(typeof body === "string" ? { "content-type": "application/json" } : {}),
    },
    body,
  });
  if (!response.ok)
    throw new Error(`${method} ${url} → ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Sample {
  status: number;
  ttfbMs: number;
  bytes: number;
}

/** One GET, timed until its first byte of the answer (the status line). */
function timedGet(
  origin: string,
  target: string,
  headers: Record<string, string>,
): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(`${origin}${target}`, { headers, agent: keepAlive }, (res) => {
      const ttfbMs = performance.now() - started;
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ttfbMs, bytes }));
    });
    req.on("error", reject);
  });
}
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

async function ttfb(
  origin: string,
  target: string,
  concurrency: number,
  headers: Record<string, string>,
) {
  const samples: Sample[] = [];
  const perWorker = Math.ceil(SAMPLES / concurrency) * (concurrency > 1 ? 4 : 1);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = 0; index < perWorker; index += 1) {
        samples.push(await timedGet(origin, target, headers));
      }
    }),
  );
  const times = samples.map((sample) => sample.ttfbMs);
  return {
    n: samples.length,
    statuses: [...new Set(samples.map((sample) => sample.status))],
    p50: round(percentile(times, 50), 2),
    p99: round(percentile(times, 99), 2),
  };
}

/** The floor: the same bytes from memory on a bare node:http server. */
async function startFloor(bodies: Map<string, { body: Buffer; etag: string; type: string }>) {
  const server = http.createServer((req, res) => {
    const entry = bodies.get(req.url ?? "");
    if (!entry) {
      res.writeHead(404);
      res.end();
      return;
    }
    if (req.headers["if-none-match"] === entry.etag) {
      res.writeHead(304, { etag: entry.etag });
      res.end();
      return;
    }
    res.writeHead(200, {
      "content-type": entry.type,
      "content-encoding": "gzip",
      "content-length": entry.body.length,
      etag: entry.etag,
    });
    res.end(entry.body);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function transactions(client: pg.Client) {
  const { rows } = await client.query<{ n: string }>(
    "SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1",
    [database],
  );
  return Number(rows[0]?.n ?? 0);
}

function hotRun(url: string) {
  return new Promise<Result>((resolve, reject) => {
    autocannon(
      {
        url,
        connections: HOT_CONNECTIONS,
        duration: HOT_SECONDS,
        headers: { "accept-encoding": "gzip" },
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function main() {
  const server = await ensureServer();
  const stats = new pg.Client({ connectionString: `${postgresUrl}/${database}` });
  await stats.connect();
  const browser = await launchChromium();
  const results: Record<string, unknown>[] = [];
  let hot: Record<string, unknown> | null = null;
  try {
    const id = Math.random().toString(36).slice(2, 10);
    const { token } = await call<{ token: string }>(
      "POST",
      "/api/account/signup",
      JSON.stringify({
        username: `benchpub_${id}`,
        email: `benchpub_${id}@example.test`,
        password: `pw-${id}-Plumbob!`,
      }),
    );
    for (const { sims, shape } of TREES) {
      const name = `${shape} ${sims}`;
      const gedcom = generateGedcom(sims, shape);
      const importStarted = performance.now();
      const imported = await call<{ tree: { _id: string } }>(
        "POST",
        `/api/trees/import?format=gedcom&title=${encodeURIComponent(`Bench ${name}`)}`,
        new Blob([gedcom], { type: "text/plain" }),
        token,
      );
      const importMs = performance.now() - importStarted;
      const treeId = imported.tree._id;
      const publishStarted = performance.now();
      const { lastPublishDate } = await call<{ lastPublishDate: string }>(
        "PUT",
        `/api/published/${treeId}`,
        undefined,
        token,
      );
      const publishMs = performance.now() - publishStarted;
      const pagePath = `/public/${treeId}`;
      const snapshotPath = `/api/published/${treeId}/snapshot/${new Date(lastPublishDate).getTime().toString(36)}`;
      const gz = { "accept-encoding": "gzip" };

      // The first reader after a publish: Next renders the page once.
      const first = await timedGet(baseURL, pagePath, gz);
      const firstSnapshot = await timedGet(baseURL, snapshotPath, gz);
      const page = await fetch(`${baseURL}${pagePath}`);
      const html = Buffer.from(await page.arrayBuffer());
      const etag = page.headers.get("etag") ?? "";
      const snapshotResponse = await fetch(`${baseURL}${snapshotPath}`);
      const snapshotJson = Buffer.from(await snapshotResponse.arrayBuffer());
      const snapshotEtag = snapshotResponse.headers.get("etag") ?? "";
      const htmlGzip = zlib.gzipSync(html, { level: 9 });
      const floor = await startFloor(
        new Map([
          [pagePath, { body: htmlGzip, etag, type: "text/html; charset=utf-8" }],
          [
            snapshotPath,
            {
              body: zlib.gzipSync(snapshotJson, { level: 6 }),
              etag: snapshotEtag,
              type: "application/json",
            },
          ],
        ]),
      );
      const measure = async (origin: string) => {
        const out: Record<string, unknown> = {};
        for (const [label, target, validator] of [
          ["html", pagePath, etag],
          ["snapshot", snapshotPath, snapshotEtag],
        ] as const) {
          for (const concurrency of [1, 50]) {
            out[`${label} c${concurrency} cold`] = await ttfb(origin, target, concurrency, gz);
            out[`${label} c${concurrency} revalidated`] = await ttfb(origin, target, concurrency, {
              ...gz,
              "if-none-match": validator,
            });
          }
        }
        return out;
      };
      const heirloom = await measure(baseURL);
      const floorFigures = await measure(floor.origin);
      floor.server.close();

      // In Chromium: until the Sims are on screen, each load in a fresh context.
      const loads: number[] = [];
      if (sims >= 1_000 || BROWSER_LOADS > 0) {
        for (let load = 0; load < BROWSER_LOADS; load += 1) {
          const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
          const tab = await context.newPage();
          await tab.goto(`${baseURL}${pagePath}`);
          await tab.waitForFunction(
            () => performance.getEntriesByName("heirloom:tree-painted").length > 0,
            null,
            { timeout: 30_000 },
          );
          loads.push(
            await tab.evaluate(
              () => performance.getEntriesByName("heirloom:tree-painted")[0]!.startTime,
            ),
          );
          await context.close();
        }
      }
      const row = {
        tree: name,
        sims,
        shape,
        importMs: round(importMs, 0),
        publishMs: round(publishMs, 0),
        firstRenderTtfbMs: round(first.ttfbMs, 1),
        firstSnapshotTtfbMs: round(firstSnapshot.ttfbMs, 1),
        htmlBytes: html.length,
        htmlGzipBytes: htmlGzip.length,
        snapshotBytes: snapshotJson.length,
        heirloom,
        floor: floorFigures,
        simsOnScreenMs: {
          samples: loads.map((ms) => round(ms, 0)),
          median: loads.length ? round(median(loads), 0) : null,
        },
      };
      console.log(JSON.stringify(row));
      results.push(row);

      if (sims === 1_000 && !hot) {
        const viewsBefore = (await call<{ viewCount: number }>("GET", `/api/published/${treeId}`))
          .viewCount;
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const before = await transactions(stats);
        const app = await hotRun(`${baseURL}${pagePath}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        const after = await transactions(stats);
        // The counter writes every 2 s.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const viewsAfter = (await call<{ viewCount: number }>("GET", `/api/published/${treeId}`))
          .viewCount;
        const floorServer = await startFloor(
          new Map([[pagePath, { body: htmlGzip, etag, type: "text/html" }]]),
        );
        const bare = await hotRun(`${floorServer.origin}${pagePath}`);
        floorServer.server.close();
        const served = app.requests.total - app.non2xx;
        hot = {
          tree: name,
          connections: HOT_CONNECTIONS,
          seconds: HOT_SECONDS,
          requests: app.requests.total,
          rps: round(app.requests.average, 0),
          errors: app.errors + app.timeouts + app.non2xx,
          latencyP50: app.latency.p50,
          latencyP99: app.latency.p99,
          dbTransactions: after - before,
          dbQueriesPerRequest: round((after - before) / Math.max(1, app.requests.total), 5),
          viewsCounted: viewsAfter - viewsBefore,
          views2xx: served,
          viewDriftPercent: round(
            (100 * Math.abs(viewsAfter - viewsBefore - served)) / Math.max(1, served),
            3,
          ),
          floorRps: round(bare.requests.average, 0),
          floorLatencyP50: bare.latency.p50,
          ratioToFloor: round(app.requests.average / Math.max(1, bare.requests.average), 3),
        };
        console.log(JSON.stringify(hot));
      }
    }
  } finally {
    await browser.close();
    await stats.end();
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
  }
  const out = {
    note: "TTFB in ms; floor = the same gzipped bytes from memory on bare node:http in the same run",
    at: new Date().toISOString(),
    trees: results,
    hotLink: hot,
  };
  await fs.mkdir(path.join(root, "bench/results"), { recursive: true });
  await fs.writeFile(
    path.join(root, "bench/results/public.json"),
    `${JSON.stringify(out, null, 2)}\n`,
  );
  console.log("Wrote bench/results/public.json");
}

await main();
