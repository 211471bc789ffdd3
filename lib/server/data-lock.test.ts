// The data folder's lock file, judged in one process: who holds it, and when a holder is dead
// (tests/pglite/data-lock.test.ts starts real servers against it).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DataFolderLockedError,
  type LockHolder,
  isAlive,
  lockDataFolder,
  lockFileOf,
  readLockHolder,
  unlockDataFolder,
} from "./data-lock";

let dir: string;
beforeEach(() => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-lock-")), "pglite");
});
afterEach(() => {
  unlockDataFolder(dir);
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

const startOf = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
};
const bootId = () => fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();

/** A lock file as another process would have written it. */
function holder(overrides: Partial<LockHolder>): LockHolder {
  return {
    pid: process.ppid,
    port: 3000,
    command: "scripts/start.ts",
    startedAt: "2026-11-24T12:00:00.000Z",
    host: os.hostname(),
    bootId: bootId(),
    processStart: startOf(process.ppid),
    ...overrides,
  };
}
const writeHolder = (value: LockHolder | string) =>
  fs.writeFileSync(lockFileOf(dir), typeof value === "string" ? value : JSON.stringify(value));

/** A pid that was a process a moment ago and is none now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

describe("lockDataFolder", () => {
  it("writes a lock file beside the folder that names this process, and removes it on unlock", () => {
    lockDataFolder(dir, { port: 3421 });
    expect(lockFileOf(dir)).toBe(`${dir}.lock`);
    expect(readLockHolder(dir)).toMatchObject({ pid: process.pid, port: 3421 });
    unlockDataFolder(dir);
    expect(fs.existsSync(lockFileOf(dir))).toBe(false);
  });

  it("counts holds in one process: the file stays until the last one is given back", () => {
    lockDataFolder(dir, { port: 3421 });
    lockDataFolder(dir);
    unlockDataFolder(dir);
    expect(readLockHolder(dir)?.pid).toBe(process.pid);
    unlockDataFolder(dir);
    expect(readLockHolder(dir)).toBeNull();
  });

  it("refuses a folder a live process holds, naming its pid and port", () => {
    writeHolder(holder({}));
    let error: unknown;
    try {
      lockDataFolder(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataFolderLockedError);
    expect((error as Error).message).toContain(
      `is in use by another Heirloom process (pid ${process.ppid}, serving port 3000, since 2026-11-24T12:00:00.000Z)`,
    );
    // Refused, the file is left as it was.
    expect(readLockHolder(dir)?.pid).toBe(process.ppid);
  });

  it("names what a holder without a port runs", () => {
    writeHolder(holder({ port: null, command: "scripts/migrate.ts" }));
    expect(() => lockDataFolder(dir)).toThrow(/pid \d+, running scripts\/migrate\.ts/);
  });

  it("takes over the lock of a process that is gone (killed with SIGKILL)", () => {
    writeHolder(holder({ pid: deadPid(), processStart: "1" }));
    lockDataFolder(dir, { port: 3421 });
    expect(readLockHolder(dir)).toMatchObject({ pid: process.pid, port: 3421 });
  });

  it("takes over when the pid is alive but is another process now (pid reuse)", () => {
    const reused = holder({ processStart: String(Number(startOf(process.ppid)) + 1) });
    expect(isAlive(reused)).toBe(false);
    writeHolder(reused);
    lockDataFolder(dir);
    expect(readLockHolder(dir)?.pid).toBe(process.pid);
  });

  it("takes over a lock from before the machine restarted", () => {
    writeHolder(holder({ bootId: "00000000-0000-0000-0000-000000000000" }));
    lockDataFolder(dir);
    expect(readLockHolder(dir)?.pid).toBe(process.pid);
  });

  it("takes over a lock that names this very pid (a container restarted with the same pid)", () => {
    writeHolder(holder({ pid: process.pid, processStart: "1" }));
    lockDataFolder(dir);
    expect(readLockHolder(dir)?.processStart).toBe(startOf(process.pid));
  });

  it("treats a holder on another host as live, and says how to clear it", () => {
    writeHolder(holder({ host: "elsewhere", pid: deadPid() }));
    expect(() => lockDataFolder(dir)).toThrow(
      `It was started on the host elsewhere, so its liveness cannot be checked from here: if it is no longer running, delete ${lockFileOf(dir)}.`,
    );
  });

  it("waits for a lock file being written, then takes over one that never becomes readable", () => {
    writeHolder("{");
    const started = Date.now();
    lockDataFolder(dir);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(readLockHolder(dir)?.pid).toBe(process.pid);
  });
});

describe("the lock file's mode (#32 finding 1)", () => {
  it("is the account's only (0600), in a folder made 0700, whatever the umask", () => {
    const previous = process.umask(0o000);
    try {
      const nested = path.join(path.dirname(dir), "data", "pglite");
      lockDataFolder(nested);
      try {
        expect(fs.statSync(lockFileOf(nested)).mode & 0o777).toBe(0o600);
        expect(fs.statSync(path.dirname(nested)).mode & 0o777).toBe(0o700);
      } finally {
        unlockDataFolder(nested);
      }
    } finally {
      process.umask(previous);
    }
  });
});
