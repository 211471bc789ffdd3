// Keeps the generated Prisma client (lib/generated/prisma) in step with prisma/schema.prisma.
// `npm install` generates it, but after a `git pull` that changes the schema only `npm start`
// (or `npm run dev`, db:migrate) runs: the migrations added a column and the old client did not
// know it (#32 finding 11). A stamp beside the generated client records what it was generated
// from (the schema and the Prisma versions); a start that finds another stamp generates again.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const SCHEMA_FILE = "prisma/schema.prisma";
export const CLIENT_DIR = "lib/generated/prisma";
/** The stamp, beside the client (the folder is not in git). */
export const STAMP_FILE = `${CLIENT_DIR}/.schema-stamp`;
/** A file every generated client has. */
const CLIENT_ENTRY = `${CLIENT_DIR}/client.ts`;
const LOCK_FILE = "lib/generated/.generate-lock";

const versionOf = (root: string, pkg: string): string => {
  try {
    const file = path.join(root, "node_modules", pkg, "package.json");
    return (JSON.parse(fs.readFileSync(file, "utf8")) as { version?: string }).version ?? "";
  } catch {
    return "";
  }
};

/** What the client in `root` must be generated from: the schema and the Prisma versions. */
export function clientStamp(root: string): string {
  const hash = createHash("sha256");
  hash.update(fs.readFileSync(path.join(root, SCHEMA_FILE)));
  hash.update(`\0prisma ${versionOf(root, "prisma")}\0client ${versionOf(root, "@prisma/client")}`);
  return hash.digest("hex");
}

const readOrNull = (file: string): string | null => {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
};

/** Why the client in `root` must be generated again, or null when it is current. */
export function staleReason(root: string): string | null {
  if (!fs.existsSync(path.join(root, CLIENT_ENTRY))) return "there is no generated client yet";
  const stored = readOrNull(path.join(root, STAMP_FILE));
  if (stored === null) return "the generated client does not say which schema it was made from";
  if (stored !== clientStamp(root)) return "prisma/schema.prisma changed since it was generated";
  return null;
}

/** Runs `prisma generate` (scripts/prisma.mjs) in `root`; throws when it fails. */
export function runPrismaGenerate(root: string): void {
  const result = spawnSync(process.execPath, [path.join(root, "scripts/prisma.mjs"), "generate"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.status !== 0) {
    throw new Error(
      `prisma generate failed (exit ${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`,
    );
  }
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function lockOwnerRuns(file: string): boolean {
  const pid = Number(readOrNull(file));
  if (!Number.isInteger(pid) || pid <= 0) return true; // being written
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` holding the generate lock (one generate at a time in a checkout). */
function withGenerateLock<T>(root: string, work: () => T): T {
  const lock = path.join(root, LOCK_FILE);
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (!lockOwnerRuns(lock)) {
      fs.rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${lock} is held by a process that does not end`);
    sleepSync(200);
  }
  try {
    return work();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/** Generates the client and records its stamp. */
export function generateClient(root: string, generate = runPrismaGenerate): void {
  withGenerateLock(root, () => {
    const stamp = clientStamp(root);
    generate(root);
    fs.writeFileSync(path.join(root, STAMP_FILE), `${stamp}\n`);
  });
}

/**
 * Generates the client when it is not the schema's (staleReason), and answers why it did, or null
 * when it was current. A second process that finds a generate running waits for it, then checks
 * again, so that one generate serves both.
 */
export function ensureClient(root: string, generate = runPrismaGenerate): string | null {
  const reason = staleReason(root);
  if (reason === null) return null;
  return withGenerateLock(root, () => {
    const still = staleReason(root);
    if (still === null) return null;
    const stamp = clientStamp(root);
    generate(root);
    fs.writeFileSync(path.join(root, STAMP_FILE), `${stamp}\n`);
    return still;
  });
}
