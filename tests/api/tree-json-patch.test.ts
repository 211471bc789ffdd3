// Issue 15, "saves that scale": a structure save may send a JSON Patch (RFC 6902) against the
// version in If-Match instead of the whole tree. Same validation, same 409 rules, same stored tree.
import { compare } from "fast-json-patch";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { TREE_PATCH_LIMITS, type Tree, type TreeNode, treeData } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { db } from "@/lib/server/db";
import { readTreeData } from "@/lib/server/trees/read-tree-data";
import { forgetStructure, heldVersion } from "@/lib/server/trees/structure-cache";
import { detailOf } from "../helpers/api";
import { structureSaves } from "../helpers/tree-saves";
import {
  type TestUser,
  buildLegacy,
  createTree,
  createUser,
  insertPeople,
} from "../helpers/factories";

const CONFLICT =
  "This tree was changed somewhere else (another tab or device). Reload to get the latest version.";

let owner: TestUser;

beforeAll(async () => {
  owner = await createUser();
});

const { sendPatch, sendWhole } = structureSaves(() => owner.token);

/** The whole stored structure, its chunks put in place (ADR 037). */
const storedData = (treeId: string) => readTreeData(db, treeId);

/** Every node of a structure, root first, with a way back to it. */
function nodesOf(root: TreeNode): TreeNode[] {
  const all: TreeNode[] = [];
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    all.push(node);
    stack.push(...node.children);
  }
  return all;
}

type Edit =
  | { kind: "addChild"; at: number }
  | { kind: "removeChild"; at: number }
  | { kind: "setPerson"; at: number; person: number | null }
  | { kind: "addPartner"; at: number; person: number; type: "MARRIED" | "EX_PARTNER" }
  | { kind: "dropPartner"; at: number }
  | { kind: "parents"; at: number; people: number[]; type: "NONE" | "CLONE" | "ABDUCTION" }
  | { kind: "hide"; at: number }
  | { kind: "moveChild"; at: number; to: number };

const anEdit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant("addChild" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("removeChild" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("setPerson" as const),
    at: fc.nat(),
    person: fc.option(fc.nat(), { nil: null }),
  }),
  fc.record({
    kind: fc.constant("addPartner" as const),
    at: fc.nat(),
    person: fc.nat(),
    type: fc.constantFrom("MARRIED" as const, "EX_PARTNER" as const),
  }),
  fc.record({ kind: fc.constant("dropPartner" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("parents" as const),
    at: fc.nat(),
    people: fc.array(fc.nat(), { maxLength: 3 }),
    type: fc.constantFrom("NONE" as const, "CLONE" as const, "ABDUCTION" as const),
  }),
  fc.record({ kind: fc.constant("hide" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("moveChild" as const), at: fc.nat(), to: fc.nat() }),
);

/** The JSON Pointer of every node of a structure, in nodesOf's order. */
function pointersOf(root: TreeNode): string[] {
  const all: string[] = [];
  const stack: [TreeNode, string][] = [[root, "/data"]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, pointer] = item;
    all.push(pointer);
    node.children.forEach((_, i) => stack.push([node.children[i]!, `${pointer}/children/${i}`]));
  }
  return all;
}

/** Where a pointer points, in a structure. */
function at(root: TreeNode, pointer: string): TreeNode {
  let node = root;
  for (const index of pointer
    .split("/")
    .slice(2)
    .filter((_, i) => i % 2 === 1)) {
    node = node.children[Number(index)]!;
  }
  return node;
}

/** Takes the node at a (non-root) pointer out of its parent's children. */
function takeOut(root: TreeNode, pointer: string): TreeNode {
  const parent = at(root, pointer.replace(/\/children\/\d+$/, ""));
  const index = Number(/(\d+)$/.exec(pointer)![1]);
  return parent.children.splice(index, 1)[0]!;
}

/**
 * A move edit as an RFC 6902 `move` (the editor sends add/remove/replace; other clients may
 * move): a non-root node to the end of another node's children, that node's pointer read after
 * the removal, as the RFC reads it. Null when the structure has only its root.
 */
function moveOf(
  root: TreeNode,
  edit: { at: number; to: number },
): { from: string; path: string } | null {
  const movable = pointersOf(root).slice(1);
  if (movable.length === 0) return null;
  const from = movable[edit.at % movable.length]!;
  const without = structuredClone(root);
  takeOut(without, from);
  const targets = pointersOf(without);
  const path = `${targets[edit.to % targets.length]!}/children/-`;
  // RFC 6902 (4.4) refuses a path that `from` is a prefix of, even where the removal would make
  // it name another node: such a move is sent as the diff instead
  return path.startsWith(`${from}/`) ? null : { from, path };
}

/** The structure after one edit, changed as the editor's reducers change it: by copies. */
function applyEdit(root: TreeNode, edit: Edit, people: string[]): TreeNode {
  const next = structuredClone(root);
  const nodes = nodesOf(next);
  const node = nodes[edit.at % nodes.length]!;
  const ref = (i: number) => ({ _id: people[i % people.length]! });
  switch (edit.kind) {
    case "addChild":
      node.children.push({ ...emptyNode(), person: ref(edit.at) });
      break;
    case "removeChild":
      if (node.children.length > 0) node.children.splice(edit.at % node.children.length, 1);
      break;
    case "setPerson":
      node.person = edit.person === null ? null : ref(edit.person);
      break;
    case "addPartner":
      node.partners.unshift({ type: edit.type, people: [ref(edit.person)] });
      break;
    case "dropPartner":
      node.partners.shift();
      break;
    case "parents":
      node.parents = edit.people.map(ref);
      node.parentType = edit.type;
      break;
    case "hide":
      node.hidden = !node.hidden;
      break;
    case "moveChild": {
      const move = moveOf(next, edit);
      if (!move) break;
      const moved = takeOut(next, move.from);
      at(next, move.path.replace(/\/children\/-$/, "")).children.push(moved);
      break;
    }
  }
  return next;
}

describe("PATCH /api/trees/{id} with a JSON Patch", () => {
  it("stores exactly what the whole body stores, over random edit sequences, from the structure held in memory and from the database alike", async () => {
    // A: whole {data}; B: JSON Patch from the structure held since its last save (issue 23);
    // C: the same patch after that structure is forgotten, so it is read from the database
    const trees = [
      await createTree(owner.token),
      await createTree(owner.token),
      await createTree(owner.token),
    ] as const;
    const peopleA = await insertPeople(trees[0]._id, 6);
    const mapped = await Promise.all(
      [trees[1], trees[2]].map(async (tree) => {
        const people = await insertPeople(tree._id, 6);
        return new Map(peopleA.map((id, i) => [id, people[i]!]));
      }),
    );
    // the same people in every tree, by position
    // every id of A's people, wherever it stands (a reference, or a bare `_id` value)
    const inTree = (map: Map<string, string>, data: unknown): TreeNode =>
      JSON.parse(
        JSON.stringify(data).replace(/"([0-9a-f-]{36})"/g, (whole, id: string) => {
          const other = map.get(id);
          return other ? `"${other}"` : whole;
        }),
      ) as TreeNode;
    const [toB, toC] = mapped as [Map<string, string>, Map<string, string>];

    // some 30 kB: stored in chunks (ADR 037), so that the patch writes some of them
    let current: TreeNode = buildLegacy(peopleA, { nodes: 50, branching: 2, partnerRows: 1 });
    expect((await sendWhole(trees[0]._id, current)).status).toBe(200);
    expect((await sendWhole(trees[1]._id, inTree(toB, current))).status).toBe(200);
    expect((await sendWhole(trees[2]._id, inTree(toC, current))).status).toBe(200);
    let version = 2;

    await fc.assert(
      fc.asyncProperty(fc.array(anEdit, { minLength: 1, maxLength: 6 }), async (edits) => {
        // the patch: each edit's own operations, in order (a move as one RFC 6902 move)
        let next = current;
        const operations: unknown[] = [];
        for (const edit of edits) {
          const after = applyEdit(next, edit, peopleA);
          const move = edit.kind === "moveChild" ? moveOf(next, edit) : null;
          if (move) operations.push({ op: "move", ...move });
          else operations.push(...compare({ data: next }, { data: after }));
          next = after;
        }
        const whole = await sendWhole(trees[0]._id, next, `"${version}"`);
        expect(heldVersion(trees[1]._id)).toBe(version);
        const held = await sendPatch(trees[1]._id, inTree(toB, operations), `"${version}"`);
        forgetStructure(trees[2]._id);
        expect(heldVersion(trees[2]._id)).toBeUndefined();
        const read = await sendPatch(trees[2]._id, inTree(toC, operations), `"${version}"`);
        expect(whole.status).toBe(200);
        for (const patched of [held, read]) {
          expect(patched.status, JSON.stringify(patched.body)).toBe(200);
          expect(patched.body.version).toBe(whole.body.version);
          expect(patched.headers.get("etag")).toBe(whole.headers.get("etag"));
        }
        const stored = await storedData(trees[0]._id);
        expect(await storedData(trees[1]._id)).toEqual(inTree(toB, stored));
        expect(await storedData(trees[2]._id)).toEqual(inTree(toC, stored));
        current = next;
        version += 1;
      }),
      { numRuns: 25, seed: 20261124 },
    );
  });

  it("gives a big tree's one-child edit in a few hundred bytes instead of megabytes", async () => {
    const tree = await createTree(owner.token);
    const people = await insertPeople(tree._id, 200);
    const data = buildLegacy(people, { nodes: 5_000 });
    expect((await sendWhole(tree._id, data)).status).toBe(200);
    const next = structuredClone(data);
    next.children[0]!.children.push({ ...emptyNode(), person: { _id: people[7]! } });
    const operations = compare({ data }, { data: next });
    expect(JSON.stringify(operations).length).toBeLessThan(300);
    expect(JSON.stringify({ data: next }).length).toBeGreaterThan(2_000_000);
    const response = await sendPatch(tree._id, operations, '"2"');
    expect(response.status).toBe(200);
    expect(await storedData(tree._id)).toEqual(next);
  });

  it("refuses a stale If-Match with 409 and the current ETag, as a whole save would", async () => {
    const tree = await createTree(owner.token);
    expect((await sendWhole(tree._id, { ...emptyNode(), hidden: true })).status).toBe(200);
    const stale = await sendPatch(
      tree._id,
      [{ op: "add", path: "/data/children/-", value: {} }],
      '"1"',
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ errors: [{ detail: CONFLICT }] });
    expect(stale.headers.get("etag")).toBe('"2-1"');
    expect(await storedData(tree._id)).toEqual({ ...emptyNode(), hidden: true });
  });

  it("requires If-Match: a patch means nothing against an unknown version", async () => {
    const tree = await createTree(owner.token);
    const response = await sendPatch(tree._id, [
      { op: "add", path: "/data/children/-", value: {} },
    ]);
    expect(response.status).toBe(428);
    expect(detailOf(response)).toBe(
      "A JSON Patch must be sent with If-Match: the ETag of the tree version it was made from",
    );
  });

  it("accepts the tree's full ETag and a passing test operation", async () => {
    const tree = await createTree(owner.token);
    const response = await sendPatch(
      tree._id,
      [
        { op: "test", path: "/data/hidden", value: false },
        { op: "replace", path: "/data/hidden", value: true },
      ],
      '"1-1"',
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ _id: tree._id, version: 2 });
    expect(((await storedData(tree._id)) as unknown as TreeNode).hidden).toBe(true);
  });

  it("keeps the structure it holds through a refused patch: the applier takes its ops back", async () => {
    const tree = await createTree(owner.token);
    const added = await sendPatch(tree._id, [{ op: "add", path: "/data/children/-", value: {} }], '"1"');
    expect(added.status).toBe(200);
    expect(heldVersion(tree._id)).toBe(2);
    const refused = await sendPatch(
      tree._id,
      [
        { op: "add", path: "/data/children/-", value: {} },
        { op: "replace", path: "/data/hidden", value: true },
        { op: "test", path: "/data/children/0/hidden", value: true },
      ],
      '"2"',
    );
    expect(refused.status).toBe(422);
    // still held, and still the stored version: the next patch starts from it
    expect(heldVersion(tree._id)).toBe(2);
    const next = await sendPatch(tree._id, [{ op: "add", path: "/data/children/-", value: {} }], '"2"');
    expect(next.status).toBe(200);
    const data = (await storedData(tree._id))!;
    expect(data.hidden).toBe(false);
    expect(data.children).toHaveLength(2);
  });

  describe("refuses hostile and broken patches, storing nothing", () => {
    let tree: Tree;
    let person: string;
    beforeAll(async () => {
      tree = await createTree(owner.token);
      [person] = (await insertPeople(tree._id, 1)) as [string];
    });

    const tooMany = Array.from({ length: TREE_PATCH_LIMITS.maxOperations + 1 }, () => ({
      op: "test",
      path: "/data/hidden",
      value: false,
    }));

    it.each<[string, unknown, number, string]>([
      [
        "a path that is not in the tree",
        [{ op: "replace", path: "/data/children/3/person", value: null }],
        422,
        "Operation 0 (replace /data/children/3/person) cannot be applied: its path is not in the tree",
      ],
      [
        "an index past the end of a list",
        [{ op: "add", path: "/data/children/5", value: {} }],
        422,
        "Operation 0 (add /data/children/5) cannot be applied: a list index in its path is past the end of the list",
      ],
      [
        "a failing test operation",
        [
          { op: "test", path: "/data/hidden", value: true },
          { op: "replace", path: "/data/hidden", value: false },
        ],
        422,
        "Operation 0 (test /data/hidden) cannot be applied: its test failed: the tree does not hold that value there",
      ],
      [
        "__proto__ at the top",
        [{ op: "add", path: "/__proto__/polluted", value: "yes" }],
        400,
        "Only the structure can be patched: every path starts with /data",
      ],
      [
        "__proto__ inside the structure",
        [{ op: "add", path: "/data/__proto__/polluted", value: "yes" }],
        400,
        "A path may not name __proto__, constructor or prototype",
      ],
      [
        "constructor/prototype",
        [{ op: "add", path: "/data/constructor/prototype/polluted", value: "yes" }],
        400,
        "A path may not name __proto__, constructor or prototype",
      ],
      [
        "__proto__ as a move source",
        [{ op: "copy", from: "/data/__proto__", path: "/data/children/-" }],
        400,
        "A path may not name __proto__, constructor or prototype",
      ],
      [
        "a path outside the structure",
        [{ op: "replace", path: "/title", value: "Hijacked" }],
        400,
        "Only the structure can be patched: every path starts with /data",
      ],
      [
        "an operation RFC 6902 does not have",
        [{ op: "_get", path: "/data" }],
        400,
        "op must be one of add, remove, replace, move, copy, test",
      ],
      [
        "an add without a value",
        [{ op: "add", path: "/data/children/-" }],
        400,
        "A add operation needs a value",
      ],
      [
        "a body that is not a list",
        { op: "remove", path: "/data" },
        400,
        "A JSON Patch must be an array of operations",
      ],
      [
        "too many operations",
        tooMany,
        400,
        `A JSON Patch can hold at most ${TREE_PATCH_LIMITS.maxOperations} operations; send the whole {data} instead`,
      ],
      [
        "a result the schema refuses",
        [{ op: "replace", path: "/data/parentType", value: "WOOHOO" }],
        400,
        'data.parentType: Invalid option: expected one of "NONE"|"ABDUCTION"|"CLONE"',
      ],
      [
        "a result that places someone of another tree",
        [
          {
            op: "replace",
            path: "/data/person",
            value: { _id: "0b6f5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b" },
          },
        ],
        400,
        "The tree refers to people who are not in this tree: 0b6f5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
      ],
      [
        "removing the whole structure",
        [{ op: "remove", path: "/data" }],
        422,
        "Operation 0 (remove /data) cannot be applied: the root node cannot be removed; replace it instead",
      ],
    ])("%s", async (_name, operations, status, detail) => {
      const before = await storedData(tree._id);
      const response = await sendPatch(tree._id, operations, '"1"');
      expect(response.status).toBe(status);
      expect(detailOf(response)).toBe(detail);
      expect(await storedData(tree._id)).toEqual(before);
      expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("still accepts a good patch afterwards", async () => {
      const response = await sendPatch(
        tree._id,
        [{ op: "replace", path: "/data/person", value: { _id: person, firstName: "Sent" } }],
        '"1"',
      );
      expect(response.status).toBe(200);
      expect(await storedData(tree._id)).toEqual({ ...emptyNode(), person: { _id: person } });
      expect(treeData.parse(await storedData(tree._id))).toEqual(await storedData(tree._id));
    });
  });
});
