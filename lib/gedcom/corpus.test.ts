// The 24-file GEDCOM corpus (../shared/data/gedcom-corpus: real exports of a dozen programs and
// the GEDCOM 5.5 torture tests): each imports with the people its manifest counts, everyone shows
// in the tree, and the tree is one the API would store.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { treeData, type TreeNode } from "@/lib/schemas/tree";
import { parseGedcom } from "./import";

const DIR = path.resolve("../shared/data/gedcom-corpus");
const manifest = JSON.parse(fs.readFileSync(path.join(DIR, "manifest.json"), "utf8")) as Record<
  string,
  number
>;

/** Every person a tree names: nodes' Sims, partners and parents. */
function named(data: TreeNode): Set<string> {
  const ids = new Set<string>();
  const stack = [data];
  for (let n = stack.pop(); n; n = stack.pop()) {
    stack.push(...n.children);
    if (n.person) ids.add(n.person._id);
    for (const entry of n.partners) for (const ref of entry.people) ids.add(ref._id);
    for (const ref of [...n.parents, ...n.adoptiveParents]) ids.add(ref._id);
  }
  return ids;
}

describe("the GEDCOM corpus", () => {
  it("holds 24 files", () => {
    expect(Object.keys(manifest)).toHaveLength(24);
  });

  for (const [name, count] of Object.entries(manifest)) {
    it(`imports ${name}: ${count} people, all in the tree`, () => {
      const bytes = zlib.gunzipSync(fs.readFileSync(path.join(DIR, `${name}.gz`)));
      const imported = parseGedcom(new Uint8Array(bytes), { fileName: name });
      expect(imported.people).toHaveLength(count);
      expect(named(imported.data)).toEqual(new Set(imported.people.map((p) => p.key)));
      expect(treeData.safeParse(imported.data).success).toBe(true);
    }, 60_000);
  }
});
