/**
 * `npx tsx bench/save/time.ts`: the time of one autosave of a 10,000-Sim legacy against a running
 * production app, the whole `{data}` (what the editor sent before issue 15, and what the original
 * client still sends) against the JSON Patch the editor sends now.
 *
 * Each sample is one edit (a child added to the root) saved one way, the two ways alternating so
 * that a busy moment of this shared machine falls on both; each request carries If-Match of the
 * version the previous save answered, as the editor's do. Measured from the bench: the request
 * over loopback until its answer has been read (the server's parse, validation, the stored write
 * and the answer; loopback adds little even to 2 MB). The bytes are the request body's. Merged
 * into bench/results/save.json as `serverSave`, beside bytes.ts's figures.
 *
 * The app: BENCH_BASE_URL, else the e2e server on E2E_PORT (started here if it does not answer).
 * BENCH_SAVE_SHAPES picks the legacies (deep, wide). BENCH_TRACE_STATE, the file where
 * bench:editor:trace keeps the trees it seeded on that app, saves seeding them again.
 */
import fs from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { structurePatch } from "@/components/tree-editor/tree-saver";
import { JSON_PATCH_TYPE, type TreeNode } from "@/lib/schemas/tree";
import { addChild } from "@/lib/tree/reducers";
import { generateLegacy, generateWideLegacy, legacyStats } from "../editor/generate";
import { call, ensureServer, seed, setSeedBase, signUp } from "../editor/seed";
import { median, positiveInt, round } from "../editor/stats";

const port = Number(process.env.E2E_PORT ?? 3304);
const baseURL = process.env.BENCH_BASE_URL ?? `http://127.0.0.1:${port}`;
const RUNS = positiveInt(process.env.BENCH_SAVE_RUNS, 9, "BENCH_SAVE_RUNS");
const SIMS = 10_000;
const RESULTS = "bench/results/save.json";
const SHAPES = (process.env.BENCH_SAVE_SHAPES ?? "deep,wide")
  .split(",")
  .map((shape) => shape.trim()) as ("deep" | "wide")[];
setSeedBase(baseURL);

interface Sample {
  bytes: number;
  /** Working the body out in the bench (Node): structurePatch for a patch, else stringify. */
  clientMs: number;
  requestMs: number;
}

async function save(
  token: string,
  treeId: string,
  version: number,
  contentType: string,
  body: string,
): Promise<{ version: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${baseURL}/api/trees/${treeId}`, {
    method: "PATCH",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": contentType,
      "if-match": `"${version}"`,
    },
    body,
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`PATCH → ${response.status} ${text.slice(0, 300)}`);
  return { version: (JSON.parse(text) as { version: number }).version, ms };
}

function summary(samples: Sample[]) {
  return {
    bytes: samples[0]!.bytes,
    requestMsMedian: round(median(samples.map((s) => s.requestMs))),
    requestSamplesMs: samples.map((s) => round(s.requestMs)),
    clientMsMedian: round(median(samples.map((s) => s.clientMs))),
  };
}

/** The trees bench:editor:trace seeded on this app, if BENCH_TRACE_STATE names its file. */
function tracedTrees(): { token: string; trees: Record<string, string> } | null {
  const file = process.env.BENCH_TRACE_STATE;
  if (!file || !fs.existsSync(file)) return null;
  const state = JSON.parse(fs.readFileSync(file, "utf8")) as {
    baseURL: string;
    token: string;
    trees: Record<string, string>;
  };
  return state.baseURL === baseURL ? state : null;
}

async function treeOf(shape: "deep" | "wide"): Promise<{ token: string; treeId: string }> {
  const traced = tracedTrees();
  const treeId = traced?.trees[shape];
  if (traced && treeId) return { token: traced.token, treeId };
  const token = await signUp();
  const legacy =
    shape === "wide"
      ? generateWideLegacy({ sims: SIMS })
      : generateLegacy({ sims: SIMS, generations: 14, seed: SIMS });
  console.log(`Seeding the ${shape} legacy of ${SIMS} Sims…`);
  return { token, treeId: (await seed(token, legacy, `Save bench ${shape} ${SIMS}`)).treeId };
}

async function measureShape(shape: "deep" | "wide") {
  const { token, treeId } = await treeOf(shape);
  // GET's form: names in every reference (issue 13), as the editor holds the tree.
  const read = await call<{ data: TreeNode; version: number }>(
    "GET",
    `/api/trees/${treeId}`,
    undefined,
    token,
  );
  let data = read.data;
  let version = read.version;
  const whole: Sample[] = [];
  const patch: Sample[] = [];
  for (let run = 0; run < 2 * RUNS; run += 1) {
    const next = addChild(data, []);
    const asPatch = run % 2 === 1;
    const started = performance.now();
    let body: string;
    if (asPatch) {
      const operations = structurePatch(data, next);
      if (!operations) throw new Error("The editor would have sent the whole body");
      body = JSON.stringify(operations);
    } else {
      body = JSON.stringify({ data: next });
    }
    const clientMs = performance.now() - started;
    const saved = await save(
      token,
      treeId,
      version,
      asPatch ? JSON_PATCH_TYPE : "application/json",
      body,
    );
    (asPatch ? patch : whole).push({
      bytes: Buffer.byteLength(body),
      clientMs,
      requestMs: saved.ms,
    });
    version = saved.version;
    data = next;
  }
  const before = summary(whole);
  const after = summary(patch);
  return {
    shape,
    sims: SIMS,
    nodes: legacyStats(read.data).nodes,
    edit: "add a child to the root",
    wholeBody: before,
    jsonPatch: after,
    ratio: {
      bytes: round(before.bytes / after.bytes),
      requestMs: round(before.requestMsMedian / after.requestMsMedian, 2),
    },
  };
}

async function main() {
  const loadAtStart = os.loadavg().map((value) => round(value, 2));
  const server = await ensureServer(baseURL, port, "heirloom_bench_save");
  try {
    const shapes = [];
    for (const shape of SHAPES) {
      const result = await measureShape(shape);
      console.log(JSON.stringify(result, null, 2));
      shapes.push(result);
    }
    const existing = fs.existsSync(RESULTS)
      ? (JSON.parse(fs.readFileSync(RESULTS, "utf8")) as Record<string, unknown>)
      : {};
    existing.serverSave = {
      date: new Date().toISOString(),
      runs: RUNS,
      machine: {
        cpus: os.cpus().length,
        loadAverageAtStart: loadAtStart,
        loadAverageAtEnd: os.loadavg().map((value) => round(value, 2)),
      },
      method:
        "one production app (PostgreSQL); per legacy, 2×runs saves alternating whole {data} (GET's form, names in references, as the editor sent it before) and the JSON Patch (application/json-patch+json) the editor sends now, each adding a child to the root with If-Match of the previous save's version; requestMs: fetch over loopback until the answer is read (median, samples in order); clientMs: working the body out in Node (structurePatch as the editor does now, or stringify); bytes: the request body",
      shapes,
    };
    fs.writeFileSync(RESULTS, `${JSON.stringify(existing, null, 2)}\n`);
  } finally {
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
  }
}

await main();
