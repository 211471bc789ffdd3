/**
 * `npm run bench:editor`: synthetic legacies of 100, 1,000 and 10,000 Sims, seeded through the
 * API of a production server, opened in the editor in headless Chromium; the same 1,000 and
 * 10,000-Sim data rendered with family-chart in the same browser. Writes bench/results/editor.json.
 *
 * The server: BENCH_BASE_URL if given, else the e2e server (tests/e2e/support/serve.ts) on
 * E2E_PORT if it already answers, else one started here like Playwright's webServer.
 *
 * One load on this busy 2-core machine can be hundreds of milliseconds off, so each size is
 * seeded once and then opened LOAD_RUNS times (BENCH_EDITOR_LOADS), one after another, each in a
 * fresh browser context; load and add-child figures are the medians of those samples.
 */
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { Browser, CDPSession, Page } from "@playwright/test";
import { describeChromium, launchChromium, NAME_SHIM } from "../support/chromium";
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";
import { generateLegacy, generateWideLegacy, type LegacyStats } from "./generate";
import { ensureServer, seed, seedGenealogy, setSeedBase, signUp, type Seeded } from "./seed";
import {
  median,
  medianRequests,
  percentile,
  positiveInt,
  round,
  type MedianRequest,
  type RequestTiming,
} from "./stats";

const SIZES = [100, 1_000, 10_000];
/**
 * The shapes measured (BENCH_SHAPES, comma-separated): "deep" is the heir-line legacy at each of
 * SIZES; "wide" a legacy of 3 to 4 children per node, every other child married
 * (BENCH_WIDE_SIMS Sims); "genealogy" a generated GEDCOM of BENCH_GENEALOGY_PEOPLE people in
 * hundreds of unrelated families, imported through POST /api/trees/import.
 */
const SHAPES = (process.env.BENCH_SHAPES ?? "deep,wide,genealogy").split(",").map((s) => s.trim());
const WIDE_SIMS = positiveInt(process.env.BENCH_WIDE_SIMS, 10_000, "BENCH_WIDE_SIMS");
const GENEALOGY_PEOPLE = positiveInt(
  process.env.BENCH_GENEALOGY_PEOPLE,
  4_500,
  "BENCH_GENEALOGY_PEOPLE",
);
/** BENCH_FAMILY_CHART=false leaves family-chart out (for a quick run while tracing). */
const WITH_FAMILY_CHART = process.env.BENCH_FAMILY_CHART !== "false";
/** A folder for a Chromium CPU profile of each shape's first load (BENCH_EDITOR_PROFILE). */
const PROFILE_DIR = process.env.BENCH_EDITOR_PROFILE;
const LOAD_RUNS = positiveInt(process.env.BENCH_EDITOR_LOADS, 5, "BENCH_EDITOR_LOADS");
/** family-chart loads per size: one load of 10,000 Sims takes about 25 s, one of 1,000 about 2 s. */
const FAMILY_CHART_LOADS = new Map([
  [1_000, 3],
  [10_000, 1],
]);
const VIEWPORT = { width: 1280, height: 800 };
const PAN_ZOOM_MS = 5_000;
/** Memory figures need Chromium's precise counters. */
const EXTRA_CHROMIUM_ARGS = ["--enable-precise-memory-info"];

const port = Number(process.env.E2E_PORT ?? 3304);
const baseURL = process.env.BENCH_BASE_URL ?? `http://127.0.0.1:${port}`;
const root = path.resolve(import.meta.dirname, "../..");
setSeedBase(baseURL);

// ---------------------------------------------------------------------------------------------
// Measuring in the page
// ---------------------------------------------------------------------------------------------

interface FrameStats {
  frames: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Frames longer than 1.5 vsync intervals (25 ms): at least one vsync was missed. */
  droppedPct: number;
}

/** Pans (drags) and zooms (wheel) for PAN_ZOOM_MS, collecting requestAnimationFrame deltas. */
async function panAndZoom(page: Page): Promise<FrameStats> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __collect: boolean };
    w.__frames = [];
    w.__collect = true;
    let last = performance.now();
    const tick = (now: number) => {
      w.__frames.push(now - last);
      last = now;
      if (w.__collect) requestAnimationFrame(tick);
    };
    requestAnimationFrame((now) => {
      last = now;
      requestAnimationFrame(tick);
    });
  });
  const cx = VIEWPORT.width / 2;
  const cy = VIEWPORT.height / 2;
  const end = Date.now() + PAN_ZOOM_MS;
  let step = 0;
  while (Date.now() < end) {
    const phase = step % 40;
    if (phase < 20) {
      // A drag in a circle.
      if (phase === 0) {
        await page.mouse.move(cx, cy);
        await page.mouse.down();
      }
      const angle = (phase / 20) * 2 * Math.PI;
      await page.mouse.move(cx + 150 * Math.cos(angle), cy + 150 * Math.sin(angle));
      if (phase === 19) await page.mouse.up();
    } else {
      // Zoom out, then back in.
      await page.mouse.move(cx + 40, cy + 20);
      await page.mouse.wheel(0, phase < 30 ? 60 : -60);
    }
    step += 1;
  }
  await page.mouse.up();
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __collect: boolean };
    w.__collect = false;
    return w.__frames;
  });
  return {
    frames: frames.length,
    p50Ms: round(percentile(frames, 50)),
    p95Ms: round(percentile(frames, 95)),
    maxMs: round(Math.max(...frames)),
    droppedPct: round((100 * frames.filter((ms) => ms > 25).length) / frames.length),
  };
}

async function heapMb(page: Page): Promise<{ usedMb: number; totalMb: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("Performance.enable");
  const { metrics } = await cdp.send("Performance.getMetrics");
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  await cdp.detach();
  return {
    usedMb: round(metric("JSHeapUsedSize") / 2 ** 20),
    totalMb: round(metric("JSHeapTotalSize") / 2 ** 20),
  };
}

interface AddChild {
  layoutMs: number;
  clickToFrameMs: number;
}

/** Median add-child figures, with the samples in load order. */
interface AddChildFigures extends AddChild {
  layoutSamplesMs: number[];
  clickToFrameSamplesMs: number[];
}

/** One load of the editor in a fresh browser context. */
interface EditorLoad {
  paintedMs: number;
  interactiveMs: number;
  firstLayoutMs: number;
  renderedNodes: number;
  domContentLoadedMs: number;
  requests: RequestTiming[];
  addChild: AddChild;
  cpu: LoadCpu;
}

/**
 * CPU time the page's renderer spent from its start until interactive (CDP Performance metrics in
 * thread ticks): unlike wall-clock time it hardly grows when other work shares the cores, so it
 * compares loads made on a busy machine.
 */
interface LoadCpu {
  /** The renderer's main thread: everything the page's scripts, style, layout and paint took. */
  mainThreadMs: number;
  scriptMs: number;
  layoutMs: number;
  styleMs: number;
  /** The whole renderer process (main thread, compositor, raster, GC helpers). */
  rendererProcessMs: number;
}

async function loadCpu(cdp: CDPSession): Promise<LoadCpu> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const seconds = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  return {
    mainThreadMs: round(seconds("ThreadTime") * 1000),
    scriptMs: round(seconds("ScriptDuration") * 1000),
    layoutMs: round(seconds("LayoutDuration") * 1000),
    styleMs: round(seconds("RecalcStyleDuration") * 1000),
    rendererProcessMs: round(seconds("ProcessTime") * 1000),
  };
}

interface EditorFigures {
  shape: Shape;
  sims: number;
  nodes: number;
  generations: number;
  stats: LegacyStats;
  seedMs: number;
  loadRuns: number;
  /** Medians over the loads; the samples are in load order. */
  paintedMs: number;
  paintedSamplesMs: number[];
  interactiveMs: number;
  interactiveSamplesMs: number[];
  firstLayoutMs: number;
  renderedNodes: number;
  domContentLoadedMs: number;
  /** The first load's API requests; requestsMedian has each request's median over the loads. */
  requests: RequestTiming[];
  requestsMedian: MedianRequest[];
  panZoom: FrameStats;
  heap: { usedMb: number; totalMb: number };
  addChild: AddChildFigures;
  /** Medians over the loads of each LoadCpu figure, and the main thread's samples. */
  cpu: LoadCpu & { mainThreadSamplesMs: number[] };
  loads: EditorLoad[];
}

type Shape = "deep" | "wide" | "genealogy";

/** Waits until the editor's save status is (or, with `saved` false, is no longer) "saved". */
async function waitForSaved(page: Page, saved: boolean, timeout: number) {
  await page.waitForFunction(
    (wanted) => {
      const status = document.querySelector("[data-save-status]")?.getAttribute("data-save-status");
      return (status === "saved") === wanted;
    },
    saved,
    { timeout },
  );
}

function addChildFigures(samples: AddChild[]): AddChildFigures {
  const layouts = samples.map((sample) => sample.layoutMs);
  const clicks = samples.map((sample) => sample.clickToFrameMs);
  return {
    layoutMs: round(median(layouts), 2),
    clickToFrameMs: round(median(clicks)),
    layoutSamplesMs: layouts,
    clickToFrameSamplesMs: clicks,
  };
}

/**
 * One visit: a fresh context has an empty cache, like a new visitor. Every load also adds one
 * child to the root, so each add-child sample comes from a fresh page too; the tree grows by a
 * node per load, which is noise beside its thousands. `withPanZoom` also drives pan and zoom
 * and reads the heap, which need only one page per size.
 */
async function loadEditor(
  browser: Browser,
  token: string,
  seeded: Seeded,
  withPanZoom: boolean,
  profileFile?: string,
): Promise<{
  load: EditorLoad;
  panZoom?: FrameStats;
  heap?: { usedMb: number; totalMb: number };
}> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addInitScript(NAME_SHIM);
    await context.addInitScript((value) => window.localStorage.setItem("token", value), token);
    const page = await context.newPage();
    const metrics = await context.newCDPSession(page);
    await metrics.send("Performance.enable", { timeDomain: "threadTicks" });
    const cdp = profileFile ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 250 });
      await cdp.send("Profiler.start");
    }
    await page.goto(`${baseURL}/trees/${seeded.treeId}`);
    await page.waitForFunction(
      () => performance.getEntriesByName("heirloom:tree-painted").length > 0,
      undefined,
      { timeout: 120_000, polling: 16 },
    );
    // Interactive: the first keyboard zoom that takes effect.
    const canvas = page.locator('svg[role="application"]');
    await canvas.focus();
    await page.keyboard.press("+");
    await page.waitForFunction(
      () =>
        document.querySelector('svg[role="application"]')?.getAttribute("data-scale") === "1.200",
      undefined,
      { polling: "raf" },
    );
    const timings = await page.evaluate(() => ({
      interactive: performance.now(),
      painted: performance.getEntriesByName("heirloom:tree-painted")[0]!.startTime,
      layout: performance.getEntriesByName("heirloom:layout")[0]?.duration ?? NaN,
      rendered: document.querySelectorAll("[data-node-key]").length,
      requests: performance
        .getEntriesByType("resource")
        .filter((entry) => /\/api\/(trees|people)\b/.test(entry.name))
        .map((entry) => ({
          url: new URL(entry.name).pathname,
          startMs: Math.round(entry.startTime),
          endMs: Math.round((entry as PerformanceResourceTiming).responseEnd),
          kb: Math.round((entry as PerformanceResourceTiming).encodedBodySize / 1024),
        })),
      domContentLoadedMs: Math.round(
        (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming)
          .domContentLoadedEventEnd,
      ),
    }));
    const cpu = await loadCpu(metrics);
    await metrics.detach();
    if (cdp && profileFile) {
      const { profile } = await cdp.send("Profiler.stop");
      await fs.mkdir(path.dirname(profileFile), { recursive: true });
      await fs.writeFile(profileFile, JSON.stringify(profile));
      console.log(`  CPU profile of the load: ${profileFile}`);
      for (const line of topFunctions(profile, 15)) console.log(`    ${line}`);
    }
    await page.keyboard.press("-");

    // Add a child to the root: the relayout, and the click until the next frame.
    const addChild = await page.evaluate(
      () =>
        new Promise<AddChild>((resolve, reject) => {
          const button = document.querySelector('[data-node-key=""] [aria-label="Add child"]');
          if (!button) {
            reject(new Error("No Add child button on the root"));
            return;
          }
          const before = performance.getEntriesByName("heirloom:layout").length;
          const start = performance.now();
          button.dispatchEvent(new MouseEvent("click", { bubbles: true }));
          const check = () => {
            const entries = performance.getEntriesByName("heirloom:layout");
            if (entries.length > before) {
              requestAnimationFrame(() =>
                resolve({
                  layoutMs: entries[entries.length - 1]!.duration,
                  clickToFrameMs: performance.now() - start,
                }),
              );
            } else requestAnimationFrame(check);
          };
          check();
        }),
    );
    // Let the autosave of the new child go out: before the pan and zoom, so it does not cost
    // frames, and before the next load, so that one opens the saved tree. The status is still
    // "saved" until the edit's effect has run; waiting for it to leave "saved" first keeps a
    // stale "saved" from ending the wait early.
    await waitForSaved(page, false, 10_000);
    await waitForSaved(page, true, 60_000);
    const panZoom = withPanZoom ? await panAndZoom(page) : undefined;
    const heap = withPanZoom ? await heapMb(page) : undefined;
    return {
      load: {
        paintedMs: round(timings.painted),
        interactiveMs: round(timings.interactive),
        firstLayoutMs: round(timings.layout),
        renderedNodes: timings.rendered,
        domContentLoadedMs: timings.domContentLoadedMs,
        requests: timings.requests,
        addChild: {
          layoutMs: round(addChild.layoutMs, 2),
          clickToFrameMs: round(addChild.clickToFrameMs),
        },
        cpu,
      },
      panZoom,
      heap,
    };
  } finally {
    await context.close();
  }
}

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** The functions with the most self time in a CPU profile, for the log. */
function topFunctions(profile: CpuProfile, count: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i += 1) {
    const frame = byId.get(samples[i]!)?.callFrame;
    if (!frame) continue;
    const file = frame.url.split("/").pop() ?? "";
    const name = `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => `${ms.toFixed(1).padStart(7)} ms  ${name}`);
}

/** What every load of either chart measures. */
interface CommonLoad {
  paintedMs: number;
  interactiveMs: number;
  firstLayoutMs: number;
  addChild: AddChild;
}

type Heap = { usedMb: number; totalMb: number };

/**
 * `runs` loads one after another (in parallel they would share two cores and slow each other
 * down), with pan and zoom and the heap from the first; the medians over the loads, and every
 * sample in load order.
 */
async function repeatLoads<L extends CommonLoad>(
  runs: number,
  load: (first: boolean) => Promise<{ load: L; panZoom?: FrameStats; heap?: Heap }>,
  describe: (load: L, run: number) => string,
) {
  const loads: L[] = [];
  let panZoom: FrameStats | undefined;
  let heap: Heap | undefined;
  for (let run = 0; run < runs; run += 1) {
    const result = await load(run === 0);
    loads.push(result.load);
    panZoom ??= result.panZoom;
    heap ??= result.heap;
    console.log(describe(result.load, run));
  }
  const paintedSamples = loads.map((sample) => sample.paintedMs);
  const interactiveSamples = loads.map((sample) => sample.interactiveMs);
  return {
    loadRuns: loads.length,
    paintedMs: round(median(paintedSamples)),
    paintedSamplesMs: paintedSamples,
    interactiveMs: round(median(interactiveSamples)),
    interactiveSamplesMs: interactiveSamples,
    firstLayoutMs: round(median(loads.map((sample) => sample.firstLayoutMs))),
    panZoom: panZoom!,
    heap: heap!,
    addChild: addChildFigures(loads.map((sample) => sample.addChild)),
    loads,
  };
}

function medianCpu(samples: LoadCpu[]): EditorFigures["cpu"] {
  const of = (key: keyof LoadCpu) => round(median(samples.map((sample) => sample[key])));
  return {
    mainThreadMs: of("mainThreadMs"),
    scriptMs: of("scriptMs"),
    layoutMs: of("layoutMs"),
    styleMs: of("styleMs"),
    rendererProcessMs: of("rendererProcessMs"),
    mainThreadSamplesMs: samples.map((sample) => sample.mainThreadMs),
  };
}

async function measureEditor(browser: Browser, token: string, seeded: Seeded, shape: Shape) {
  const profileFile = PROFILE_DIR
    ? path.resolve(PROFILE_DIR, `editor-${shape}-${seeded.people.length}.cpuprofile`)
    : undefined;
  const measured = await repeatLoads(
    LOAD_RUNS,
    (first) => loadEditor(browser, token, seeded, first, first ? profileFile : undefined),
    ({ paintedMs, interactiveMs, addChild, cpu }, run) =>
      `  load ${run + 1}/${LOAD_RUNS}: painted ${paintedMs} ms, interactive ${interactiveMs} ms, ` +
      `add child ${addChild.layoutMs} ms layout / ${addChild.clickToFrameMs} ms to frame, ` +
      `main thread CPU ${cpu.mainThreadMs} ms`,
  );
  const { loads } = measured;
  const figures: EditorFigures = {
    shape,
    sims: seeded.people.length,
    nodes: seeded.stats.nodes,
    generations: seeded.stats.generations,
    stats: seeded.stats,
    seedMs: seeded.seedMs,
    ...measured,
    renderedNodes: loads[0]!.renderedNodes,
    domContentLoadedMs: round(median(loads.map((load) => load.domContentLoadedMs))),
    requests: loads[0]!.requests,
    requestsMedian: medianRequests(loads.map((load) => load.requests)),
    cpu: medianCpu(loads.map((load) => load.cpu)),
  };
  return figures;
}

// ---------------------------------------------------------------------------------------------
// family-chart, from node_modules, on a small static server
// ---------------------------------------------------------------------------------------------

interface FcDatum {
  id: string;
  data: { gender: "M" | "F"; "first name": string; "last name": string };
  rels: { parents: string[]; spouses: string[]; children: string[] };
}

/** The same legacy in family-chart's format: main Sims, their partners, parents and children. */
export function toFamilyChart(data: TreeNode, people: Person[]): FcDatum[] {
  const byId = new Map<string, FcDatum>();
  const gender = new Map<string, "M" | "F">();
  const peopleById = new Map(people.map((person) => [person._id, person]));
  const datum = (id: string): FcDatum => {
    let found = byId.get(id);
    if (!found) {
      const person = peopleById.get(id);
      found = {
        id,
        data: {
          gender: gender.get(id) ?? "M",
          "first name": person?.firstName ?? "",
          "last name": person?.lastName ?? "",
        },
        rels: { parents: [], spouses: [], children: [] },
      };
      byId.set(id, found);
    }
    return found;
  };
  const stack: TreeNode[] = [data];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!node.person) continue;
    const main = datum(node.person._id);
    for (const row of node.partners) {
      for (const partner of row.people) {
        gender.set(partner._id, main.data.gender === "M" ? "F" : "M");
        const other = datum(partner._id);
        other.data.gender = main.data.gender === "M" ? "F" : "M";
        if (!main.rels.spouses.includes(other.id)) main.rels.spouses.push(other.id);
        if (!other.rels.spouses.includes(main.id)) other.rels.spouses.push(main.id);
      }
    }
    for (const child of node.children) {
      if (!child.person) continue;
      const kid = datum(child.person._id);
      const parents = child.parents.length > 0 ? child.parents : [node.person];
      for (const parent of parents.slice(0, 2)) {
        const p = datum(parent._id);
        if (!kid.rels.parents.includes(p.id)) kid.rels.parents.push(p.id);
        if (!p.rels.children.includes(kid.id)) p.rels.children.push(kid.id);
      }
      stack.push(child);
    }
  }
  // family-chart starts from the first datum: the legacy's founder.
  const first = byId.get(data.person!._id)!;
  return [first, ...[...byId.values()].filter((d) => d !== first)];
}

const FC_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>family-chart bench</title>
<link rel="stylesheet" href="/family-chart.css">
<style>html,body{margin:0;height:100%}#FamilyChart{width:100vw;height:100vh;background:#fff}</style>
</head><body>
<div id="FamilyChart" class="f3"></div>
<script src="/d3.min.js"></script>
<script src="/family-chart.js"></script>
<script>
fetch("/data.json").then((r) => r.json()).then((data) => {
  const t0 = performance.now();
  const chart = f3.createChart("#FamilyChart", data).setTransitionTime(0);
  chart.setCardHtml().setCardDisplay([["first name", "last name"]]);
  chart.updateTree({ initial: true });
  performance.measure("fc:layout", { start: t0, end: performance.now() });
  window.fcChart = chart;
  window.fcData = data;
  requestAnimationFrame(() => requestAnimationFrame(() => performance.mark("fc:painted")));
});
</script></body></html>`;

async function serveFamilyChart(): Promise<{
  url: string;
  setData: (json: string) => void;
  close: () => Promise<void>;
}> {
  let dataJson = "[]";
  const files: Record<string, [string, string]> = {
    "/d3.min.js": ["node_modules/d3/dist/d3.min.js", "text/javascript"],
    "/family-chart.js": ["node_modules/family-chart/dist/family-chart.js", "text/javascript"],
    "/family-chart.css": ["node_modules/family-chart/dist/styles/family-chart.css", "text/css"],
  };
  const server = http.createServer((request, response) => {
    const url = (request.url ?? "/").split("?")[0]!;
    if (url === "/") {
      response.writeHead(200, { "content-type": "text/html" }).end(FC_PAGE);
    } else if (url === "/data.json") {
      response.writeHead(200, { "content-type": "application/json" }).end(dataJson);
    } else if (files[url]) {
      const [file, type] = files[url];
      fs.readFile(path.join(root, file)).then(
        (body) => response.writeHead(200, { "content-type": type }).end(body),
        () => response.writeHead(404).end(),
      );
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/`,
    setData: (json) => {
      dataJson = json;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One load of family-chart in a fresh browser context. */
interface ChartLoad {
  paintedMs: number;
  interactiveMs: number;
  firstLayoutMs: number;
  renderedCards: number;
  addChild: AddChild;
}

interface ChartFigures {
  sims: number;
  loadRuns: number;
  /** Medians over the loads; the samples are in load order. */
  paintedMs: number;
  paintedSamplesMs: number[];
  interactiveMs: number;
  interactiveSamplesMs: number[];
  firstLayoutMs: number;
  renderedCards: number;
  panZoom: FrameStats;
  heap: { usedMb: number; totalMb: number };
  addChild: AddChildFigures;
  loads: ChartLoad[];
}

async function loadFamilyChart(
  browser: Browser,
  url: string,
  withPanZoom: boolean,
): Promise<{
  load: ChartLoad;
  panZoom?: FrameStats;
  heap?: { usedMb: number; totalMb: number };
}> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addInitScript(NAME_SHIM);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(url);
    await page
      .waitForFunction(() => performance.getEntriesByName("fc:painted").length > 0, undefined, {
        timeout: 300_000,
        polling: 50,
      })
      .catch((error: unknown) => {
        throw new Error(`family-chart did not paint: ${errors.join("; ") || String(error)}`);
      });
    // Interactive: a first wheel zoom that changes d3's zoom transform on the chart.
    const before = await page.evaluate(
      () =>
        document.querySelector<Element & { __zoom?: { k: number } }>("#f3Canvas")?.__zoom?.k ?? 1,
    );
    await page.mouse.move(VIEWPORT.width / 2, VIEWPORT.height / 2);
    await page.mouse.wheel(0, -100);
    await page.waitForFunction(
      (previous) =>
        (document.querySelector<Element & { __zoom?: { k: number } }>("#f3Canvas")?.__zoom?.k ??
          1) !== previous,
      before,
      { polling: "raf", timeout: 120_000 },
    );
    const timings = await page.evaluate(() => ({
      interactive: performance.now(),
      painted: performance.getEntriesByName("fc:painted")[0]!.startTime,
      layout: performance.getEntriesByName("fc:layout")[0]?.duration ?? NaN,
      rendered: document.querySelectorAll("#FamilyChart .card_cont").length,
    }));
    // The same edit: one child for the founder, then the relayout and redraw.
    const addChild = await page.evaluate(
      () =>
        new Promise<AddChild>((resolve) => {
          const w = window as unknown as {
            fcChart: { updateData(d: unknown): { updateTree(p: unknown): void } };
            fcData: {
              id: string;
              data: object;
              rels: { parents: string[]; children: string[]; spouses: string[] };
            }[];
          };
          const founder = w.fcData[0]!;
          const start = performance.now();
          w.fcData.push({
            id: "bench-new-child",
            data: { gender: "M", "first name": "New", "last name": "Child" },
            rels: { parents: [founder.id], spouses: [], children: [] },
          });
          founder.rels.children.push("bench-new-child");
          w.fcChart.updateData(w.fcData).updateTree({ tree_position: "inherit" });
          const layoutMs = performance.now() - start;
          requestAnimationFrame(() =>
            resolve({ layoutMs, clickToFrameMs: performance.now() - start }),
          );
        }),
    );
    const panZoom = withPanZoom ? await panAndZoom(page) : undefined;
    const heap = withPanZoom ? await heapMb(page) : undefined;
    return {
      load: {
        paintedMs: round(timings.painted),
        interactiveMs: round(timings.interactive),
        firstLayoutMs: round(timings.layout),
        renderedCards: timings.rendered,
        addChild: {
          layoutMs: round(addChild.layoutMs, 2),
          clickToFrameMs: round(addChild.clickToFrameMs),
        },
      },
      panZoom,
      heap,
    };
  } finally {
    await context.close();
  }
}

async function measureFamilyChart(browser: Browser, url: string, sims: number, runs: number) {
  const measured = await repeatLoads(
    runs,
    (first) => loadFamilyChart(browser, url, first),
    ({ paintedMs, interactiveMs }, run) =>
      `  family-chart load ${run + 1}/${runs}: painted ${paintedMs} ms, ` +
      `interactive ${interactiveMs} ms`,
  );
  const figures: ChartFigures = {
    sims,
    ...measured,
    renderedCards: measured.loads[0]!.renderedCards,
  };
  return figures;
}

// ---------------------------------------------------------------------------------------------

/** The medians for the log; the samples go to the results file. */
function summarize(figures: EditorFigures | ChartFigures) {
  return {
    sims: figures.sims,
    loadRuns: figures.loadRuns,
    paintedMs: figures.paintedMs,
    interactiveMs: figures.interactiveMs,
    firstLayoutMs: figures.firstLayoutMs,
    addChild: {
      layoutMs: figures.addChild.layoutMs,
      clickToFrameMs: figures.addChild.clickToFrameMs,
    },
    panZoom: figures.panZoom,
    heap: figures.heap,
  };
}

async function main() {
  const startedAt = new Date().toISOString();
  const machine = {
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().map((cpu) => `${cpu.model} @ ${cpu.speed} MHz`),
    cpuCount: os.cpus().length,
    memoryGb: round(os.totalmem() / 2 ** 30),
    loadAverageAtStart: os.loadavg().map((value) => round(value, 2)),
    node: process.version,
  };
  const server = await ensureServer(baseURL, port, "heirloom_bench_editor");
  const fcServer = await serveFamilyChart();
  const browser = await launchChromium(EXTRA_CHROMIUM_ARGS);
  const only = process.env.BENCH_SIZES?.split(",").map(Number) ?? SIZES;
  const cases: { shape: Shape; sims: number; chartRuns?: number }[] = [];
  for (const shape of SHAPES) {
    if (shape === "deep") {
      for (const sims of only) cases.push({ shape, sims, chartRuns: FAMILY_CHART_LOADS.get(sims) });
    } else if (shape === "wide") {
      cases.push({ shape, sims: WIDE_SIMS, chartRuns: 1 });
    } else if (shape === "genealogy") {
      cases.push({ shape, sims: GENEALOGY_PEOPLE, chartRuns: 1 });
    } else {
      throw new Error(`BENCH_SHAPES: unknown shape ${shape} (deep, wide or genealogy)`);
    }
  }
  const editor: EditorFigures[] = [];
  const familyChart: ((ChartFigures | { sims: number; error: string }) & { shape: Shape })[] = [];
  try {
    const token = await signUp();
    for (const { shape, sims, chartRuns } of cases) {
      console.log(`Seeding the ${shape} shape, ${sims} Sims…`);
      const seeded =
        shape === "genealogy"
          ? await seedGenealogy(token, sims)
          : shape === "wide"
            ? await seed(token, generateWideLegacy({ sims }), `Bench wide legacy of ${sims}`)
            : await seed(
                token,
                generateLegacy({ sims, generations: 14, seed: sims }),
                `Bench legacy of ${sims}`,
              );
      console.log(
        `  seeded in ${seeded.seedMs} ms (${seeded.stats.nodes} nodes, ` +
          `${seeded.stats.generations} generations); measuring the editor…`,
      );
      const figures = await measureEditor(browser, token, seeded, shape);
      console.log(`  editor: ${JSON.stringify(summarize(figures))}`);
      editor.push(figures);
      if (chartRuns && WITH_FAMILY_CHART) {
        console.log("  measuring family-chart…");
        fcServer.setData(JSON.stringify(toFamilyChart(seeded.data, seeded.people)));
        try {
          const chart = await measureFamilyChart(browser, fcServer.url, figures.sims, chartRuns);
          console.log(`  family-chart: ${JSON.stringify(summarize(chart))}`);
          familyChart.push({ shape, ...chart });
        } catch (error) {
          console.log(`  family-chart failed: ${String(error)}`);
          familyChart.push({ shape, sims: figures.sims, error: String(error).slice(0, 500) });
        }
      }
    }
  } finally {
    await browser.close();
    await fcServer.close();
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
  }

  const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 3) : null);
  const ratios = familyChart.flatMap((chart) => {
    const ours = editor.find((e) => e.shape === chart.shape && e.sims === chart.sims);
    if (!ours || "error" in chart) return [];
    return [
      {
        shape: chart.shape,
        sims: chart.sims,
        note: "family-chart ÷ Heirloom: above 1 means Heirloom is faster or lighter",
        paintedAndInteractive: ratio(chart.interactiveMs, ours.interactiveMs),
        painted: ratio(chart.paintedMs, ours.paintedMs),
        p95FrameMs: ratio(chart.panZoom.p95Ms, ours.panZoom.p95Ms),
        heapUsed: ratio(chart.heap.usedMb, ours.heap.usedMb),
        addChild: ratio(chart.addChild.clickToFrameMs, ours.addChild.clickToFrameMs),
      },
    ];
  });
  // The goals of issue 15, for the largest tree of each shape: interactive under 1.0 s,
  // add-child relayout under 50 ms, pan and zoom p95 within one 60 Hz frame.
  const goals = (["deep", "wide", "genealogy"] as const).flatMap((shape) => {
    const largest = editor.filter((e) => e.shape === shape).sort((a, b) => b.sims - a.sims)[0];
    if (!largest) return [];
    return [
      {
        shape,
        sims: largest.sims,
        nodes: largest.nodes,
        generations: largest.generations,
        basis: `paintedAndInteractive and addChildRelayout: median of ${largest.loadRuns} loads, each in a fresh context; p95Frame: one ${PAN_ZOOM_MS} ms pan and zoom session (about 300 frames)`,
        // Interactive comes after painted in every load, so its median bounds both.
        paintedAndInteractive: {
          goalMs: 1000,
          ms: largest.interactiveMs,
          paintedMs: largest.paintedMs,
          samplesMs: largest.interactiveSamplesMs,
          paintedSamplesMs: largest.paintedSamplesMs,
          met: largest.interactiveMs < 1000,
          // What the load cost the page's main thread, which a busy machine hardly changes.
          mainThreadCpuMs: largest.cpu.mainThreadMs,
          mainThreadCpuSamplesMs: largest.cpu.mainThreadSamplesMs,
        },
        // requestAnimationFrame ticks at the display's 60 Hz, so no page measures a delta below
        // one refresh interval (16.67 ms, recorded to 0.1 ms with timer jitter): "under 16.7 ms"
        // is read as "every frame within one refresh": p95 within 16.7 ms plus that jitter, none
        // dropped.
        p95Frame: {
          goalMs: 16.7,
          ms: largest.panZoom.p95Ms,
          droppedPct: largest.panZoom.droppedPct,
          met: largest.panZoom.p95Ms <= 16.8 && largest.panZoom.droppedPct === 0,
        },
        addChildRelayout: {
          goalMs: 50,
          layoutMs: largest.addChild.layoutMs,
          clickToFrameMs: largest.addChild.clickToFrameMs,
          layoutSamplesMs: largest.addChild.layoutSamplesMs,
          clickToFrameSamplesMs: largest.addChild.clickToFrameSamplesMs,
          met: largest.addChild.layoutMs < 50,
        },
      },
    ];
  });
  const chartLoadsText = [...FAMILY_CHART_LOADS]
    .map(([sims, runs]) =>
      runs === 1
        ? `single load at ${sims.toLocaleString("en")} Sims`
        : `median of ${runs} loads, each in a fresh context, at ${sims.toLocaleString("en")} Sims`,
    )
    .join("; ");
  const result = {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: { ...machine, loadAverageAtEnd: os.loadavg().map((value) => round(value, 2)) },
    browser: describeChromium(EXTRA_CHROMIUM_ARGS),
    viewport: VIEWPORT,
    method: {
      loads: `median of ${LOAD_RUNS} loads, each in a fresh context: each size is seeded once, then opened ${LOAD_RUNS} times one after another, each in a fresh browser context (empty cache, like a new visitor); paintedMs, interactiveMs, firstLayoutMs, domContentLoadedMs and addChild are those medians, the samples are in load order (*SamplesMs, loads); requests is the first load's, requestsMedian each request's median over the loads`,
      paintedMs:
        "navigation start → performance mark heirloom:tree-painted (first frame with nodes)",
      interactiveMs:
        "navigation start → the first keyboard zoom (+) has taken effect (data-scale changed)",
      cpu: "CDP Performance.getMetrics with timeDomain threadTicks, read at interactive: ThreadTime (the renderer's main thread), ScriptDuration, LayoutDuration, RecalcStyleDuration, ProcessTime (the whole renderer process), CPU time from the renderer's start; medians over the loads",
      panZoom: `${PAN_ZOOM_MS} ms of drags and wheel zooms driven by Playwright in the first load only; requestAnimationFrame deltas`,
      heap: "CDP Performance.getMetrics after a forced GC, after the pan and zoom of the first load",
      addChild:
        "one sample per load, each on a fresh page: layoutMs = the heirloom:layout measure after Add child on the root; clickToFrameMs = click until the next frame after it; the autosave of that child completes before the page goes on. family-chart: updateData+updateTree with one more child of the founder",
      familyChart: `family-chart@0.9.0 with d3, cardHtml showing first and last names, transition time 0; ${chartLoadsText}; a single load of the wide and genealogy shapes; pan and zoom and heap from its first load`,
      shapes:
        "deep: generateLegacy (an heir line of 14 generations, the rest placed at random, up to 8 children per node); wide: generateWideLegacy (3 or 4 children per node, every other child married, filled breadth first); genealogy: generateGenealogy (bench/editor/gedcom.ts), a GEDCOM of unrelated families imported through POST /api/trees/import, so most of the root's children are hidden branches",
    },
    goals,
    editor,
    familyChart,
    ratios,
  };
  await fs.mkdir(path.join(root, "bench/results"), { recursive: true });
  await fs.writeFile(
    path.join(root, "bench/results/editor.json"),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  console.log(JSON.stringify({ goals, ratios }, null, 2));
}

await main();
