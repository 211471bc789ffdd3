// Builds the production app unless the existing build matches the sources.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { buildIsCurrent, DIST_DIR, recordBuild, sourceHash } from "./lib/build-state";

/**
 * One build of a dist directory at a time: two callers may want one at once (two test files
 * running side by side, two starts), and `next build` refuses a second while one runs. The lock
 * is a file beside the directory (a build empties the directory itself) holding its owner's pid.
 */
const LOCK = `${DIST_DIR}.build-lock`;
/** How long a caller waits for another's build before it gives up. */
const WAIT_MS = 15 * 60_000;
const POLL_MS = 500;

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Whether the lock's owner still runs (a lock of a process that died is taken over). */
function ownerRuns(): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(LOCK, "utf8"));
  } catch {
    return false;
  }
  // a lock being written has no pid yet: its owner runs
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** `work`'s answer, run while this process holds the build lock. */
export function withBuildLock<T>(work: () => T): T {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      fs.writeFileSync(LOCK, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (!ownerRuns()) {
      fs.rmSync(LOCK, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`${LOCK}: another build held it for ${WAIT_MS / 60_000} minutes`);
    }
    sleepSync(POLL_MS);
  }
  try {
    return work();
  } finally {
    fs.rmSync(LOCK, { force: true });
  }
}

export function ensureBuild(): void {
  if (buildIsCurrent()) return;
  const status = withBuildLock(() => {
    // another caller may have built it while this one waited
    if (buildIsCurrent()) return 0;
    const hash = sourceHash();
    console.log("Building Heirloom (the sources changed since the last build)…");
    const result = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (result.status !== 0) return result.status ?? 1;
    recordBuild(process.cwd(), hash);
    return 0;
  });
  if (status !== 0) process.exit(status);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuild();
