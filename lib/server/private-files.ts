// DATA_DIR is the account's own (SECURITY.md, #32 finding 1): the embedded database (password
// hashes, sessions and the JWT secret are in its WAL), the mail outbox (live sign-in links), the
// uploads, the backups and the admin socket. Folders are 0700 and files 0600, so no other local
// account can read or rewrite any of it.
// - Each process that writes there sets the umask 077 first (makeProcessPrivate), so that what
//   Node, Next and PGlite's folders create is private from the start; the outbox, the uploads and
//   the lock file also give their modes explicitly.
// - PGlite writes the files of a new database with mode 0666 whatever the umask (its Emscripten
//   file system sets the mode with chmod after creating a file), and a DATA_DIR made by an older
//   release is 0755/0666: repairPrivateTree walks the tree and takes away every group and other
//   permission. npm start and db:migrate run it at start (one line says what it changed) and
//   again, quietly, after opening the database.
// Loaded by the scripts (outside Next's bundle) as well as by the server, so no "server-only".
import fs from "node:fs";
import path from "node:path";

export const PRIVATE_UMASK = 0o077;
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The walk's bound: a DATA_DIR with more entries (a huge uploads folder) is repaired in part. */
export const REPAIR_MAX_ENTRIES = 200_000;

/** Makes what this process creates from now on its account's only (umask 077). */
export function makeProcessPrivate(): void {
  process.umask(PRIVATE_UMASK);
}

export interface RepairResult {
  /** Entries whose mode was changed. */
  changed: number;
  /** Entries whose mode could not be changed (another owner, a read-only mount). */
  failed: string[];
  /** Whether the walk stopped at maxEntries before seeing everything. */
  truncated: boolean;
}

/**
 * Makes every folder under `root` (itself included) 0700 and every other entry 0600, when it is
 * not already. Symbolic links are neither changed nor followed, so a link inside DATA_DIR cannot
 * send the walk, or a chmod, anywhere else. At most `maxEntries` entries are looked at. A root
 * that does not exist yet is nothing to repair.
 */
export function repairPrivateTree(
  root: string,
  options: { maxEntries?: number } = {},
): RepairResult {
  const maxEntries = options.maxEntries ?? REPAIR_MAX_ENTRIES;
  const result: RepairResult = { changed: 0, failed: [], truncated: false };
  let seen = 0;
  const stack = [path.resolve(root)];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (seen >= maxEntries) {
      result.truncated = true;
      break;
    }
    seen += 1;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch {
      continue; // gone meanwhile, or the root does not exist yet
    }
    if (stat.isSymbolicLink()) continue;
    const folder = stat.isDirectory();
    const wanted = folder ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((stat.mode & 0o777) !== wanted) {
      try {
        fs.chmodSync(entry, wanted);
        result.changed += 1;
      } catch {
        result.failed.push(entry);
      }
    }
    if (!folder) continue;
    let names: string[];
    try {
      names = fs.readdirSync(entry);
    } catch {
      continue;
    }
    for (const name of names) stack.push(path.join(entry, name));
  }
  return result;
}

/**
 * The walk after the embedded database opened: what PGlite has just written (a new database's
 * files, the catalog caches it writes at each open) is made private without a word, since it is
 * not a repair of the folder; only what could not be changed is logged.
 */
export function privateAfterOpen(root: string): void {
  const result = repairPrivateTree(root);
  const problem = describeRepair(root, { ...result, changed: 0 });
  if (problem) console.log(problem);
}

/** The one line a start logs about a repair, or null when there was nothing to say. */
export function describeRepair(root: string, result: RepairResult): string | null {
  const parts: string[] = [];
  if (result.changed > 0) {
    parts.push(
      `Made ${result.changed} ${result.changed === 1 ? "file or folder" : "files and folders"} in ${path.resolve(root)} private to this account (folders 0700, files 0600).`,
    );
  }
  if (result.failed.length > 0) {
    parts.push(
      `Could not make ${result.failed.length} private (first: ${result.failed[0]}): check who owns them.`,
    );
  }
  if (result.truncated) {
    parts.push("The walk stopped at its bound of entries; the rest was not checked.");
  }
  return parts.length > 0 ? parts.join(" ") : null;
}
