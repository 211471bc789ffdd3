import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { LIMITS_TABLE, TREE_LIMITS } from "./limits";

/** The rows of docs/reference.md's "Limits" table (moved there from the README), each as its trimmed cells. */
function readmeLimits(): string[][] {
  const readme = fs.readFileSync("docs/reference.md", "utf8");
  const section = readme.split("\n## Limits\n")[1]?.split("\n## ")[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
}

describe("the limits module", () => {
  it("is what docs/reference.md lists", () => {
    expect(readmeLimits()).toEqual(LIMITS_TABLE.map((row) => [...row]));
  });

  it("fits the spec's 10,000 nodes and 5 MB", () => {
    expect(TREE_LIMITS.maxNodes).toBeGreaterThanOrEqual(10_000);
    expect(TREE_LIMITS.maxBytes).toBeGreaterThanOrEqual(5 * 1024 * 1024);
  });
});
