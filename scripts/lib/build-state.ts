// Decides whether `npm start` must build: the hash of everything that goes into the build.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const INPUTS = [
  "app",
  "components",
  "content",
  "lib",
  "public",
  "prisma/schema.prisma",
  "package-lock.json",
  "next.config.ts",
  "proxy.ts",
  "postcss.config.mjs",
  "tsconfig.json",
];
const SKIP = new Set(["node_modules", "generated", ".next", ".data"]);

export const DIST_DIR = process.env.HEIRLOOM_DIST_DIR || ".next";
export const HASH_FILE = `${DIST_DIR}/heirloom-source-hash`;

function walk(entry: string, files: string[]) {
  if (!fs.existsSync(entry)) return;
  const stat = fs.statSync(entry);
  if (stat.isFile()) {
    if (!/\.test\.tsx?$/.test(entry)) files.push(entry);
    return;
  }
  for (const name of fs.readdirSync(entry).sort()) {
    if (!SKIP.has(name)) walk(path.join(entry, name), files);
  }
}

export function sourceHash(root = process.cwd()): string {
  const files: string[] = [];
  for (const input of INPUTS) walk(path.join(root, input), files);
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(path.relative(root, file));
    hash.update(fs.readFileSync(file));
  }
  return hash.digest("hex");
}

export function buildIsCurrent(root = process.cwd()): boolean {
  const hashFile = path.join(root, HASH_FILE);
  if (!fs.existsSync(path.join(root, DIST_DIR, "BUILD_ID")) || !fs.existsSync(hashFile)) return false;
  return fs.readFileSync(hashFile, "utf8") === sourceHash(root);
}

/**
 * Records the hash the build was made from. Pass the hash taken *before* building: a source
 * edited while the build ran must not be recorded as built.
 */
export function recordBuild(root = process.cwd(), hash = sourceHash(root)): void {
  fs.writeFileSync(path.join(root, HASH_FILE), hash);
}
