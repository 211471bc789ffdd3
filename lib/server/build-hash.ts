import "server-only";
import fs from "node:fs";
import path from "node:path";

// The paths are only known at run time; the comments keep Turbopack from tracing the whole project.
const readText = (file: string) => fs.readFileSync(/* turbopackIgnore: true */ file, "utf8");
const isFile = (file: string) => fs.statSync(/* turbopackIgnore: true */ file).isFile();
const exists = (file: string) => fs.existsSync(/* turbopackIgnore: true */ file);
// Joining run-time parts counts as file-system access too (Turbopack warned that path.join(dir, ref)
// "causes the whole project to be traced").
const join = (...parts: string[]) => path.join(/* turbopackIgnore: true */ ...parts);
const resolve = (...parts: string[]) => path.resolve(/* turbopackIgnore: true */ ...parts);

/**
 * The commit the running build was made from, read from the checkout's .git (HEAD, then the loose
 * ref or packed-refs). Heirloom is deployed as checkout + build, so this names the build; outside
 * a git checkout it is null and the version page says "unknown".
 */
export function readGitCommit(root = process.cwd()): string | null {
  try {
    let gitDir = join(root, ".git");
    if (isFile(gitDir)) {
      // A worktree or submodule: .git is a file that points at the real directory.
      const pointer = /^gitdir:\s*(.+)$/m.exec(readText(gitDir))?.[1]?.trim();
      if (!pointer) return null;
      gitDir = resolve(root, pointer);
    }
    const head = readText(join(gitDir, "HEAD")).trim();
    const ref = /^ref:\s*(.+)$/.exec(head)?.[1];
    if (!ref) return /^[0-9a-f]{40,64}$/.test(head) ? head : null;
    const commonDir = readCommonDir(gitDir);
    for (const dir of [gitDir, commonDir]) {
      const loose = join(dir, ref);
      if (exists(loose)) return readText(loose).trim() || null;
    }
    for (const line of readText(join(commonDir, "packed-refs")).split("\n")) {
      const [sha, name] = line.trim().split(" ");
      if (name === ref && sha) return sha;
    }
    return null;
  } catch {
    return null;
  }
}

function readCommonDir(gitDir: string): string {
  try {
    return resolve(gitDir, readText(join(gitDir, "commondir")).trim());
  } catch {
    return gitDir;
  }
}

let cached: string | null | undefined;

/** The first 7 characters of the build's commit, read once per process; null when unknown. */
export function buildHash(): string | null {
  if (cached === undefined) cached = readGitCommit()?.slice(0, 7) ?? null;
  return cached;
}
