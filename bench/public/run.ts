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
 * started here like Playwright's webServer on BENCH_PORT (default 3450), on PostgreSQL, or with
 * BENCH_ENGINE=pglite on the embedded default (issue 23), which writes
 * bench/results/public-pglite.json (PostgreSQL's transaction counts are then left out).
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { median, percentile, round } from "../editor/stats";
import type { Shape } from "./gedcom";
import {
  baseURL,
  call,
  database,
  engine,
  ensureServer,
  publishTree,
  root,
  signUp,
  stopServer,
} from "./app";
import { launchChromium } from "../support/chromium";

const postgresUrl = process.env.E2E_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432";
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

/**
 * The floor: the same bytes from memory on a bare node:http server (bench/public/floor.ts), in
 * a process of its own as the app is, so that both are reached the same way.
 */
async function startFloor(bodies: Map<string, { body: Buffer; etag: string; type: string }>) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-bench-floor-"));
  const entries = await Promise.all(
    [...bodies].map(async ([target, entry], index) => {
      const file = path.join(dir, String(index));
      await fs.writeFile(file, entry.body);
      return { target, file, etag: entry.etag, type: entry.type };
    }),
  );
  const child: ChildProcess = fork(path.join(import.meta.dirname, "floor.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (message) => resolve((message as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`the floor server exited with ${code}`)));
    child.send(entries);
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      child.kill();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
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
  const stats =
    engine === "postgresql"
      ? new pg.Client({ connectionString: `${postgresUrl}/${database}` })
      : null;
  await stats?.connect();
  const browser = await launchChromium();
  const results: Record<string, unknown>[] = [];
  let hot: Record<string, unknown> | null = null;
  try {
    const token = await signUp("benchpub");
    for (const { sims, shape } of TREES) {
      const { name, treeId, importMs, publishMs, pagePath, snapshotPath } = await publishTree(
        token,
        sims,
        shape,
      );
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
      // Each case runs on the app, then at once on the floor: one comparison, one moment's load.
      const heirloom: Record<string, unknown> = {};
      const floorFigures: Record<string, unknown> = {};
      for (const [label, target, validator] of [
        ["html", pagePath, etag],
        ["snapshot", snapshotPath, snapshotEtag],
      ] as const) {
        for (const concurrency of [1, 50]) {
          for (const [kind, headers] of [
            ["cold", gz],
            ["revalidated", { ...gz, "if-none-match": validator }],
          ] as const) {
            const key = `${label} c${concurrency} ${kind}`;
            heirloom[key] = await ttfb(baseURL, target, concurrency, headers);
            floorFigures[key] = await ttfb(floor.origin, target, concurrency, headers);
          }
        }
      }
      await floor.close();

      // In Chromium, each load in a fresh context: until the Sims are first on screen (the
      // opening view in the page's HTML, or the canvas when the server draws none), and until the
      // canvas has drawn the whole tree's opening view (interactive).
      const loads: { onScreen: number; canvas: number; preview: number | null }[] = [];
      for (let load = 0; load < BROWSER_LOADS; load += 1) {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const tab = await context.newPage();
        await tab.goto(`${baseURL}${pagePath}`);
        await tab.waitForFunction(
          () => performance.getEntriesByName("heirloom:tree-painted").length > 0,
          null,
          { timeout: 30_000 },
        );
        // (No named function inside: tsx would wrap it in a helper the page does not have.)
        const [canvas, preview, firstContentfulPaint] = await tab.evaluate(() =>
          ["heirloom:tree-painted", "heirloom:preview-painted", "first-contentful-paint"].map(
            (name) => performance.getEntriesByName(name)[0]?.startTime ?? null,
          ),
        );
        const marks = { canvas: canvas!, preview: preview ?? null, firstContentfulPaint };
        // The server-drawn view is part of the page's first contentful paint: it is on screen
        // when that frame is (the mark is taken as the frame begins, like the canvas's own).
        const previewShown =
          marks.preview === null
            ? Infinity
            : Math.max(marks.preview, marks.firstContentfulPaint ?? Infinity);
        loads.push({ ...marks, onScreen: Math.min(marks.canvas, previewShown) });
        await context.close();
      }
      const figure = (values: number[]) => ({
        samples: values.map((ms) => round(ms, 0)),
        median: values.length ? round(median(values), 0) : null,
      });
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
        simsOnScreenMs: figure(loads.map((load) => load.onScreen)),
        openingViewDrawnByServer: loads.some((load) => load.preview !== null),
        canvasReadyMs: figure(loads.map((load) => load.canvas)),
      };
      console.log(JSON.stringify(row));
      results.push(row);

      if (sims === 1_000 && !hot) {
        const viewsBefore = (await call<{ viewCount: number }>("GET", `/api/published/${treeId}`))
          .viewCount;
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const before = stats ? await transactions(stats) : 0;
        const app = await hotRun(`${baseURL}${pagePath}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        const after = stats ? await transactions(stats) : 0;
        // The counter writes every 2 s.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const viewsAfter = (await call<{ viewCount: number }>("GET", `/api/published/${treeId}`))
          .viewCount;
        const floorServer = await startFloor(
          new Map([[pagePath, { body: htmlGzip, etag, type: "text/html" }]]),
        );
        const bare = await hotRun(`${floorServer.origin}${pagePath}`);
        await floorServer.close();
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
          dbTransactions: stats ? after - before : null,
          dbQueriesPerRequest: stats
            ? round((after - before) / Math.max(1, app.requests.total), 5)
            : null,
          // Every request comes from one reader (one address, one User-Agent): one view per 30
          // minutes counts (issue 22, ADR 024), however many it sends.
          viewsCounted: viewsAfter - viewsBefore,
          views2xx: served,
          viewsExpected: 1,
          floorRps: round(bare.requests.average, 0),
          floorLatencyP50: bare.latency.p50,
          ratioToFloor: round(app.requests.average / Math.max(1, bare.requests.average), 3),
        };
        console.log(JSON.stringify(hot));
      }
    }
  } finally {
    await browser.close();
    await stats?.end();
    stopServer(server);
  }
  const out = {
    engine,
    note:
      "TTFB in ms; floor = the same gzipped bytes from memory on bare node:http in a process of " +
      "its own, measured right after the app for each case; simsOnScreenMs = navigation until " +
      "the first frame with Sims (the server-drawn opening view, or the canvas), canvasReadyMs = " +
      "until the canvas has drawn the whole tree's opening view",
    at: new Date().toISOString(),
    loadAverage: os.loadavg().map((load) => round(load, 1)),
    trees: results,
    hotLink: hot,
  };
  await fs.mkdir(path.join(root, "bench/results"), { recursive: true });
  await fs.writeFile(
    path.join(root, `bench/results/${engine === "pglite" ? "public-pglite" : "public"}.json`),
    `${JSON.stringify(out, null, 2)}\n`,
  );
  console.log(`Wrote bench/results/${engine === "pglite" ? "public-pglite" : "public"}.json`);
}

await main();
