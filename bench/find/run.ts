/**
 * `npx tsx bench/find/run.ts`: Find a Sim at 10,000 Sims (issue 26). A wide 10,000-Sim legacy is
 * seeded through the API of a production server and opened in the editor in headless Chromium.
 *
 * - keystroke to options: from a key's event time in the Find field to the next frame after the
 *   options for the typed text are in the DOM (the `heirloom:find-options` mark); goal < 50 ms.
 *   The floor, in the same page and run: the same keys typed into a bare <input> with no
 *   handler, to the next frame (what the browser itself takes).
 * - Enter to centred: from Enter's event time to the frame the found Sim is centred
 *   (`heirloom:find-centred`), with the centring animated (450 ms by design) and with reduced
 *   motion; goals: animation + 100 ms, and < 100 ms with reduced motion. The floor, in the same
 *   page and run: a copy of the canvas's drawing glided one screen in the same 450 ms without
 *   the app (animationFloor).
 *
 * Each of BENCH_FIND_RUNS runs (3 by default) opens the legacy afresh in a new browser context, in
 * both motion modes, and looks for BENCH_FIND_ROUNDS Sims; the results give each run's medians and
 * the median of those. The frames drawn between Enter and the centred mark are recorded too
 * (their count and longest gap), to tell the animation's own cost from the machine's load.
 *
 * The server: BENCH_BASE_URL if given, else the e2e server on E2E_PORT if it answers, else one
 * started like Playwright's webServer. Writes bench/results/find.json.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { describeChromium, launchChromium, NAME_SHIM } from "../support/chromium";
import { generateWideLegacy } from "../editor/generate";
import { ensureServer, seed, setSeedBase, signUp } from "../editor/seed";
import { median, percentile, positiveInt, round } from "../editor/stats";

const SIMS = positiveInt(process.env.BENCH_FIND_SIMS, 10_000, "BENCH_FIND_SIMS");
const ROUNDS = positiveInt(process.env.BENCH_FIND_ROUNDS, 5, "BENCH_FIND_ROUNDS");
const RUNS = positiveInt(process.env.BENCH_FIND_RUNS, 3, "BENCH_FIND_RUNS");
const KEYSTROKE_GOAL_MS = 50;
const ANIMATION_MS = 450;
const CENTRED_GOAL_MS = ANIMATION_MS + 100;
const CENTRED_REDUCED_GOAL_MS = 100;
const VIEWPORT = { width: 1440, height: 900 };

/**
 * Installs the listeners that time each key press to the frame after its mark. performance.mark
 * is wrapped, so the next frame is asked for in the same task as the mark (a PerformanceObserver
 * is told later, in a task of its own, which would add up to a frame to every sample).
 */
async function installTimers(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as {
      __find: { key: number; mark: string; samples: number[] }[];
      __keyAt: number;
      __frames: number[];
      __recording: boolean;
    };
    w.__find = [];
    w.__frames = [];
    w.__recording = false;
    document.addEventListener(
      "keydown",
      (event) => {
        w.__keyAt = event.timeStamp;
        if (event.key !== "Enter" || w.__recording) return;
        // the gaps between frames from Enter to the centred mark
        w.__recording = true;
        let last = event.timeStamp;
        requestAnimationFrame(function tick(now) {
          if (!w.__recording) return;
          w.__frames.push(now - last);
          last = now;
          requestAnimationFrame(tick);
        });
      },
      { capture: true },
    );
    const mark = performance.mark.bind(performance);
    performance.mark = (name: string, options?: PerformanceMarkOptions) => {
      const entry = mark(name, options);
      if (name === "heirloom:find-centred") w.__recording = false;
      if (name.startsWith("heirloom:find-")) {
        const keyAt = w.__keyAt;
        requestAnimationFrame(() => {
          w.__find.push({ key: keyAt, mark: name, samples: [performance.now() - keyAt] });
        });
      }
      return entry;
    };
  });
}

async function takeSamples(page: Page, mark: string): Promise<number[]> {
  return page.evaluate((name) => {
    const w = window as unknown as { __find: { mark: string; samples: number[] }[] };
    const found = w.__find.filter((entry) => entry.mark === name).flatMap((e) => e.samples);
    w.__find = [];
    return found;
  }, mark);
}

/** The gaps between the frames drawn while the last found Sim was being centred. */
async function takeFrames(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __frames: number[] };
    const frames = w.__frames;
    w.__frames = [];
    return frames;
  });
}

/**
 * The floor of a centring, in the same page: a copy of the canvas's drawing laid over it and
 * glided one screen sideways in ANIMATION_MS by rewriting its transform at each frame, with no
 * React, then the two frames the app takes after its last step (its state update, then the
 * centred mark), timed from the glide's start: what this browser on this machine takes to
 * animate that drawing at all.
 */
async function animationFloor(page: Page, duration: number): Promise<number> {
  return page.evaluate(
    (ms) =>
      new Promise<number>((resolve) => {
        const svg = document.querySelector<SVGSVGElement>('svg[role="application"]')!;
        const box = svg.getBoundingClientRect();
        const copy = svg.cloneNode(true) as SVGSVGElement;
        copy.removeAttribute("role");
        const layer = document.createElement("div");
        layer.style.cssText = `position:fixed;left:${box.left}px;top:${box.top}px;z-index:99;background:#fff`;
        layer.append(copy);
        document.body.append(layer);
        const group = copy.querySelector(":scope > g")!;
        const base = group.getAttribute("transform") ?? "";
        const start = performance.now();
        requestAnimationFrame(function step(now) {
          const t = Math.min(1, (now - start) / ms);
          group.setAttribute("transform", `translate(${-t * box.width},0) ${base}`);
          if (t < 1) return requestAnimationFrame(step);
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              resolve(performance.now() - start);
              layer.remove();
            }),
          );
        });
      }),
    duration,
  );
}

/** A bare input's key-to-next-frame time: the floor of any field. */
async function floorSamples(page: Page, text: string): Promise<number[]> {
  await page.evaluate(() => {
    const input = document.createElement("input");
    input.id = "bench-floor";
    input.style.cssText = "position:fixed;left:0;bottom:0;z-index:99";
    document.body.append(input);
    const w = window as unknown as { __floor: number[] };
    w.__floor = [];
    input.addEventListener("keydown", (event) => {
      const at = event.timeStamp;
      requestAnimationFrame(() => w.__floor.push(performance.now() - at));
    });
  });
  await page.locator("#bench-floor").focus();
  for (const char of text) {
    await page.keyboard.press(char);
    await page.waitForTimeout(60);
  }
  const samples = await page.evaluate(() => (window as unknown as { __floor: number[] }).__floor);
  await page.evaluate(() => document.getElementById("bench-floor")?.remove());
  return samples;
}

function summary(samples: number[]) {
  return {
    samples: samples.length,
    medianMs: round(median(samples), 1),
    p95Ms: round(percentile(samples, 95), 1),
    maxMs: round(Math.max(...samples), 1),
  };
}

/** One run in one motion mode: a fresh context opens the legacy and finds each of `names`. */
async function measure(
  browser: Browser,
  baseURL: string,
  token: string,
  treeId: string,
  names: string[],
  motion: "no-preference" | "reduce",
) {
  const context = await browser.newContext({ viewport: VIEWPORT, reducedMotion: motion });
  await context.addInitScript(NAME_SHIM);
  await context.addInitScript((value) => localStorage.setItem("token", value), token);
  const page = await context.newPage();
  await page.goto(`${baseURL}/trees/${treeId}`);
  await page.getByRole("application", { name: /Family tree/ }).waitFor();
  await installTimers(page);
  const field = page.getByRole("combobox", { name: "Find a Sim" });
  const keystrokes: number[] = [];
  const centred: number[] = [];
  const frames: number[][] = [];
  for (const name of names) {
    await field.focus();
    for (const char of name.slice(0, 4)) {
      await page.keyboard.press(char);
      await page.waitForTimeout(80);
    }
    keystrokes.push(...(await takeSamples(page, "heirloom:find-options")));
    await page.getByRole("option").first().waitFor();
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      () =>
        (window as unknown as { __find: { mark: string }[] }).__find.some(
          (e) => e.mark === "heirloom:find-centred",
        ),
      undefined,
      { timeout: 10_000 },
    );
    centred.push(...(await takeSamples(page, "heirloom:find-centred")));
    frames.push(await takeFrames(page));
    await page.keyboard.press("Escape");
  }
  const floor = await floorSamples(page, names.join("").slice(0, 20));
  const glideFloor: number[] = [];
  if (motion === "no-preference") {
    for (let i = 0; i < names.length; i += 1) {
      glideFloor.push(await animationFloor(page, ANIMATION_MS));
      await page.waitForTimeout(100);
    }
  }
  await context.close();
  return { keystrokes, floor, centred, frames, glideFloor };
}

async function main() {
  const port = Number(process.env.E2E_PORT ?? 3270);
  const baseURL = process.env.BENCH_BASE_URL ?? `http://127.0.0.1:${port}`;
  const server = await ensureServer(baseURL, port, "heirloom_bench_find");
  setSeedBase(baseURL);
  const loadAverageAtStart = os.loadavg().map((v) => round(v, 2));
  try {
    const token = await signUp();
    const legacy = generateWideLegacy({ sims: SIMS });
    const seeded = await seed(token, legacy, `Find bench ${SIMS}`);
    // the Sims to look for: spread through the legacy, the last ones deep and far off-screen
    const names = legacy.people
      .filter((_, index) => index % Math.floor(SIMS / ROUNDS) === ROUNDS)
      .slice(0, ROUNDS)
      .map((person) => person.firstName.toLowerCase());

    const browser = await launchChromium();
    type Measured = {
      keystrokes: number[];
      floor: number[];
      centred: number[];
      frames: number[][];
      glideFloor: number[];
    };
    const runs: Record<"animated" | "reducedMotion", Measured[]> = { animated: [], reducedMotion: [] };
    for (let run = 0; run < RUNS; run += 1) {
      for (const motion of ["no-preference", "reduce"] as const) {
        runs[motion === "reduce" ? "reducedMotion" : "animated"].push(
          await measure(browser, baseURL, token, seeded.treeId, names, motion),
        );
      }
    }
    await browser.close();
    const report = (measured: Measured[], centredGoal: number) => {
      const perRun = measured.map((m) => ({
        keystrokeToOptions: summary(m.keystrokes),
        bareInputFloor: summary(m.floor),
        enterToCentred: summary(m.centred),
        ...(m.glideFloor.length > 0 ? { bareGlideFloor: summary(m.glideFloor) } : {}),
        framesWhileCentring: {
          medianCount: median(m.frames.map((f) => f.length)),
          medianGapMs: round(median(m.frames.flat()), 1),
          longestGapMs: round(Math.max(...m.frames.flat()), 1),
        },
      }));
      const medianOf = (pick: (run: (typeof perRun)[number]) => number) =>
        round(median(perRun.map(pick)), 1);
      return {
        keystrokeToOptions: {
          medianOfRunMediansMs: medianOf((r) => r.keystrokeToOptions.medianMs),
          medianOfRunP95sMs: medianOf((r) => r.keystrokeToOptions.p95Ms),
          goalMs: KEYSTROKE_GOAL_MS,
        },
        bareInputFloor: { medianOfRunMediansMs: medianOf((r) => r.bareInputFloor.medianMs) },
        enterToCentred: {
          medianOfRunMediansMs: medianOf((r) => r.enterToCentred.medianMs),
          goalMs: centredGoal,
        },
        ...(measured.some((m) => m.glideFloor.length > 0)
          ? {
              bareGlideFloor: {
                medianOfRunMediansMs: medianOf((r) => r.bareGlideFloor?.medianMs ?? NaN),
              },
            }
          : {}),
        runs: perRun,
      };
    };
    const results = {
      animated: { animationMs: ANIMATION_MS, ...report(runs.animated, CENTRED_GOAL_MS) },
      reducedMotion: report(runs.reducedMotion, CENTRED_REDUCED_GOAL_MS),
    };
    const out = {
      bench: "find a Sim (issue 26)",
      sims: SIMS,
      nodes: seeded.stats?.nodes,
      queries: names,
      browser: describeChromium(),
      viewport: VIEWPORT,
      runs: RUNS,
      machine: {
        cpus: os.cpus().length,
        loadAverageAtStart,
        loadAverageAtEnd: os.loadavg().map((v) => round(v, 2)),
      },
      ...results,
    };
    await fs.mkdir("bench/results", { recursive: true });
    await fs.writeFile(
      path.join("bench/results", "find.json"),
      `${JSON.stringify(out, null, 2)}\n`,
    );
    console.log(JSON.stringify(out, null, 2));
  } finally {
    if (server?.pid) process.kill(-server.pid);
  }
}

await main();
