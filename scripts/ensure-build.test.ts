// The build lock (ensure-build.ts): callers that want a build at once take turns, and a lock
// whose owner died is taken over. Each caller here is a process of its own, as the test files
// and starts that build are.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "build-lock-"));
const DIST = path.join(dir, "dist");
const LOCK = `${DIST}.build-lock`;

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A process that holds the lock for `holdMs` and appends its start and end to `log`. */
function holder(log: string, holdMs: number) {
  const script = `
    import fs from "node:fs";
    const { withBuildLock } = await import(${JSON.stringify(path.join(ROOT, "scripts/ensure-build.ts"))});
    withBuildLock(() => {
      fs.appendFileSync(${JSON.stringify(log)}, "start " + Date.now() + "\\n");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${holdMs});
      fs.appendFileSync(${JSON.stringify(log)}, "end " + Date.now() + "\\n");
    });`;
  const file = path.join(dir, `holder-${Math.random().toString(36).slice(2)}.mts`);
  fs.writeFileSync(file, script);
  const child = spawn(process.execPath, [TSX, file], {
    cwd: ROOT,
    env: { ...process.env, HEIRLOOM_DIST_DIR: DIST },
    stdio: "inherit",
  });
  return new Promise<number | null>((resolve) => child.on("exit", resolve));
}

describe("the build lock", () => {
  it("lets one caller in at a time, and frees the lock when done", async () => {
    const log = path.join(dir, "turns.log");
    const codes = await Promise.all([holder(log, 700), holder(log, 700), holder(log, 700)]);
    expect(codes).toEqual([0, 0, 0]);
    const lines = fs.readFileSync(log, "utf8").trim().split("\n");
    // start, end, start, end, …: no two holders at once
    expect(lines.map((line) => line.split(" ")[0])).toEqual([
      "start",
      "end",
      "start",
      "end",
      "start",
      "end",
    ]);
    expect(fs.existsSync(LOCK)).toBe(false);
  });

  it("takes over a lock whose owner died", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid;
    fs.writeFileSync(LOCK, String(dead));
    const log = path.join(dir, "stale.log");
    expect(await holder(log, 10)).toBe(0);
    expect(fs.readFileSync(log, "utf8")).toMatch(/^start \d+\nend \d+\n$/);
    expect(fs.existsSync(LOCK)).toBe(false);
  });
});
