import { describe, expect, it } from "vitest";
import type { JsonPatchOperation, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { ApiError } from "@/lib/server/http/errors";
import { fullBinaryTree } from "@/lib/tree/test-trees";
import { applyTreePatch } from "./apply-tree-patch";
import { cloneStructure, measureStructure } from "./structure-size";

const id = (i: number) => `person-${i}`;

/** A tree of `count` nodes with every kind of reference, breadth first, `branching` children each. */
function legacy(count: number, branching = 3): TreeNode {
  const all: TreeNode[] = [];
  for (let i = 0; i < count; i++) {
    all.push({
      person: i % 5 === 0 ? null : { _id: id(i) },
      partners: Array.from({ length: i % 3 }, (_, row) => ({
        type: row % 2 === 0 ? "MARRIED" : "EX_PARTNER",
        people: Array.from({ length: row + 1 }, (_, p) => ({ _id: id(i + p + 1) })),
      })),
      children: [],
      parentType: i % 7 === 0 ? "ABDUCTION" : "NONE",
      parents: i % 2 ? [{ _id: id(i + 3) }, { _id: id(i + 4) }] : [],
      adoptiveParents: i % 4 ? [] : [{ _id: id(i + 5) }],
      hidden: i % 6 === 0,
    });
    if (i > 0) all[Math.floor((i - 1) / branching)]!.children.push(all[i]!);
  }
  return all[0]!;
}

const apply = (root: TreeNode, operations: JsonPatchOperation[]) =>
  applyTreePatch(root, measureStructure(root), operations);

describe("measureStructure", () => {
  it.each([1, 2, 10, 500])("counts exactly the stored bytes of a %i-node tree", (count) => {
    const tree = legacy(count);
    const size = measureStructure(tree);
    expect(size.bytes).toBe(JSON.stringify(tree).length);
    expect(size.nodes).toBe(count);
  });

  it("copies without sharing", () => {
    const tree = legacy(50);
    const copy = cloneStructure(tree);
    expect(copy).toEqual(tree);
    copy.children[0]!.parents.push({ _id: "x" });
    expect(copy).not.toEqual(tree);
  });
});

describe("applyTreePatch", () => {
  it("keeps its running totals equal to a fresh measure after every kind of op", () => {
    const tree = legacy(40);
    const result = apply(tree, [
      { op: "copy", from: "/data/children/0", path: "/data/children/-" },
      { op: "move", from: "/data/children/1", path: "/data/children/0/children/0" },
      { op: "remove", path: "/data/children/2/partners/0" },
      { op: "replace", path: "/data/person", value: { _id: "new-person", firstName: "N" } },
      { op: "add", path: "/data/parents/-", value: { _id: "new-parent" } },
      { op: "remove", path: "/data/hidden" },
      { op: "replace", path: "/data/children/0/parentType", value: "CLONE" },
      { op: "add", path: "/data/children/0/children/1", value: { person: { _id: "kid" } } },
      { op: "remove", path: "/data/children/0/person" },
    ]);
    const fresh = measureStructure(result.data);
    expect(result.totals).toEqual({
      nodes: fresh.nodes,
      references: fresh.references,
      bytes: fresh.bytes,
    });
    expect(JSON.stringify(result.data).length).toBe(fresh.bytes);
    expect([...result.newIds].sort()).toEqual(["kid", "new-parent", "new-person"]);
  });

  it("ends 1 KB of copies of the root at the first copy past the node limit, before making it", () => {
    const copies = Array.from({ length: 40 }, () => ({
      op: "copy" as const,
      from: "/data",
      path: "/data/children/-",
    }));
    const root = emptyNode();
    expect(() => apply(root, copies)).toThrowError(
      /^Operation 15 \(copy \/data → \/data\/children\/-\) would pass a limit: A tree can hold at most 50000 nodes$/,
    );
    // the 16th copy was counted, not made: the tree holds what the first 15 made
    expect(measureStructure(root).nodes).toBe(2 ** 15);
  });

  it("ends [copy, remove] pairs on a 32,767-node tree when the work budget runs out", () => {
    const pairs = Array.from({ length: 200 }, () => [
      { op: "copy" as const, from: "/data/children/0", path: "/data/children/-" },
      { op: "remove" as const, path: "/data/children/2" },
    ]).flat();
    let error: unknown;
    try {
      apply(fullBinaryTree(15), pairs);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toMatch(/would pass a limit: A JSON Patch can walk at most/);
  });
});
