/**
 * `npx tsx bench/editor/trace.ts`: where the browser's time goes while the editor opens a
 * 10,000-Sim tree of each shape (BENCH_SHAPES: deep, wide, genealogy, and "small", a deep legacy
 * of 100 Sims for the cost that does not grow with the tree). One Chromium performance trace of a
 * cold load (navigation until the first keyboard zoom has taken effect), summed by kind of work
 * on the page's main thread, in wall and in CPU time:
 * script, style, layout, paint, HTML parsing, garbage collection; the user-timing measures the
 * editor leaves (heirloom:*); and then BENCH_TRACE_LOADS more cold loads without tracing for
 * painted and interactive medians. Prints; writes bench/results/editor-trace.json.
 *
 * The trees are seeded once and remembered in BENCH_TRACE_STATE (a JSON file, by default in the
 * system's temporary folder) for the same BENCH_BASE_URL, so that a rebuilt app can be traced
 * again without seeding 10,000 Sims anew; the app must keep its database between runs.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser } from "@playwright/test";
import { launchChromium } from "../support/chromium";
import { generateLegacy, generateWideLegacy } from "./generate";
import { seed, seedGenealogy, setSeedBase, signUp } from "./seed";
import { median, positiveInt, round } from "./stats";

const baseURL = process.env.BENCH_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? 3304}`;
const STATE_FILE =
  process.env.BENCH_TRACE_STATE ?? path.join(os.tmpdir(), "heirloom-editor-trace.json");
const SHAPES = (process.env.BENCH_SHAPES ?? "deep,wide,genealogy").split(",").map((s) => s.trim());
const LOADS = positiveInt(process.env.BENCH_TRACE_LOADS, 3, "BENCH_TRACE_LOADS");
const SIMS = 10_000;
const GENEALOGY_PEOPLE = positiveInt(
  process.env.BENCH_GENEALOGY_PEOPLE,
  4_500,
  "BENCH_GENEALOGY_PEOPLE",
);
const VIEWPORT = { width: 1280, height: 800 };
const root = path.resolve(import.meta.dirname, "../..");
setSeedBase(baseURL);

interface State {
  baseURL: string;
  token: string;
  trees: Record<string, string>;
}

async function readState(): Promise<State | null> {
  try {
    const state = JSON.parse(await fs.readFile(STATE_FILE, "utf8")) as State;
    return state.baseURL === baseURL ? state : null;
  } catch {
    return null;
  }
}

async function treeFor(state: State, shape: string): Promise<string> {
  const known = state.trees[shape];
  if (known) {
    const response = await fetch(`${baseURL}/api/trees/${known}`, {
      headers: { authorization: `Bearer ${state.token}` },
    });
    if (response.ok) return known;
  }
  console.log(`Seeding the ${shape} shape…`);
  const seeded =
    shape === "genealogy"
      ? await seedGenealogy(state.token, GENEALOGY_PEOPLE)
      : shape === "wide"
        ? await seed(state.token, generateWideLegacy({ sims: SIMS }), `Trace wide ${SIMS}`)
        : shape === "small"
          ? await seed(
              state.token,
              generateLegacy({ sims: 100, generations: 14, seed: 100 }),
              "Trace deep 100",
            )
          : await seed(
              state.token,
              generateLegacy({ sims: SIMS, generations: 14, seed: SIMS }),
              `Trace deep ${SIMS}`,
            );
  state.trees[shape] = seeded.treeId;
  await fs.writeFile(STATE_FILE, JSON.stringify(state));
  return seeded.treeId;
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** CPU time of the thread (thread ticks), in µs. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string } };
}

/** The kind of main-thread work a trace event is. */
function kindOf(name: string): string {
  if (/GC|Sweep|Scaveng/i.test(name)) return "gc";
  if (name === "ParseHTML" || name === "ParseAuthorStyleSheet") return "parseHtmlCss";
  if (name === "UpdateLayoutTree" || name === "RecalculateStyles") return "style";
  if (name === "Layout" || name === "IntersectionObserverController::computeIntersections")
    return "layout";
  if (/Paint|Layeriz|Composit|UpdateLayer|Commit|PrePaint|Rasteriz|Decode/i.test(name))
    return "paintAndComposite";
  if (/Compile|Script|FunctionCall|Microtask|TimerFire|EventDispatch|Animation|v8\./i.test(name))
    return "script";
  if (name === "ResourceReceivedData" || name === "ResourceFinish" || /Receive|Resource/.test(name))
    return "network";
  return "other";
}

/** Self time per kind on the page's main thread: each event's duration minus its children's. */
function summarizeTrace(events: TraceEvent[]) {
  const mainThreads = events.filter(
    (event) =>
      event.ph === "M" && event.name === "thread_name" && event.args?.name === "CrRendererMain",
  );
  // The page's renderer is the one whose main thread did the most.
  let best: { pid: number; tid: number; total: number } | null = null;
  for (const thread of mainThreads) {
    const total = events
      .filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.ph === "X")
      .reduce((sum, e) => sum + (e.dur ?? 0), 0);
    if (!best || total > best.total) best = { pid: thread.pid, tid: thread.tid, total };
  }
  if (!best) return null;
  const own = events
    .filter((e) => e.pid === best.pid && e.tid === best.tid && e.ph === "X" && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  // Self time: each event's wall time (and CPU time) less its children's.
  const selfByName = new Map<string, number>();
  const cpuByName = new Map<string, number>();
  const stack: { event: TraceEvent; end: number; child: number; childCpu: number }[] = [];
  const close = (until: number) => {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= until) {
      const done = stack.pop()!;
      const { name, dur = 0, tdur = 0 } = done.event;
      selfByName.set(name, (selfByName.get(name) ?? 0) + dur - done.child);
      cpuByName.set(name, (cpuByName.get(name) ?? 0) + tdur - done.childCpu);
      const parent = stack[stack.length - 1];
      if (parent) {
        parent.child += dur;
        parent.childCpu += tdur;
      }
    }
  };
  for (const event of own) {
    close(event.ts);
    stack.push({ event, end: event.ts + event.dur!, child: 0, childCpu: 0 });
  }
  close(Infinity);
  const byKind: Record<string, number> = {};
  const cpuByKind: Record<string, number> = {};
  for (const [name, us] of selfByName) {
    const kind = kindOf(name);
    byKind[kind] = (byKind[kind] ?? 0) + us / 1000;
    cpuByKind[kind] = (cpuByKind[kind] ?? 0) + (cpuByName.get(name) ?? 0) / 1000;
  }
  const sorted = (record: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(record)
        .sort((a, b) => b[1] - a[1])
        .map(([kind, ms]) => [kind, round(ms)]),
    );
  const first = own[0]?.ts ?? 0;
  const last = own.reduce((max, e) => Math.max(max, e.ts + e.dur!), first);
  const marks = events
    .filter((e) => e.cat.includes("blink.user_timing") && e.name.startsWith("heirloom:"))
    .map((e) => ({ name: e.name, atMs: round((e.ts - first) / 1000), ph: e.ph }));
  return {
    spanMs: round((last - first) / 1000),
    busyMs: round(Object.values(byKind).reduce((a, b) => a + b, 0)),
    /** CPU time of the main thread: what a busy machine hardly changes. */
    cpuMs: round(Object.values(cpuByKind).reduce((a, b) => a + b, 0)),
    byKindMs: sorted(byKind),
    cpuByKindMs: sorted(cpuByKind),
    topEventsMs: Object.fromEntries(
      [...selfByName]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([name, us]) => [name, round(us / 1000)]),
    ),
    marks,
  };
}

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * Self and total time per function of a CPU profile. A minified function is named by its place
 * in its chunk and the code there, so that it can be found in the sources.
 */
async function summarizeProfile(profile: CpuProfile, count: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const nameOf = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    const file = frame.url.split("/").pop() ?? "";
    return `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const frames = new Map<string, CpuProfile["nodes"][number]["callFrame"]>();
  const samples = profile.samples ?? [];
  for (let i = 0; i < samples.length; i += 1) {
    const ms = (profile.timeDeltas?.[i] ?? 0) / 1000;
    const name = nameOf(samples[i]!);
    self.set(name, (self.get(name) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = samples[i]; id !== undefined; id = parent.get(id)) {
      const at = nameOf(id);
      frames.set(at, byId.get(id)!.callFrame);
      if (seen.has(at)) continue;
      seen.add(at);
      total.set(at, (total.get(at) ?? 0) + ms);
    }
  }
  const sources = new Map<string, Promise<string>>();
  const codeAt = async (name: string) => {
    const frame = frames.get(name);
    if (!frame?.url.startsWith("http")) return "";
    if (!sources.has(frame.url)) {
      sources.set(
        frame.url,
        fetch(frame.url)
          .then((response) => response.text())
          .catch(() => ""),
      );
    }
    const line = (await sources.get(frame.url)!).split("\n")[frame.lineNumber] ?? "";
    return line.slice(frame.columnNumber, frame.columnNumber + 90);
  };
  const top = async (map: Map<string, number>) =>
    Promise.all(
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, count)
        .map(async ([name, ms]) => ({ ms: round(ms), name, code: await codeAt(name) })),
    );
  return { self: await top(self), total: await top(total) };
}

async function openOnce(
  browser: Browser,
  token: string,
  treeId: string,
  { traceFile, profile = false }: { traceFile?: string; profile?: boolean } = {},
) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addInitScript((value) => window.localStorage.setItem("token", value), token);
    const page = await context.newPage();
    const cdp = profile ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    if (traceFile) {
      await browser.startTracing(page, {
        path: traceFile,
        categories: [
          "devtools.timeline",
          "disabled-by-default-devtools.timeline",
          "v8",
          "v8.execute",
          "blink.user_timing",
          "loading",
        ],
      });
    }
    await page.goto(`${baseURL}/trees/${treeId}`);
    await page.waitForFunction(
      () => performance.getEntriesByName("heirloom:tree-painted").length > 0,
      undefined,
      { timeout: 120_000, polling: 16 },
    );
    const canvas = page.locator('svg[role="application"]');
    const before = await canvas.getAttribute("data-scale");
    await canvas.focus();
    await page.keyboard.press("+");
    await page.waitForFunction(
      (scale) =>
        document.querySelector('svg[role="application"]')?.getAttribute("data-scale") !== scale,
      before,
      { polling: "raf" },
    );
    const timings = await page.evaluate(() => ({
      interactiveMs: performance.now(),
      paintedMs: performance.getEntriesByName("heirloom:tree-painted")[0]!.startTime,
      measures: performance
        .getEntriesByType("measure")
        .filter((entry) => entry.name.startsWith("heirloom:"))
        .map((entry) => ({ name: entry.name, ms: Math.round(entry.duration * 10) / 10 })),
      renderedNodes: document.querySelectorAll("[data-node-key]").length,
      apiKb: performance
        .getEntriesByType("resource")
        .filter((entry) => /\/api\/(trees|people)\b/.test(entry.name))
        .map((entry) => ({
          url: new URL(entry.name).pathname,
          kb: Math.round((entry as PerformanceResourceTiming).decodedBodySize / 1024),
          endMs: Math.round((entry as PerformanceResourceTiming).responseEnd),
        })),
    }));
    let trace: ReturnType<typeof summarizeTrace> = null;
    if (traceFile) {
      const buffer = await browser.stopTracing();
      const parsed = JSON.parse(buffer.toString("utf8")) as { traceEvents: TraceEvent[] };
      trace = summarizeTrace(parsed.traceEvents);
    }
    let functions: Awaited<ReturnType<typeof summarizeProfile>> | null = null;
    if (cdp) {
      const { profile: recorded } = await cdp.send("Profiler.stop");
      functions = await summarizeProfile(recorded, 25);
    }
    return { ...timings, trace, functions };
  } finally {
    await context.close();
  }
}

async function main() {
  const state = (await readState()) ?? { baseURL, token: await signUp(), trees: {} };
  await fs.writeFile(STATE_FILE, JSON.stringify(state));
  const browser = await launchChromium();
  const results = [];
  const traceDir = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-trace-"));
  try {
    for (const shape of SHAPES) {
      const treeId = await treeFor(state, shape);
      const traced = await openOnce(browser, state.token, treeId, {
        traceFile: path.join(traceDir, `${shape}.json`),
      });
      const profiled = await openOnce(browser, state.token, treeId, { profile: true });
      const loads = [];
      for (let i = 0; i < LOADS; i += 1) loads.push(await openOnce(browser, state.token, treeId));
      const result = {
        shape,
        loadAverage: os.loadavg().map((value) => round(value, 2)),
        paintedMs: round(median(loads.map((load) => load.paintedMs))),
        interactiveMs: round(median(loads.map((load) => load.interactiveMs))),
        interactiveSamplesMs: loads.map((load) => round(load.interactiveMs)),
        traced: { ...traced, trace: undefined, functions: undefined },
        trace: traced.trace,
        functions: profiled.functions,
      };
      console.log(JSON.stringify(result, null, 2));
      results.push(result);
    }
  } finally {
    await browser.close();
  }
  console.log(`Traces: ${traceDir} (open in chrome://tracing or the Performance panel)`);
  await fs.writeFile(
    path.join(root, "bench/results/editor-trace.json"),
    `${JSON.stringify({ date: new Date().toISOString(), viewport: VIEWPORT, results }, null, 2)}\n`,
  );
}

await main();
