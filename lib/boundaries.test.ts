// The rooms and arrows of eslint.config.mjs (docs/architecture.md) are enforced by `npm run check`:
// these lint two test-only files that break them, and hold the list of modules both server
// worlds load to the files that really lack `import "server-only"`.
import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import tseslint from "typescript-eslint";
import { BOTH_WORLDS, BOUNDARIES } from "../eslint.config.mjs";

const root = path.join(import.meta.dirname, "..");

async function boundaryErrors(file: string): Promise<string[]> {
  // The project's own block of rooms and arrows, without the type-checked rules (a whole type
  // program costs minutes on a busy machine); ignore: false lints the fixtures, which
  // `npm run lint` skips.
  const eslint = new ESLint({
    cwd: root,
    ignore: false,
    overrideConfigFile: true,
    overrideConfig: [{ languageOptions: { parser: tseslint.parser } }, BOUNDARIES],
  });
  const [result] = await eslint.lintFiles([file]);
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === "boundaries/dependencies")
    .map((message) => `${message.line}: ${message.message}`);
}

const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.tsx?$/.test(name) && !/\.(test|lint-fixture)\.tsx?$/.test(name))
    .map((name) => path.posix.join(dir, name.split(path.sep).join("/")));

describe("room boundaries", () => {
  it("refuses a component that imports lib/server", async () => {
    const errors = await boundaryErrors("components/tree-export/broken-arrow.lint-fixture.ts");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^3: /);
  }, 120_000);

  it("refuses Next-bundled server code that imports lib/server/front, but not a both-worlds module", async () => {
    const errors = await boundaryErrors("lib/server/trees/into-front.lint-fixture.ts");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^3: /);
  }, 120_000);

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
