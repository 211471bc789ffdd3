// Real production servers for the reliability tests: `scripts/start.ts` in its own process group
// (so that SIGKILL reaches the node process tsx starts), on its own port and database.
import { setTimeout as sleep } from "node:timers/promises";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { sourceHash } from "../../../scripts/lib/build-state";
import { startArgs } from "../../../scripts/lib/start-command";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
/** The build these tests serve; its own directory so that it never collides with other runs. */
export const DIST_DIR = process.env.HEIRLOOM_DIST_DIR || ".next";
export const POSTGRES_URL =
  process.env.RELIABILITY_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432";
export const JWT_SECRET = "reliability-secret-that-is-at-least-32-characters";
const READY_TIMEOUT_MS = 180_000;

/**
 * Builds the production app unless the build in DIST_DIR matches the sources already.
 * RELIABILITY_REUSE_BUILD=1 serves an existing build as it is, even if the sources changed since
 * (for local runs while others' unfinished work breaks the build; never set it in CI).
 */
export function ensureBuild(): void {
  if (reuseBuild()) return;
  const result = spawnSync(process.execPath, [TSX, "scripts/ensure-build.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", HEIRLOOM_DIST_DIR: DIST_DIR },
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(`the production build failed:\n${result.stdout}\n${result.stderr}`);
  }
}

function reuseBuild(): boolean {
  const dist = path.join(ROOT, DIST_DIR);
  if (process.env.RELIABILITY_REUSE_BUILD !== "1" || !fs.existsSync(path.join(dist, "BUILD_ID"))) {
    return false;
  }
  // scripts/start.ts builds when the recorded hash differs: record the current one
  fs.writeFileSync(path.join(dist, "heirloom-source-hash"), sourceHash(ROOT));
  return true;
}

async function asAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${POSTGRES_URL}/postgres` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty PostgreSQL database (the server's migrations create the schema). */
export async function createDatabase(name: string): Promise<string> {
  await asAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  return `${POSTGRES_URL}/${name}`;
}

export async function dropDatabase(name: string): Promise<void> {
  await asAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

const tempDirs: string[] = [];

/** A temporary directory for a server's DATA_DIR and logs (see removeTempDirs). */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `heirloom-${prefix}-`));
  tempDirs.push(dir);
  return dir;
}

/** Removes the temporary directories; RELIABILITY_KEEP_DIRS=1 keeps them (logs, data). */
export function removeTempDirs(): void {
  if (process.env.RELIABILITY_KEEP_DIRS === "1") return;
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A port unlikely to collide with the other test runs on this machine. */
export function pickPort(base: number): number {
  return base + (process.pid % 200);
}

export interface ServerOptions {
  port: number;
  /** PostgreSQL; without it the server uses embedded PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** Variables set last, over the defaults below (e.g. TRUST_PROXY, lower sign-up limits). */
  env?: Record<string, string>;
}

/** One production server process (restartable: `start` after `kill` serves the same data). */
export class AppServer {
  readonly url: string;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private readonly logFile: string;
  private starts = 0;

  constructor(private readonly options: ServerOptions) {
    this.url = `http://127.0.0.1:${options.port}`;
    this.logFile = path.join(options.dataDir, "server.log");
  }

  /** The pid of the process group leader (tsx); the group holds the node server too. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return (
      this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null
    );
  }

  /** Starts the server and waits until GET /api/health answers 200; answers the ms it took. */
  async start(): Promise<number> {
    if (this.running) throw new Error("the server is running already");
    this.starts += 1;
    fs.appendFileSync(this.logFile, `\n=== start ${this.starts} at ${new Date().toISOString()}\n`);
    reuseBuild();
    const log = fs.openSync(this.logFile, "a");
    const started = performance.now();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      HEIRLOOM_DIST_DIR: DIST_DIR,
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(this.options.port),
      APP_URL: this.url,
      SIGNUPS_PER_ADDRESS_HOUR: "100000",
      SIGNUPS_PER_ADDRESS_DAY: "100000", // all from 127.0.0.1
      // The suites import large files over and over on purpose: not the player's hourly budget.
      IMPORT_WORKER_SECONDS_HOUR: "1000000",
      DATA_DIR: this.options.dataDir,
      DATABASE_URL: this.options.databaseUrl ?? "",
      JWT_SECRET,
      REDIS_URL: "",
      SMTP_URL: "",
      LOG_LEVEL: "warn",
      ...this.options.env,
    };
    // what `npm start` runs, its Node flags included
    const child = spawn(process.execPath, [TSX, ...startArgs(ROOT)], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ["ignore", log, log],
    });
    fs.closeSync(log);
    this.child = child;
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (!this.running) {
        throw new Error(`the server exited while starting:\n${this.logTail()}`);
      }
      const ok = await fetch(`${this.url}/api/health`, { signal: AbortSignal.timeout(5_000) }).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) return performance.now() - started;
      if (Date.now() > deadline) {
        throw new Error(`the server did not become healthy:\n${this.logTail()}`);
      }
      await sleep(100);
    }
  }

  /** Sends `signal` to the whole process group and waits until the server process is gone. */
  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const child = this.child;
    if (!child?.pid || !this.running) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is gone already
    }
    await this.exited;
    // tsx's child (the server itself) is in the same group; wait until none is left
    for (let i = 0; i < 100 && groupAlive(child.pid); i++) await sleep(50);
  }

  /** Stops the server (SIGTERM, then SIGKILL if it lingers). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    if (this.running) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // gone already
      }
      await Promise.race([this.exited, sleep(10_000)]);
    }
    if (groupAlive(child.pid)) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // gone already
      }
      await this.exited;
    }
  }

  /** The end of the server's output, for failure messages. */
  logTail(chars = 4_000): string {
    try {
      return fs.readFileSync(this.logFile, "utf8").slice(-chars);
    } catch {
      return "(no log)";
    }
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
