// The rooms and arrows of eslint.config.mjs (docs/architecture.md) are enforced by `npm run check`:
// these lint sources that break them, held in memory at virtual paths (no such file exists, so
// nothing stands in components/ or lib/server/), and hold the list of modules both server worlds
// load to the files that really lack `import "server-only"`.
import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import tseslint from "typescript-eslint";
import { BOTH_WORLDS, BOUNDARIES } from "../eslint.config.mjs";

const root = path.join(import.meta.dirname, "..");

/** The project's block of rooms and arrows, or the same block with the arrows rule off. */
function linter(rule: "on" | "off"): ESLint {
  // without the type-checked rules (a whole type program costs minutes on a busy machine)
  const block =
    rule === "on"
      ? BOUNDARIES
      : {
          ...BOUNDARIES,
          rules: { ...BOUNDARIES.rules, "boundaries/dependencies": "off" as const },
        };
  return new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ languageOptions: { parser: tseslint.parser } }, block],
  });
}

/** The boundaries errors of `source` linted as if it were the file at `virtualPath`. */
async function boundaryErrors(
  source: string,
  virtualPath: string,
  rule: "on" | "off" = "on",
): Promise<string[]> {
  expect(fs.existsSync(path.join(root, virtualPath))).toBe(false);
  const [result] = await linter(rule).lintText(source, {
    filePath: path.join(root, virtualPath),
  });
  expect(result?.filePath).toBe(path.join(root, virtualPath));
  // a parse error would also leave no boundaries message: none is allowed
  expect(result?.messages.filter((message) => message.fatal)).toEqual([]);
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === "boundaries/dependencies")
    .map((message) => `${message.line}: ${message.message}`);
}

/** A component that imports server code. */
const BROKEN_ARROW = `import { db } from "@/lib/server/db";

export const brokenArrow = db;
`;
const BROKEN_ARROW_PATH = "components/tree-export/broken-arrow.virtual.ts";

/** Next-bundled server code that imports the server in front of Next (refused, line 1) and a
 * module both worlds load (allowed, line 2). */
const INTO_FRONT = `import { createFastReads } from "@/lib/server/front/fast-reads";
import { getPgPool } from "@/lib/server/front/pg-pool";

export const intoFront = [createFastReads, getPgPool];
`;
const INTO_FRONT_PATH = "lib/server/trees/into-front.virtual.ts";

const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
    .map((name) => path.posix.join(dir, name.split(path.sep).join("/")));

describe("room boundaries", () => {
  it("refuses a component that imports lib/server; with the rule off the same source passes", async () => {
    const errors = await boundaryErrors(BROKEN_ARROW, BROKEN_ARROW_PATH);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^1: /);
    // the error is the rule's: without it the same source at the same path lints clean
    expect(await boundaryErrors(BROKEN_ARROW, BROKEN_ARROW_PATH, "off")).toEqual([]);
    // and the rule judges by the path: the same import from server code is allowed
    expect(await boundaryErrors(BROKEN_ARROW, "lib/server/trees/broken-arrow.virtual.ts")).toEqual(
      [],
    );
  }, 120_000);

  it("refuses Next-bundled server code that imports lib/server/front, but not a both-worlds module", async () => {
    const errors = await boundaryErrors(INTO_FRONT, INTO_FRONT_PATH);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^1: /);
    expect(await boundaryErrors(INTO_FRONT, INTO_FRONT_PATH, "off")).toEqual([]);
  }, 120_000);

  it("leaves no fixture file outside tests/", () => {
    const fixtures = ["components", "lib", "app"].flatMap((dir) =>
      fs
        .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
        .filter((name) => /fixture/i.test(name)),
    );
    expect(fixtures).toEqual([]);
  });

  it("lists exactly the lib/server modules without server-only as loaded by both worlds", () => {
    const serverOnly = (file: string) =>
      /^import "server-only";$/m.test(fs.readFileSync(path.join(root, file), "utf8"));
    const outsideFront = filesUnder("lib/server").filter(
      (file) => !file.startsWith("lib/server/front/"),
    );
    expect(BOTH_WORLDS.filter((file) => !file.startsWith("lib/server/front/")).sort()).toEqual(
      outsideFront.filter((file) => !serverOnly(file)).sort(),
    );
    // Nothing in front may pull in server-only: tsx loads it outside Next's bundle.
    expect(filesUnder("lib/server/front").filter(serverOnly)).toEqual([]);
  });
});
