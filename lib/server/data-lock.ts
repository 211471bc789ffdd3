// The embedded database's folder may be opened by one process at a time: PGlite has no lock of
// its own, and two processes writing one folder destroy it (SECURITY.md, #12 finding 2; ADR 013).
// A lock file beside the folder names the holder; a second process reads it and refuses to start.
// Loaded by the scripts (outside Next's bundle) as well as by lib/server/db.ts, so it has no
// "server-only" import and keeps its state in front/process-singletons.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { processSingleton, setProcessSingleton } from "./front/process-singletons";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./private-files";

/** What the lock file says about the process holding the folder. */
export interface LockHolder {
  pid: number;
  /** The port it serves, when it is a server. */
  port: number | null;
  /** What it runs, e.g. "scripts/start.ts". */
  command: string;
  startedAt: string;
  host: string;
  /** Linux: the kernel's boot id and the process's start time in clock ticks since boot. */
  bootId: string | null;
  processStart: string | null;
}

export class DataFolderLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly lockFile: string,
    readonly holder: LockHolder,
  ) {
    const what = holder.port === null ? `running ${holder.command}` : `serving port ${holder.port}`;
    const elsewhere =
      holder.host === os.hostname()
        ? ""
        : ` It was started on the host ${holder.host}, so its liveness cannot be checked from here: if it is no longer running, delete ${lockFile}.`;
    super(
      `The embedded database in ${dir} is in use by another Heirloom process (pid ${holder.pid}, ${what}, since ${holder.startedAt}). ` +
        `Two processes writing one database folder destroy it, so this one will not open it. ` +
        `Stop the other process first, or give this one its own DATA_DIR (or a DATABASE_URL).${elsewhere}`,
    );
    this.name = "DataFolderLockedError";
  }
}

function heldLocks() {
  let locks = processSingleton("__heirloomDataLocks");
  if (!locks) {
    const held = setProcessSingleton("__heirloomDataLocks", new Map())!;
    locks = held;
    // Runs on a normal exit, process.exit and after SIGINT/SIGTERM handlers exit; a SIGKILL
    // leaves the file behind, and the next start finds its holder dead (isAlive).
    process.on("exit", () => {
      for (const [file, lock] of held) removeIfOurs(file, lock.content);
    });
  }
  return locks;
}

/** The lock file of a database folder: beside it, so PGlite never sees it. */
export function lockFileOf(dir: string): string {
  const resolved = path.resolve(dir);
  return `${resolved}.lock`;
}

function readProc(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
function processStartOf(pid: number): string | null {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[19] ?? null;
}

const bootId = () => readProc("/proc/sys/kernel/random/boot_id")?.trim() || null;

function describeSelf(port: number | null): LockHolder {
  const script = process.argv[1] ? path.relative(process.cwd(), process.argv[1]) : "node";
  return {
    pid: process.pid,
    port,
    command: script.includes("next") ? "next" : script,
    startedAt: new Date().toISOString(),
    host: os.hostname(),
    bootId: bootId(),
    processStart: processStartOf(process.pid),
  };
}

/**
 * Whether the holder may still be running. A pid alone is not enough: after a SIGKILL the pid can
 * be reused by any process, so on Linux the process's start time (and the boot it belongs to)
 * must match too. A holder on another host (a shared volume) cannot be checked and counts as live.
 */
export function isAlive(holder: LockHolder): boolean {
  if (holder.host !== os.hostname()) return true;
  const boot = bootId();
  if (holder.bootId && boot && holder.bootId !== boot) return false;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  if (holder.processStart === null) return true;
  const start = processStartOf(holder.pid);
  return start === null || start === holder.processStart;
}

function parseHolder(content: string): LockHolder | null {
  try {
    const value = JSON.parse(content) as Partial<LockHolder>;
    return typeof value.pid === "number" && typeof value.host === "string"
      ? (value as LockHolder)
      : null;
  } catch {
    return null;
  }
}

function removeIfOurs(file: string, content: string): void {
  try {
    if (fs.readFileSync(file, "utf8") === content) fs.unlinkSync(file);
  } catch {
    // gone already
  }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Takes the folder's lock for this process, or throws DataFolderLockedError naming the live
 * holder. Synchronous, so that lib/server/db.ts can take it right before opening PGlite. Taking it
 * again in the same process only counts the hold; a lock left by a dead process is taken over.
 */
export function lockDataFolder(dir: string, options: { port?: number | null } = {}): void {
  const file = lockFileOf(dir);
  const locks = heldLocks();
  const held = locks.get(file);
  if (held) {
    held.holds += 1;
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const content = JSON.stringify(describeSelf(options.port ?? null));
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      // "wx": created only if absent, atomically, so two starts cannot both create it.
      fs.writeFileSync(file, content, { flag: "wx", mode: PRIVATE_FILE_MODE });
      locks.set(file, { holds: 1, content });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const found = readProc(file);
    if (found === null) continue; // removed meanwhile: try again
    const holder = parseHolder(found);
    if (holder === null) {
      // Being written by a process that has just created it; wait for it (at most a second).
      if (attempt < 10) {
        pause(100);
        continue;
      }
    } else if (isAlive(holder)) {
      throw new DataFolderLockedError(path.resolve(dir), file, holder);
    }
    takeOver(file, found);
  }
  throw new Error(`Could not take the lock ${file}: other processes kept changing it`);
}

/**
 * Removes a dead holder's lock file without removing a live one that replaced it meanwhile: the
 * file is renamed away (atomic), checked to be the one judged dead, and put back if it is not.
 */
function takeOver(file: string, dead: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return; // someone else took it over first
  }
  if (readProc(aside) === dead) {
    fs.rmSync(aside, { force: true });
    return;
  }
  try {
    fs.linkSync(aside, file); // fails if yet another process holds it now
  } catch {
    // the next attempt reads whoever holds it
  }
  fs.rmSync(aside, { force: true });
}

/** Gives back one hold of the folder's lock; the file goes with the last one. */
export function unlockDataFolder(dir: string): void {
  const file = lockFileOf(dir);
  const locks = heldLocks();
  const held = locks.get(file);
  if (!held) return;
  held.holds -= 1;
  if (held.holds > 0) return;
  locks.delete(file);
  removeIfOurs(file, held.content);
}

/** The holder named in the folder's lock file, if any (for messages and tests). */
export function readLockHolder(dir: string): LockHolder | null {
  const content = readProc(lockFileOf(dir));
  return content === null ? null : parseHolder(content);
}
