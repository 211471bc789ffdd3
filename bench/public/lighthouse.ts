/**
 * `npm run bench:lighthouse` (issue 14): Lighthouse from npm, at its default settings (mobile,
 * simulated throttling), in Debian's Chromium (headless, no sandbox), against the production
 * build: the public tree at 1,000 and 5,000 Sims, home and login. Each page is read once first
 * (a hot link is served from memory, ADR 014), then audited BENCH_LIGHTHOUSE_RUNS times (default
 * 3), each in a fresh browser; every figure is the median of the runs.
 * Goals: performance ≥ 90, accessibility, best practices and SEO = 100.
 * Writes bench/results/lighthouse.json.
 *
 * BENCH_LIGHTHOUSE_PAGES="home,login" runs only those pages (tree pages: "tree:1000").
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { median, round } from "../editor/stats";
import { baseURL, ensureServer, publishTree, root, signUp, stopServer } from "./app";

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const ONLY = process.env.BENCH_LIGHTHOUSE_PAGES?.split(",");
/** A folder to keep every full Lighthouse report in (JSON), to read the audits behind a score. */
const KEEP = process.env.BENCH_LIGHTHOUSE_KEEP;
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const METRICS = {
  fcpMs: "first-contentful-paint",
  lcpMs: "largest-contentful-paint",
  tbtMs: "total-blocking-time",
  cls: "cumulative-layout-shift",
  siMs: "speed-index",
} as const;

interface Run {
  scores: Record<(typeof CATEGORIES)[number], number>;
  metrics: Record<keyof typeof METRICS, number>;
  /** Audits of the four categories that did not pass, with what they said. */
  failing: { id: string; category: string; score: number; displayValue?: string }[];
  lcpElement?: string;
  /** Lighthouse's measure of the machine's speed at the time (higher is faster). */
  benchmarkIndex: number;
}

async function audit(url: string): Promise<Run> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
    if (KEEP) {
      await fs.mkdir(KEEP, { recursive: true });
      const file = `${new URL(url).pathname.replace(/\W+/g, "_")}-${Date.now()}.json`;
      await fs.writeFile(path.join(KEEP, file), JSON.stringify(lhr));
    }
    const scores = Object.fromEntries(
      CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
    ) as Run["scores"];
    const metrics = Object.fromEntries(
      Object.entries(METRICS).map(([key, id]) => [key, lhr.audits[id]?.numericValue ?? NaN]),
    ) as Run["metrics"];
    const failing: Run["failing"] = [];
    for (const id of CATEGORIES) {
      for (const ref of lhr.categories[id]?.auditRefs ?? []) {
        const found = lhr.audits[ref.id];
        if (!found || found.score === null || found.score >= 0.9 || ref.weight === 0) continue;
        if (found.scoreDisplayMode === "informative" || found.scoreDisplayMode === "notApplicable")
          continue;
        failing.push({
          id: ref.id,
          category: id,
          score: found.score,
          ...(found.displayValue ? { displayValue: found.displayValue } : {}),
        });
      }
    }
    const lcp = lhr.audits["largest-contentful-paint-element"]?.details as
      { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined;
    const lcpElement = lcp?.items?.[0]?.items?.[0]?.node?.snippet;
    return {
      scores,
      metrics,
      failing,
      benchmarkIndex: lhr.environment.benchmarkIndex,
      ...(lcpElement ? { lcpElement } : {}),
    };
  } finally {
    chrome.kill();
  }
}

/** Lighthouse sometimes fails to record a trace on a saturated machine (NO_NAVSTART): try again. */
async function auditWithRetries(url: string, attempts = 3): Promise<Run> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await audit(url);
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.warn(`${(error as Error).message}: trying again`);
    }
  }
}

function summarise(name: string, url: string, runs: Run[]) {
  const med = (pick: (run: Run) => number, digits: number) => round(median(runs.map(pick)), digits);
  return {
    page: name,
    path: url.slice(baseURL.length),
    runs: runs.length,
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, med((run) => run.scores[id], 0)])),
    metrics: Object.fromEntries(
      Object.keys(METRICS).map((key) => [
        key,
        med((run) => run.metrics[key as keyof typeof METRICS], key === "cls" ? 3 : 0),
      ]),
    ),
    benchmarkIndex: med((run) => run.benchmarkIndex, 0),
    samples: runs.map((run) => ({ scores: run.scores, metrics: run.metrics })),
    lcpElement: runs[0]?.lcpElement,
    failing: [...new Map(runs.flatMap((run) => run.failing).map((f) => [f.id, f])).values()],
  };
}

async function main() {
  const server = await ensureServer();
  const results: ReturnType<typeof summarise>[] = [];
  try {
    const pages: { name: string; path: string }[] = [
      { name: "home", path: "/" },
      { name: "login", path: "/login" },
    ];
    const wanted = (name: string) => !ONLY || ONLY.includes(name);
    const token = await signUp("benchlh");
    for (const sims of [1_000, 5_000]) {
      if (!wanted(`tree:${sims}`)) continue;
      const tree = await publishTree(token, sims, "wide");
      pages.push({ name: `public tree, ${sims} Sims (${tree.name})`, path: tree.pagePath });
    }
    for (const page of pages.filter((p) => wanted(p.name) || p.path.startsWith("/public/"))) {
      const url = `${baseURL}${page.path}`;
      // The first reader after a publish has Next render the page; Lighthouse reads a hot link.
      await fetch(url).then((response) => response.arrayBuffer());
      const runs: Run[] = [];
      for (let run = 0; run < RUNS; run += 1) runs.push(await auditWithRetries(url));
      const row = summarise(page.name, url, runs);
      console.log(JSON.stringify({ page: row.page, scores: row.scores, metrics: row.metrics }));
      results.push(row);
    }
  } finally {
    stopServer(server);
  }
  const out = {
    note:
      "Lighthouse (npm) at its default settings: mobile, simulated throttling; median of the runs; " +
      "metrics in ms except CLS",
    lighthouse: (
      JSON.parse(
        await fs.readFile(path.join(root, "node_modules/lighthouse/package.json"), "utf8"),
      ) as { version: string }
    ).version,
    at: new Date().toISOString(),
    loadAverage: os.loadavg().map((load) => round(load, 1)),
    pages: results,
  };
  await fs.mkdir(path.join(root, "bench/results"), { recursive: true });
  await fs.writeFile(
    path.join(root, "bench/results/lighthouse.json"),
    `${JSON.stringify(out, null, 2)}\n`,
  );
  console.log("Wrote bench/results/lighthouse.json");
}

await main();
