import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonPatchOperation, TreeNode } from "@/lib/schemas/tree";
import { applyTreePatch } from "./apply-tree-patch";
import { forgetNodeJson, structureJson } from "./structure-json";
import { measureStructure } from "./structure-size";

/** A tree of `count` nodes, breadth first, `branching` children each, with references. */
function legacy(count: number, branching = 3): TreeNode {
  const all: TreeNode[] = [];
  for (let i = 0; i < count; i++) {
    all.push({
      person: i % 5 === 0 ? null : { _id: `p${i}` },
      partners: i % 3 ? [{ type: "MARRIED", people: [{ _id: `q${i}` }] }] : [],
      children: [],
      parentType: "NONE",
      parents: i % 2 ? [{ _id: `p${i + 1}` }] : [],
      adoptiveParents: [],
      hidden: i % 6 === 0,
    });
    if (i > 0) all[Math.floor((i - 1) / branching)]!.children.push(all[i]!);
  }
  return all[0]!;
}

/** The JSON Pointer of every node of `root`, the root first. */
function nodePaths(root: TreeNode): string[] {
  const paths: string[] = [];
  const stack: [TreeNode, string][] = [[root, "/data"]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, path] = entry;
    paths.push(path);
    node.children.forEach((child, i) => stack.push([child, `${path}/children/${i}`]));
  }
  return paths;
}

type Edit = { kind: number; at: number; to: number };

/** One op of a kind at nodes picked by index among the tree's current nodes. */
function operation(root: TreeNode, edit: Edit): JsonPatchOperation | null {
  const paths = nodePaths(root);
  const at = paths[edit.at % paths.length]!;
  const to = paths[edit.to % paths.length]!;
  switch (edit.kind % 7) {
    case 0:
      return { op: "add", path: `${at}/children/-`, value: {} };
    case 1:
      return at === "/data" ? null : { op: "remove", path: at };
    case 2:
      return { op: "replace", path: `${at}/hidden`, value: edit.to % 2 === 0 };
    case 3:
      return { op: "add", path: `${at}/parents/0`, value: { _id: `n${edit.to}` } };
    case 4:
      // a move into its own subtree is refused (422), which the run skips
      return at === "/data" ? null : { op: "move", from: at, path: `${to}/children/0` };
    case 5:
      return { op: "copy", from: at, path: `${to}/children/-` };
    default:
      return { op: "replace", path: `${at}/person`, value: { _id: `r${edit.to}` } };
  }
}

describe("structureJson", () => {
  it("is JSON.stringify of a structure, and stays so across patches applied in place", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.record({ kind: fc.nat(), at: fc.nat(), to: fc.nat() }), { maxLength: 12 }),
        (count, edits) => {
          let root = legacy(count);
          expect(structureJson(root)).toBe(JSON.stringify(root));
          for (const edit of edits) {
            const op = operation(root, edit);
            if (!op) continue;
            try {
              root = applyTreePatch(root, measureStructure(root), [op], forgetNodeJson).data;
            } catch {
              // refused ops may have changed nothing or part: the save drops such a structure
              root = JSON.parse(JSON.stringify(root)) as TreeNode;
            }
            expect(structureJson(root)).toBe(JSON.stringify(root));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("leaves out fields holding undefined, as JSON.stringify does", () => {
    const root = { ...legacy(3), extra: undefined } as unknown as TreeNode;
    expect(structureJson(root)).toBe(JSON.stringify(root));
  });

  it("walks a structure deeper than the stack", () => {
    const root = legacy(1);
    let node = root;
    for (let i = 0; i < 20_000; i++) {
      const child = legacy(1);
      node.children.push(child);
      node = child;
    }
    expect(structureJson(root).length).toBe(measureStructure(root).bytes);
  });
});
