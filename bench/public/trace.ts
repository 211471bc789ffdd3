/**
 * Where the time goes until the Sims are on screen, on one page of a running app: a CPU profile
 * (CDP) of a cold load in the bench's Chromium, its self time summed by script and by function,
 * beside the page's resource timings and performance marks.
 *
 *   npx tsx bench/public/trace.ts http://127.0.0.1:3340/public/{treeId} [profile.cpuprofile]
 */
import fs from "node:fs/promises";
import { launchChromium } from "../support/chromium";

const url = process.argv[2];
if (!url) throw new Error("usage: trace.ts URL [profile.cpuprofile]");
const out = process.argv[3];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}

const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  await page.goto(url);
  await page.waitForFunction(
    () => performance.getEntriesByName("heirloom:tree-painted").length > 0,
    null,
    { timeout: 60_000 },
  );
  const { profile } = (await cdp.send("Profiler.stop")) as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  if (out) await fs.writeFile(out, JSON.stringify(profile));
  const timeline = await page.evaluate(() => ({
    marks: performance
      .getEntriesByType("mark")
      .map((mark) => [mark.name, Math.round(mark.startTime)] as const),
    paints: performance
      .getEntriesByType("paint")
      .map((paint) => [paint.name, Math.round(paint.startTime)] as const),
    resources: performance.getEntriesByType("resource").map((entry) => {
      const resource = entry as PerformanceResourceTiming;
      return [
        resource.name.replace(location.origin, ""),
        Math.round(resource.startTime),
        Math.round(resource.responseEnd),
        resource.encodedBodySize,
      ] as const;
    }),
    navigation: (() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return {
        responseStart: Math.round(nav.responseStart),
        domInteractive: Math.round(nav.domInteractive),
        domContentLoaded: Math.round(nav.domContentLoadedEventEnd),
        load: Math.round(nav.loadEventEnd),
      };
    })(),
  }));
  console.log(JSON.stringify(timeline, null, 1));

  // Self time per sample: the time delta before each sample belongs to the node sampled.
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    if (!node) return;
    const { url: script, functionName, lineNumber, columnNumber } = node.callFrame;
    const name = script.replace(/^.*\//, "") || "(native)";
    byScript.set(name, (byScript.get(name) ?? 0) + ms);
    const key = `${functionName || "(anonymous)"} ${name}:${lineNumber + 1}:${columnNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
  });
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, ms]) => `${ms.toFixed(0).padStart(6)} ms  ${key}`)
      .join("\n");
  console.log(`Self time by script:\n${top(byScript, 15)}\n\nBy function:\n${top(byFunction, 40)}`);
} finally {
  await browser.close();
}
