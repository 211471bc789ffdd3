import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type JsonPatchOperation,
  LIMIT_TEXT,
  PARENT_TYPES,
  PARTNER_TYPES,
  type PartnerEntry,
  type TreeNode,
} from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { ApiError } from "@/lib/server/http/errors";
import { fullBinaryTree } from "@/lib/tree/test-trees";
import { applyTreePatch } from "./apply-tree-patch";
import { forgetNodeJson, structureJson } from "./structure-json";
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
    // 2^16 nodes would pass 50,000: the 16th copy is the first refused, counted before it is made
    expect(() => apply(root, copies)).toThrowError(
      /^Operation 15 \(copy \/data → \/data\/children\/-\) would pass a limit: A tree can hold at most 50000 nodes$/,
    );
    // and the 15 copies made before it are taken back
    expect(root).toStrictEqual(emptyNode());
    expect(apply(root, copies.slice(0, 15)).totals.nodes).toBe(2 ** 15);
  });

  it("ends [copy, remove] pairs on a 32,767-node tree when the work budget runs out", () => {
    // each pair puts a copy of the first subtree last and removes the first: the same size, new objects
    const pairs = Array.from({ length: 200 }, () => [
      { op: "copy" as const, from: "/data/children/0", path: "/data/children/-" },
      { op: "remove" as const, path: "/data/children/0" },
    ]).flat();
    const tree = fullBinaryTree(15);
    const before = placesOf(tree);
    let error: unknown;
    try {
      apply(tree, pairs);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toMatch(/would pass a limit: A JSON Patch can walk at most/);
    // the pairs applied before the budget ran out are taken back: the same objects in the same places
    expectSamePlaces(tree, before);
  });
});

/** Every object and list reachable from `root`, with its JSON Pointer. */
function placesOf(root: TreeNode): Map<object, string> {
  const places = new Map<object, string>();
  const stack: [unknown, string][] = [[root, "/data"]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [value, path] = entry;
    if (value === null || typeof value !== "object") continue;
    // an object met twice (shared, or a cycle) would be a broken structure
    if (places.has(value)) throw new Error(`${path} is also at ${places.get(value)}`);
    places.set(value, path);
    for (const [key, child] of Object.entries(value)) stack.push([child, `${path}/${key}`]);
  }
  return places;
}

/** `root` holds exactly the objects `before` lists, each at the place it was. */
function expectSamePlaces(root: TreeNode, before: Map<object, string>): void {
  const after = placesOf(root);
  const moved = [...after].filter(([value, path]) => before.get(value) !== path);
  expect(moved.map(([, path]) => `the object at ${path} was not there before`)).toEqual([]);
  expect(after.size).toBe(before.size);
}

type Gen = fc.GeneratorValue;
const nat = (g: Gen, max: number) => g(fc.nat, { max });
const pick = <T>(g: Gen, items: readonly T[]): T => items[nat(g, items.length - 1)]!;
const ref = (g: Gen) => ({ _id: id(nat(g, 40)) });
const refs = (g: Gen, max: number) => Array.from({ length: nat(g, max) }, () => ref(g));
const partnerRow = (g: Gen): PartnerEntry => ({ type: pick(g, PARTNER_TYPES), people: refs(g, 3) });

/** One node with random fields and no children. */
function randomNode(g: Gen): TreeNode {
  return {
    person: g(fc.boolean) ? ref(g) : null,
    partners: Array.from({ length: nat(g, 2) }, () => partnerRow(g)),
    children: [],
    parentType: pick(g, PARENT_TYPES),
    parents: refs(g, 3),
    adoptiveParents: refs(g, 2),
    hidden: g(fc.boolean),
  };
}

/** A tree of 1-40 random nodes of a random shape. */
function randomTree(g: Gen, maxNodes = 40): TreeNode {
  const all = [randomNode(g)];
  const count = g(fc.integer, { min: 1, max: maxNodes });
  for (let i = 1; i < count; i++) {
    const node = randomNode(g);
    pick(g, all).children.push(node);
    all.push(node);
  }
  return all[0]!;
}

/** Every node of `root` with its pointer, the root first. */
function nodesOf(root: TreeNode): [string, TreeNode][] {
  const nodes: [string, TreeNode][] = [];
  const stack: [string, TreeNode][] = [["/data", root]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    nodes.push(entry);
    const [path, node] = entry;
    node.children.forEach((child, i) => stack.push([`${path}/children/${i}`, child]));
  }
  return nodes;
}

/** A random op that usually applies to `root` (one that does not is dropped by the caller). */
function randomOp(g: Gen, root: TreeNode): JsonPatchOperation {
  const nodes = nodesOf(root);
  const [at, node] = pick(g, nodes);
  const [to, target] = pick(g, nodes);
  const child = nodes.length > 1 ? pick(g, nodes.slice(1))[0] : "/data/children/-";
  switch (nat(g, 15)) {
    case 0:
      return {
        op: "add",
        path: `${at}/children/${nat(g, node.children.length)}`,
        value: randomTree(g, 4),
      };
    case 1:
      return { op: "remove", path: child };
    case 2:
      return { op: "replace", path: `${at}/hidden`, value: g(fc.boolean) };
    case 3:
      return { op: "replace", path: `${at}/person`, value: g(fc.boolean) ? ref(g) : null };
    case 4: {
      const field = pick(g, ["person", "partners", "parents", "hidden", "parentType", "children"]);
      return { op: "remove", path: `${at}/${field}` };
    }
    case 5:
      return { op: "add", path: `${at}/parents/-`, value: ref(g) };
    case 6:
      return {
        op: "add",
        path: `${at}/partners/${nat(g, node.partners.length)}`,
        value: partnerRow(g),
      };
    case 7:
      return { op: "remove", path: `${at}/partners/${nat(g, node.partners.length)}` };
    case 8:
      return { op: "move", from: child, path: `${to}/children/${nat(g, target.children.length)}` };
    case 9:
      return { op: "copy", from: at, path: `${to}/children/-` };
    case 10:
      return { op: "move", from: `${at}/parents/0`, path: `${to}/adoptiveParents/-` };
    case 11:
      return { op: "copy", from: `${at}/partners/0/people`, path: `${to}/parents` };
    case 12:
      return { op: "test", path: `${at}/hidden`, value: node.hidden };
    case 13:
      return { op: "replace", path: `${at}/parentType`, value: pick(g, PARENT_TYPES) };
    case 14:
      return { op: "replace", path: at, value: randomTree(g, 3) };
    default:
      return { op: "move", from: `${at}/partners/0`, path: `${to}/partners/0` };
  }
}

/** Up to 12 random ops that apply, one after another, to `root` (which is left as it was). */
function randomPrefix(g: Gen, root: TreeNode): { ops: JsonPatchOperation[]; after: TreeNode } {
  let work = cloneStructure(root);
  const ops: JsonPatchOperation[] = [];
  const length = nat(g, 12);
  while (ops.length < length) {
    const op = randomOp(g, work);
    try {
      work = apply(cloneStructure(work), [op]).data;
      ops.push(op);
    } catch {
      // refused on its own: not part of the prefix
    }
  }
  return { ops, after: work };
}

/** A chain of `length` nodes, as a patch would send it. */
function chain(length: number): Record<string, unknown> {
  const top: Record<string, unknown> = {};
  let node = top;
  for (let i = 1; i < length; i++) {
    const child = {};
    node.children = [child];
    node = child;
  }
  return top;
}

/**
 * Ops that end a patch, the last refused (`expected`). `untilRefused`: some op among them is
 * refused, which depends on what ran before; the patch is cut after it.
 */
type Refusal = {
  ops: JsonPatchOperation[];
  expected: RegExp | typeof z.ZodError;
  untilRefused?: boolean;
};

/** Ops to end a patch whose state so far is `root`, the last of which is refused in one way. */
const REFUSALS: Record<string, (g: Gen, root: TreeNode) => Refusal> = {
  "a limit": (g, root) => {
    const [at, node] = pick(g, nodesOf(root));
    switch (nat(g, 4)) {
      case 0:
        return {
          ops: [{ op: "add", path: `${at}/children/-`, value: chain(510) }],
          expected: /would pass a limit: A tree can be at most 500 generations deep$/,
        };
      case 1: {
        const row = {
          type: "PARTNER",
          people: Array.from({ length: 100 }, (_, i) => ({ _id: id(i) })),
        };
        return {
          ops: [
            { op: "replace", path: `${at}/partners`, value: Array.from({ length: 6 }, () => row) },
          ],
          expected: new RegExp(`would pass a limit: ${escape(LIMIT_TEXT.referencesPerNode)}$`),
        };
      }
      case 2:
        return {
          ops: [
            {
              op: "replace",
              path: `${at}/parents`,
              value: Array.from({ length: 100 }, () => ref(g)),
            },
            { op: "add", path: `${at}/parents/${nat(g, 100)}`, value: ref(g) },
          ],
          expected: new RegExp(`would pass a limit: ${escape(LIMIT_TEXT.perList)}$`),
        };
      case 3: {
        const wide = { children: Array.from({ length: 2000 }, () => ({})) };
        const at = root.children.length;
        const pairs = Array.from({ length: 40 }, () => [
          { op: "copy" as const, from: `/data/children/${at}`, path: "/data/children/-" },
          { op: "remove" as const, path: `/data/children/${at + 1}` },
        ]).flat();
        return {
          ops: [{ op: "add", path: "/data/children/-", value: wide }, ...pairs],
          expected: /would pass a limit: A JSON Patch can walk at most 100000 nodes/,
          untilRefused: true,
        };
      }
      default:
        return {
          ops: [
            { op: "add", path: `${at}/children/${node.children.length}`, value: chain(1) },
            {
              op: "add",
              path: `${at}/children/-`,
              value: { children: Array.from({ length: 50_001 }, () => ({})) },
            },
          ],
          expected: new RegExp(`would pass a limit: ${escape(LIMIT_TEXT.nodes)}$`),
        };
    }
  },
  "a path not in the tree": (g, root) => {
    const nodes = nodesOf(root);
    const [at, node] = pick(g, nodes);
    const end = node.children.length;
    const child = nodes.length > 1 ? pick(g, nodes.slice(1))[0] : undefined;
    const ops: JsonPatchOperation[] = [
      { op: "remove", path: `${at}/children/${end}` },
      { op: "add", path: `${at}/children/${end + 1}`, value: {} },
      { op: "replace", path: `${at}/nickname`, value: "x" },
      { op: "replace", path: `${at}/children/-`, value: {} },
      { op: "copy", from: `${at}/children/${end}`, path: "/data/children/-" },
      { op: "add", path: `${at}/parents/01`, value: ref(g) },
      { op: "remove", path: "/data" },
      { op: "remove", path: `${at}/parents/0/_id` },
      { op: "test", path: `${at}/children/${end}/hidden`, value: false },
    ];
    // a move takes its value out, then finds its path is not there
    if (child)
      ops.push({ op: "move", from: child, path: `/data/children/${root.children.length + 1}` });
    return { ops: [pick(g, ops)], expected: /cannot be applied: / };
  },
  "a failed test": (g, root) => {
    const [at, node] = pick(g, nodesOf(root));
    const changed = cloneStructure(node);
    changed.hidden = !changed.hidden;
    const ops: JsonPatchOperation[] = [
      { op: "test", path: `${at}/hidden`, value: !node.hidden },
      { op: "test", path: at, value: changed },
      { op: "test", path: `${at}/parents`, value: [...node.parents, ref(g)] },
      { op: "test", path: `${at}/person`, value: { _id: "nobody" } },
    ];
    return { ops: [pick(g, ops)], expected: /its test failed/ };
  },
  "a move into its own child": (g, root) => {
    const nodes = nodesOf(root);
    const [at] = pick(g, nodes);
    const inside = nodes.filter(([path]) => path.startsWith(at));
    const [into, target] = pick(g, inside);
    const path = pick(g, [`${into}/children/-`, `${into}/children/${target.children.length}`]);
    return { ops: [{ op: "move", from: at, path }], expected: /nothing can be moved into itself/ };
  },
  "a value the schema refuses": (g, root) => {
    const nodes = nodesOf(root);
    const [at, node] = pick(g, nodes);
    const ops: Refusal[] = [
      {
        ops: [
          { op: "add", path: `${at}/children/-`, value: { children: [{ parentType: "BOGUS" }] } },
        ],
        expected: z.ZodError,
      },
      {
        ops: [{ op: "replace", path: `${at}/person`, value: { _id: "not an id" } }],
        expected: z.ZodError,
      },
      { ops: [{ op: "replace", path: `${at}/hidden`, value: "yes" }], expected: z.ZodError },
      { ops: [{ op: "add", path: `${at}/parents/-`, value: { _id: "" } }], expected: z.ZodError },
      {
        ops: [{ op: "replace", path: at, value: { partners: [{ type: "NEIGHBOUR" }] } }],
        expected: z.ZodError,
      },
    ];
    // a move takes its value out, then finds it cannot go where its path points
    const where = /cannot go where its path points/;
    if (node.parents.length > 0) {
      ops.push({
        ops: [{ op: "move", from: `${at}/parents/0`, path: "/data/hidden" }],
        expected: where,
      });
    }
    if (nodes.length > 1) {
      const [child] = pick(g, nodes.slice(1));
      ops.push({ ops: [{ op: "move", from: child, path: "/data/parents/-" }], expected: where });
    }
    return pick(g, ops);
  },
};

/** The index of the op that refuses `ops` on a copy of `root`. */
function refusedAt(root: TreeNode, ops: JsonPatchOperation[]): number {
  try {
    apply(cloneStructure(root), ops);
  } catch (error) {
    const index = /^Operation (\d+) /.exec((error as ApiError).detail)?.[1];
    if (index !== undefined) return Number(index);
  }
  throw new Error("the patch was not refused");
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("applyTreePatch on a refused patch", () => {
  it.each<[string, JsonPatchOperation]>([
    [
      "its path is not in the tree",
      { op: "move", from: "/data/children/0", path: "/data/children/5" },
    ],
    [
      "a node cannot be a reference",
      { op: "move", from: "/data/children/1", path: "/data/parents/-" },
    ],
    [
      "a reference cannot be a flag",
      { op: "move", from: "/data/children/0/parents/0", path: "/data/hidden" },
    ],
  ])("takes back what a move took out before it found %s", (_, op) => {
    const tree = legacy(10);
    const copy = structuredClone(tree);
    const places = placesOf(tree);
    expect(() => apply(tree, [op])).toThrowError(/^Operation 0 \(move .*cannot be applied/);
    expect(tree).toStrictEqual(copy);
    expectSamePlaces(tree, places);
  });

  it.each(Object.keys(REFUSALS))(
    "leaves every object of the structure as and where it was when the last op is refused by %s",
    (way) => {
      fc.assert(
        fc.property(fc.gen(), (g) => {
          const tree = randomTree(g);
          const prefix = randomPrefix(g, tree);
          const refusal = REFUSALS[way]!(g, prefix.after);
          let ops = [...prefix.ops, ...refusal.ops];
          if (refusal.untilRefused) ops = ops.slice(0, refusedAt(tree, ops) + 1);
          const copy = structuredClone(tree);
          const places = placesOf(tree);
          // the save path's texts: what is not forgotten must still be the node's JSON afterwards
          structureJson(tree);
          let error: unknown;
          try {
            applyTreePatch(tree, measureStructure(tree), ops, forgetNodeJson);
          } catch (caught) {
            error = caught;
          }
          if (refusal.expected instanceof RegExp) {
            expect(error).toBeInstanceOf(ApiError);
            expect((error as ApiError).detail).toMatch(refusal.expected);
            expect((error as ApiError).detail).toMatch(new RegExp(`^Operation ${ops.length - 1} `));
          } else {
            expect(error).toBeInstanceOf(refusal.expected);
          }
          expect(tree).toStrictEqual(copy);
          expectSamePlaces(tree, places);
          expect(structureJson(tree)).toBe(JSON.stringify(copy));
          // and the held structure takes the next patch: the prefix alone applies to it
          const applied = apply(tree, prefix.ops);
          expect(applied.data).toStrictEqual(prefix.after);
        }),
        { numRuns: way === "a limit" ? 60 : 150 },
      );
    },
  );
});
