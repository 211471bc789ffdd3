// #32 finding 13: a fresh `npm install` printed 25 EBADENGINE warnings on Node 20, because
// vitest 5, lighthouse 13 (and its puppeteer-core) and Prisma's `prisma dev` server
// (@prisma/streams-local) ask for Node 22, while package.json said `>=20.19`. The range in
// package.json's engines must be one every installed package accepts, whole: then no Node it
// names gets a warning, and a dependency update that drops one of them fails here.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
/** The semver package npm itself uses (a dependency of many of ours; no types installed). */
const semver = require("semver") as {
  subset(sub: string, dom: string): boolean;
  satisfies(version: string, range: string): boolean;
  validRange(range: string): string | null;
};

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
const project = readJson(path.join(ROOT, "package.json")) as { engines: { node: string } };
const lock = readJson(path.join(ROOT, "package-lock.json")) as {
  packages: Record<string, unknown>;
};

/** Every package of the lock that is installed here, with the Node range it asks for. */
function installedEngines(): { name: string; node: string }[] {
  const found: { name: string; node: string }[] = [];
  for (const key of Object.keys(lock.packages)) {
    if (!key.startsWith("node_modules/")) continue;
    let manifest: { engines?: { node?: unknown } };
    try {
      manifest = readJson(path.join(ROOT, key, "package.json")) as typeof manifest;
    } catch {
      continue; // another platform's optional build, not installed here
    }
    const node = manifest.engines?.node;
    if (typeof node === "string") found.push({ name: key.slice("node_modules/".length), node });
  }
  return found;
}

/** The packages whose engines.node leaves out part of `ours` (npm warns EBADENGINE there). */
function refusing(ours: string, packages: { name: string; node: string }[]): string[] {
  return packages
    .filter(({ node }) => semver.validRange(node) === null || !semver.subset(ours, node))
    .map(({ name, node }) => `${name} asks for ${node}`);
}

describe("package.json's engines", () => {
  it("is a range of Node versions that every installed package accepts", () => {
    const packages = installedEngines();
    expect(packages.length).toBeGreaterThan(100);
    expect(refusing(project.engines.node, packages)).toEqual([]);
  });

  it("names the Node this runs on", () => {
    expect(semver.satisfies(process.versions.node, project.engines.node)).toBe(true);
  });

  it("finds the packages that ask for more: the range before this fix and vitest 5's", () => {
    expect(
      refusing(">=20.19", [
        { name: "vitest", node: "^22.12.0 || ^24.0.0 || >=26.0.0" },
        { name: "vite", node: "^20.19.0 || >=22.12.0" },
        { name: "lighthouse", node: ">=18.16" },
      ]),
    ).toEqual([
      "vitest asks for ^22.12.0 || ^24.0.0 || >=26.0.0",
      "vite asks for ^20.19.0 || >=22.12.0",
    ]);
  });
});
