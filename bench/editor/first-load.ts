/**
 * `npx tsx bench/editor/first-load.ts` (part of `npm run bench:editor`'s figures, issue 23): the
 * bytes and time of the editor's first load of a 10,000-Sim legacy, before and after ADR 032, in
 * one run against one server. Before: the two requests the editor made until now, GET
 * /api/trees/{id} and GET /api/people?tree={id} (every person whole: the original client's read,
 * which still answers the same). After: GET /api/trees/{id} and GET
 * /api/people?tree={id}&fields=canvas. The two are alternated LOADS times, each once with gzip
 * (what a browser gets) and once without; figures are medians. Writes
 * bench/results/editor-first-load.json.
 *
 * The server: BENCH_BASE_URL if given, else the e2e server on E2E_PORT if it answers, else one
 * started here (bench/support/chromium.ts).
 */
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { generateLegacy } from "./generate";
import { ensureServer, seed, setSeedBase, signUp } from "./seed";
import { median, positiveInt, round } from "./stats";

const SIMS = positiveInt(process.env.BENCH_FIRST_LOAD_SIMS, 10_000, "BENCH_FIRST_LOAD_SIMS");
const LOADS = positiveInt(process.env.BENCH_EDITOR_LOADS, 9, "BENCH_EDITOR_LOADS");
const port = Number(process.env.E2E_PORT ?? 3304);
const baseURL = process.env.BENCH_BASE_URL ?? `http://127.0.0.1:${port}`;
const root = path.resolve(import.meta.dirname, "../..");
setSeedBase(baseURL);

/** One GET, read to the end: wire bytes (as sent, compressed or not) and milliseconds. */
function get(url: string, token: string, gzip: boolean): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${baseURL}${url}`,
      {
        headers: {
          authorization: `Bearer ${token}`,
          ...(gzip ? { "accept-encoding": "gzip" } : {}),
        },
        agent: false,
      },
      (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => (bytes += chunk.length));
        response.on("end", () => {
          if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
          else resolve({ bytes, ms: performance.now() - started });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
  });
}

/** The editor's two requests in parallel, as it sends them: total bytes, time until both ended. */
async function load(urls: string[], token: string, gzip: boolean) {
  const started = performance.now();
  const answers = await Promise.all(urls.map((url) => get(url, token, gzip)));
  return {
    bytes: answers.reduce((sum, answer) => sum + answer.bytes, 0),
    perRequest: answers.map((answer) => answer.bytes),
    ms: performance.now() - started,
  };
}

async function main() {
  const server = await ensureServer(baseURL, port, "heirloom_bench_editor");
  try {
    const token = await signUp();
    const legacy = generateLegacy({ sims: SIMS, seed: 1 });
    console.log(`Seeding ${SIMS} Sims…`);
    const seeded = await seed(token, legacy, `First load ${SIMS}`);
    const id = seeded.treeId;
    const variants = {
      before: [`/api/trees/${id}`, `/api/people?tree=${id}`],
      after: [`/api/trees/${id}`, `/api/people?tree=${id}&fields=canvas`],
    } as const;
    type Sample = Awaited<ReturnType<typeof load>>;
    const samples: Record<string, Sample[]> = {};
    // one warm-up of each, then alternated, so both see the same server and caches
    for (const gzip of [true, false]) {
      for (const urls of Object.values(variants)) await load([...urls], token, gzip);
    }
    for (let i = 0; i < LOADS; i += 1) {
      for (const gzip of [true, false]) {
        const order = i % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const);
        for (const name of order) {
          const key = `${name} ${gzip ? "gzip" : "identity"}`;
          (samples[key] ??= []).push(await load([...variants[name]], token, gzip));
        }
      }
    }
    const figures = Object.fromEntries(
      Object.entries(samples).map(([key, list]) => [
        key,
        {
          bytes: median(list.map((s) => s.bytes)),
          treeBytes: median(list.map((s) => s.perRequest[0]!)),
          peopleBytes: median(list.map((s) => s.perRequest[1]!)),
          medianMs: round(median(list.map((s) => s.ms))),
          perRunMs: list.map((s) => round(s.ms)),
        },
      ]),
    );
    const ratio = (encoding: string) => ({
      bytes: round(figures[`after ${encoding}`]!.bytes / figures[`before ${encoding}`]!.bytes, 3),
      time: round(
        figures[`after ${encoding}`]!.medianMs / figures[`before ${encoding}`]!.medianMs,
        3,
      ),
    });
    const result = {
      bench: "bench/editor/first-load.ts",
      description:
        "the editor's first load (its two API reads) of a legacy, before (whole people) and after (fields=canvas, ADR 032), alternated in one run against one server; bytes as on the wire, time until both answers were read",
      when: new Date().toISOString(),
      machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((v) => round(v, 2)) },
      baseURL,
      sims: SIMS,
      loads: LOADS,
      goal: "after at most half of before, in bytes and in time",
      figures,
      afterOverBefore: { gzip: ratio("gzip"), identity: ratio("identity") },
    };
    await fs.mkdir(path.join(root, "bench/results"), { recursive: true });
    await fs.writeFile(
      path.join(root, "bench/results/editor-first-load.json"),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    console.log(JSON.stringify({ figures, afterOverBefore: result.afterOverBefore }, null, 2));
  } finally {
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
  }
}

await main();
