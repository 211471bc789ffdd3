/**
 * `npm run bench:export`: the editor's client-side image export (PNG and SVG) of synthetic
 * legacies of 1,000 and 10,000 Sims, every Sim with an avatar, timed in headless Chromium against
 * a production server. Writes bench/results/export.json.
 *
 * Each export goes through the UI (Actions → Export image → Export) and is timed in the page, from
 * the click on Export to the click on the download link: fetching the font and avatars, building
 * the SVG and, for a PNG, drawing and encoding it.
 *
 * The server: BENCH_BASE_URL if given, else the e2e server (tests/e2e/support/serve.ts) on
 * E2E_PORT if it already answers, else one started here like Playwright's webServer.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { describeChromium, ensureServer, launchChromium, NAME_SHIM } from "../support/chromium";
import type { Person } from "@/lib/schemas/person";
import { generateLegacy } from "../editor/generate";
import { call, pool, remap, setSeedBase, signUp } from "../editor/seed";

const SIZES = [1_000, 10_000];
/** Distinct avatars uploaded; a 10,000-Sim legacy reuses them (each Sim still has one). */
const DISTINCT_AVATARS = 1_000;
const VIEWPORT = { width: 1280, height: 800 };
const GOAL_MS = 5_000;

const port = Number(process.env.E2E_PORT ?? 3305);
const baseURL = process.env.BENCH_BASE_URL ?? `http://127.0.0.1:${port}`;
const root = path.resolve(import.meta.dirname, "../..");
setSeedBase(baseURL);

/** Uploads `count` distinct small portraits (each a different colour), as the client does. */
async function uploadAvatars(token: string, count: number): Promise<string[]> {
  return pool(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const background = { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 };
      const png = await sharp({ create: { width: 160, height: 160, channels: 3, background } })
        .png()
        .toBuffer();
      const { uploadURL, filename } = await call<{ uploadURL: string; filename: string }>(
        "GET",
        "/api/upload/url?type=image%2Fpng&dir=avatar",
        undefined,
        token,
      );
      const put = await fetch(new URL(uploadURL, baseURL), {
        method: "PUT",
        headers: { "content-type": "image/png" },
        body: new Uint8Array(png),
      });
      if (!put.ok) throw new Error(`upload → ${put.status} ${await put.text()}`);
      return filename;
    },
  );
}

async function seed(token: string, sims: number, avatars: string[]) {
  const legacy = generateLegacy({ sims, generations: 14, seed: sims });
  const started = performance.now();
  const tree = await call<{ _id: string; title: string }>(
    "POST",
    "/api/trees",
    { title: `Export legacy of ${sims}` },
    token,
  );
  const created = await pool(legacy.people, 12, (person, index) =>
    call<Person>(
      "POST",
      "/api/people",
      {
        tree: tree._id,
        firstName: person.firstName,
        lastName: person.lastName,
        avatar: avatars[index % avatars.length],
      },
      token,
    ),
  );
  const ids = new Map(legacy.people.map((person, index) => [person._id, created[index]!._id]));
  await call("PATCH", `/api/trees/${tree._id}`, { data: remap(legacy.data, ids) }, token);
  return { tree, seedMs: Math.round(performance.now() - started) };
}

const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Times exports in the page: Export button click → the download link's click. */
const TIMER = `(() => {
  window.__exports = [];
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest('dialog button[type="submit"]');
    if (button) window.__exportStart = performance.now();
  }, true);
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    if (this.download) window.__exports.push({ ms: performance.now() - window.__exportStart, name: this.download });
    return click.call(this);
  };
})();`;

interface ExportRun {
  format: "PNG" | "SVG";
  part: "Whole tree" | "Visible part";
  chosenScale: string;
  /**
   * "cold": the first export of this tree (the server makes the 100×100 avatar variants);
   * "first": the first export in a freshly loaded page (the variants exist); "warm": a repeat.
   */
  cache: "cold" | "first" | "warm";
  ms: number;
  /** The export's own steps (performance measures "heirloom-export:*"), in ms. */
  steps?: { embed: number; draw: number; encode: number };
  width: number;
  height: number;
  clamped: boolean;
  fileKb: number;
}

async function exportOnce(
  page: Page,
  options: Pick<ExportRun, "format" | "part" | "chosenScale" | "cache">,
): Promise<ExportRun> {
  await page.getByRole("button", { name: "Actions", exact: true }).click();
  await page.getByRole("button", { name: "Export image" }).click();
  const dialog = page.getByRole("dialog", { name: "Export image" });
  await dialog.getByRole("radio", { name: options.format }).check();
  await dialog.getByRole("radio", { name: options.part }).check();
  await dialog.getByLabel("Scale").selectOption(options.chosenScale);
  const size = (await dialog.locator("[data-export-size]").getAttribute("data-export-size"))!;
  const clamped = (await dialog.getByText(/^Made at /).count()) > 0;
  const downloading = page.waitForEvent("download", { timeout: 300_000 });
  await dialog.getByRole("button", { name: `Export ${options.format}` }).click();
  const download = await downloading;
  await dialog.waitFor({ state: "hidden" });
  const file = await fs.stat(await download.path());
  // BENCH_EXPORT_KEEP=<dir>: keeps the files, to look at.
  if (process.env.BENCH_EXPORT_KEEP) {
    const name = [options.format, options.part, options.chosenScale, options.cache].join("-");
    await download.saveAs(
      path.join(
        process.env.BENCH_EXPORT_KEEP,
        `${name.replace(/\W+/g, "-")}.${options.format.toLowerCase()}`,
      ),
    );
  }
  const timing = await page.evaluate(() => {
    const w = window as unknown as { __exports: { ms: number }[] };
    const step = (name: string) =>
      performance.getEntriesByName(`heirloom-export:${name}`, "measure").at(-1)?.duration ?? NaN;
    const steps = { embed: step("embed"), draw: step("draw"), encode: step("encode") };
    performance.clearMeasures();
    return { ...w.__exports[w.__exports.length - 1]!, steps };
  });
  const [width, height] = size.split("x").map(Number);
  return {
    ...options,
    ms: round(timing.ms),
    ...(Number.isNaN(timing.steps.embed)
      ? {}
      : {
          steps: {
            embed: round(timing.steps.embed),
            draw: round(timing.steps.draw),
            encode: round(timing.steps.encode),
          },
        }),
    width: width!,
    height: height!,
    clamped,
    fileKb: round(file.size / 1024),
  };
}

async function measure(browser: Browser, token: string, tree: { _id: string; title: string }) {
  const context = await browser.newContext({ viewport: VIEWPORT, acceptDownloads: true });
  await context.addInitScript(NAME_SHIM);
  await context.addInitScript((value) => window.localStorage.setItem("token", value), token);
  await context.addInitScript(TIMER);
  const page = await context.newPage();
  const open = async () => {
    await page.goto(`${baseURL}/trees/${tree._id}`);
    await page
      .getByRole("application", { name: `Family tree: ${tree.title}` })
      .waitFor({ timeout: 120_000 });
  };
  await open();
  const runs: ExportRun[] = [];
  type Step = Pick<ExportRun, "format" | "part" | "chosenScale" | "cache">;
  const plan: (Step | "reload")[] = [
    { format: "SVG", part: "Whole tree", chosenScale: "1", cache: "cold" },
    { format: "SVG", part: "Whole tree", chosenScale: "1", cache: "warm" },
    { format: "PNG", part: "Whole tree", chosenScale: "1", cache: "warm" },
    "reload",
    { format: "PNG", part: "Whole tree", chosenScale: "1", cache: "first" },
    "reload",
    { format: "SVG", part: "Whole tree", chosenScale: "1", cache: "first" },
    { format: "PNG", part: "Whole tree", chosenScale: "0.5", cache: "warm" },
    { format: "PNG", part: "Visible part", chosenScale: "2", cache: "warm" },
    { format: "SVG", part: "Visible part", chosenScale: "1", cache: "warm" },
  ];
  for (const step of plan) {
    if (step === "reload") {
      await open();
      continue;
    }
    try {
      const run = await exportOnce(page, step);
      console.log(`  ${JSON.stringify(run)}`);
      runs.push(run);
    } catch (error) {
      console.log(`  ${JSON.stringify(step)} failed: ${String(error).slice(0, 300)}`);
      runs.push({ ...step, ms: NaN, width: 0, height: 0, clamped: false, fileKb: 0 });
    }
  }
  await context.close();
  return runs;
}

async function main() {
  const startedAt = new Date().toISOString();
  const machine = {
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().map((cpu) => `${cpu.model} @ ${cpu.speed} MHz`),
    cpuCount: os.cpus().length,
    memoryGb: round(os.totalmem() / 2 ** 30, 1),
    loadAverageAtStart: os.loadavg().map((value) => round(value, 2)),
    node: process.version,
  };
  const server = await ensureServer({ baseURL, port, database: "heirloom_bench_export" });
  const browser = await launchChromium();
  const only = process.env.BENCH_SIZES?.split(",").map(Number) ?? SIZES;
  const results: { sims: number; seedMs: number; runs: ExportRun[] }[] = [];
  try {
    const token = await signUp();
    console.log(`Uploading ${DISTINCT_AVATARS} avatars…`);
    const avatars = await uploadAvatars(token, DISTINCT_AVATARS);
    for (const sims of only) {
      console.log(`Seeding a legacy of ${sims} Sims…`);
      const { tree, seedMs } = await seed(token, sims, avatars);
      console.log(`  seeded in ${seedMs} ms; exporting…`);
      results.push({ sims, seedMs, runs: await measure(browser, token, tree) });
    }
  } finally {
    await browser.close();
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
  }

  const wholeTree = (sims: number, format: "PNG" | "SVG", cache: ExportRun["cache"]) =>
    results
      .find((r) => r.sims === sims)
      ?.runs.find(
        (run) =>
          run.format === format &&
          run.part === "Whole tree" &&
          run.chosenScale === "1" &&
          run.cache === cache,
      );
  const goals = [1_000, 10_000].flatMap((sims) =>
    (
      [
        ["SVG", "cold"],
        ["SVG", "first"],
        ["SVG", "warm"],
        ["PNG", "first"],
        ["PNG", "warm"],
      ] as const
    ).flatMap(([format, cache]) => {
      const run = wholeTree(sims, format, cache);
      return run
        ? [
            {
              sims,
              format,
              cache,
              goalMs: GOAL_MS,
              ms: run.ms,
              met: run.ms < GOAL_MS,
              size: `${run.width}×${run.height}`,
            },
          ]
        : [];
    }),
  );
  const result = {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine,
    browser: describeChromium(),
    viewport: VIEWPORT,
    method: {
      ms: "in the page: click on Export → the download link's click (font and avatars fetched, SVG written, or PNG painted on a canvas and encoded); steps: the export's own performance measures (embed = font and avatars, draw = SVG text or canvas painting with avatar decoding, encode = PNG encoding)",
      avatars: `every Sim has an avatar; ${DISTINCT_AVATARS} distinct uploads (a 10,000-Sim legacy reuses them). From 12 distinct avatars on, all the tree's avatars come in one request (GET /api/trees/{id}/avatars, 100×100 variants, 200×200 above 2×); fewer are fetched one by one`,
      cold: "the first export of the tree. For the 1,000-Sim legacy the server makes each of the 1,000 avatars' 100×100 variant while answering; the 10,000-Sim legacy, seeded after it, reuses those avatars, so its variants already exist",
      first:
        "the first export in a freshly loaded page (nothing cached in the page; the server's variants exist)",
      png: "whole-tree PNGs are clamped to Chromium's canvas limits (32,767 px a side, 268,435,456 px)",
    },
    goals,
    results,
  };
  await fs.mkdir(path.join(root, "bench/results"), { recursive: true });
  await fs.writeFile(
    path.join(root, "bench/results/export.json"),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  console.log(JSON.stringify(goals, null, 2));
}

await main();
