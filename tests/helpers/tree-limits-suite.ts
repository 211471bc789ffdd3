// Issue 22, findings 1, 2 and 7 (JSON Patch), run on both engines: tests/api/tree-limits.test.ts
// (PostgreSQL) and tests/pglite/tree-limits.test.ts (the embedded default). Every structure save
// is bounded by what it produces, op by op for a JSON Patch, with the limits of lib/tree/limits.ts.
//
// On the code before the fix, findings 1 and 2 took seconds and gigabytes. Each test first sends
// a small form of its request, which that code answered 200 (or refused only after building the
// whole result); the test fails there, by assertion, before the dangerous form is ever sent, so
// the old code fails these tests without taking the test runner down.
import { beforeAll, describe, expect, it } from "vitest";
import { TREE_LIMITS, type TreeNode } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { readTreeData } from "@/lib/server/trees/read-tree-data";
import { emptyNode } from "@/lib/tree/empty-node";
import { fullBinaryTree } from "@/lib/tree/test-trees";
import { api, detailOf } from "./api";
import { structureSaves, treePath } from "./tree-saves";
import { type TestUser, createTree, createUser, insertPeople } from "./factories";

// The limits' sentences, written out (lib/tree/limits.ts holds the numbers).
const LIMIT_TEXT = {
  nodes: "A tree can hold at most 50000 nodes",
  depth: "A tree can be at most 500 generations deep",
  referencesPerNode:
    "A tree node can hold at most 500 person references (its person, its partners' people, its parents and adoptive parents)",
};
const WORK_TEXT =
  "A JSON Patch can walk at most 100000 nodes and references in all; send the whole {data} instead";

export function describeTreeLimits(engine: string): void {
  describe(`structure limits on ${engine} (issue 22)`, () => {
    let owner: TestUser;
    beforeAll(async () => {
      owner = await createUser();
    });

    const { sendPatch, sendWhole } = structureSaves(() => owner.token);
    /** The stored version and whole structure, its chunks put in place (ADR 037). */
    const stored = async (treeId: string) => ({
      ...(await db.tree.findUniqueOrThrow({ where: { id: treeId }, select: { version: true } })),
      data: await readTreeData(db, treeId),
    });

    /** Finding 1's node: one person, 100 partner rows of 100 references, 100 parents, 100 adoptive. */
    const crowdedNode = (person: string) => {
      const ref = { _id: person };
      const hundred = Array.from({ length: 100 }, () => ref);
      return {
        person: ref,
        partners: Array.from({ length: 100 }, () => ({ type: "MARRIED", people: hundred })),
        children: [],
        parentType: "NONE",
        parents: hundred,
        adoptiveParents: hundred,
        hidden: false,
      };
    };
    const copies = (k: number) =>
      Array.from({ length: k }, () => ({ op: "copy", from: "/data", path: "/data/children/-" }));

    it("finding 1: the 504 KB patch (a node of 10,201 references, then 8 copies of /data) is refused at its first op, naming the limit", async () => {
      const tree = await createTree(owner.token);
      const [person] = (await insertPeople(tree._id, 1)) as [string];
      const before = await stored(tree._id);
      const replace = { op: "replace", path: "/data", value: crowdedNode(person) };
      const referencesPerNode = `Operation 0 (replace /data) would pass a limit: ${LIMIT_TEXT.referencesPerNode}`;

      // the small form first: the node alone, which the old code stored
      const alone = await sendPatch(tree._id, [replace], '"1"');
      expect(alone.status).toBe(422);
      expect(detailOf(alone)).toBe(referencesPerNode);

      const operations = [replace, ...copies(8)];
      // about half a megabyte (504 KB in the issue, with longer ids than these uuids)
      expect(JSON.stringify(operations).length).toBeGreaterThan(480_000);
      const response = await sendPatch(tree._id, operations, '"1"');
      expect(response.status).toBe(422);
      expect(detailOf(response)).toBe(referencesPerNode);
      expect(await stored(tree._id)).toEqual(before);
    });

    it("finding 1: a whole {data} with that node is refused with the same limit", async () => {
      const tree = await createTree(owner.token);
      const [person] = (await insertPeople(tree._id, 1)) as [string];
      const response = await sendWhole(tree._id, crowdedNode(person));
      expect(response.status).toBe(400);
      expect(detailOf(response)).toBe(LIMIT_TEXT.referencesPerNode);
      expect((await stored(tree._id)).version).toBe(1);
    });

    it("finding 2: k copies of /data stop at the first copy past the node limit, before it is made", async () => {
      const tree = await createTree(owner.token);
      const before = await stored(tree._id);
      // 2^15 = 32,768 nodes fit; the 16th copy (op 15) would make 65,536
      const nodes = `Operation 15 (copy /data → /data/children/-) would pass a limit: ${LIMIT_TEXT.nodes}`;
      const sixteen = await sendPatch(tree._id, copies(16), '"1"');
      expect(sixteen.status).toBe(422);
      expect(detailOf(sixteen)).toBe(nodes);

      // the same at 21 and at 40 copies (1.9 KB): ended at the same op, nothing built past it
      for (const k of [21, 40]) {
        const response = await sendPatch(tree._id, copies(k), '"1"');
        expect(response.status).toBe(422);
        expect(detailOf(response)).toBe(nodes);
      }
      expect(await stored(tree._id)).toEqual(before);

      // copies within the limits still work
      const fine = await sendPatch(tree._id, copies(3), '"1"');
      expect(fine.status).toBe(200);
      const data = (await stored(tree._id)).data as unknown as TreeNode;
      expect(data.children).toHaveLength(3);
      expect(data.children[2]!.children).toHaveLength(2);
    });

    it("finding 2: [copy, remove] pairs on a 32,767-node tree stop when the patch's work passes its budget", async () => {
      const tree = await createTree(owner.token);
      // a full binary tree of 15 generations: /data/children/0 holds 16,383 nodes
      // stored directly (a whole save of it is tested elsewhere), as version 2
      await db.$executeRawUnsafe(
        `UPDATE "Tree" SET "data" = $1::jsonb, "version" = 2 WHERE "id" = $2`,
        JSON.stringify(fullBinaryTree(15)),
        tree._id,
      );
      const before = await stored(tree._id);
      const pairs = (n: number) =>
        Array.from({ length: n }, () => [
          { op: "copy", from: "/data/children/0", path: "/data/children/-" },
          { op: "remove", path: "/data/children/2" },
        ]).flat();
      // each pair walks 2 x 16,383 nodes: the budget ends the patch within its first 4 pairs
      const small = await sendPatch(tree._id, pairs(24), '"2"');
      expect(small.status).toBe(422);
      const detail = detailOf(small);
      expect(detail).toMatch(
        /^Operation \d+ \((copy \/data\/children\/0 → \/data\/children\/-|remove \/data\/children\/2)\) would pass a limit: /,
      );
      expect(detail?.endsWith(WORK_TEXT)).toBe(true);

      const large = await sendPatch(tree._id, pairs(200), '"2"');
      expect(large.status).toBe(422);
      expect(detailOf(large)).toBe(detail);
      expect(await stored(tree._id)).toEqual(before);
    }, 300_000);

    it("counts add and replace values too: a value past a limit is refused before it is stored", async () => {
      const tree = await createTree(owner.token);
      const wide = { children: Array.from({ length: TREE_LIMITS.maxNodes }, () => ({})) };
      const response = await sendPatch(
        tree._id,
        [{ op: "add", path: "/data/children/-", value: wide }],
        '"1"',
      );
      expect(response.status).toBe(422);
      expect(detailOf(response)).toBe(
        `Operation 0 (add /data/children/-) would pass a limit: ${LIMIT_TEXT.nodes}`,
      );
      let deep: Record<string, unknown> = {};
      const top = deep;
      for (let i = 0; i < TREE_LIMITS.maxDepth; i++) {
        const child = {};
        deep.children = [child];
        deep = child;
      }
      const tooDeep = await sendPatch(
        tree._id,
        [{ op: "add", path: "/data/children/-", value: top }],
        '"1"',
      );
      expect(tooDeep.status).toBe(422);
      expect(detailOf(tooDeep)).toBe(
        `Operation 0 (add /data/children/-) would pass a limit: ${LIMIT_TEXT.depth}`,
      );
      expect((await stored(tree._id)).version).toBe(1);
    });

    describe("a tree stored over a limit before the limit existed", () => {
      let treeId: string;
      let person: string;
      beforeAll(async () => {
        const tree = await createTree(owner.token);
        treeId = tree._id;
        [person] = (await insertPeople(treeId, 1)) as [string];
        // what finding 1 stored: written past the service, as the old code let it be
        const root = {
          ...crowdedNode(person),
          children: [crowdedNode(person), crowdedNode(person)],
        };
        await db.$executeRawUnsafe(
          `UPDATE "Tree" SET "data" = $1::jsonb, "version" = 2 WHERE "id" = $2`,
          JSON.stringify(root),
          treeId,
        );
      });

      it("stays readable", async () => {
        const read = await api.get<{ data: TreeNode }>(treePath(treeId), { token: owner.token });
        expect(read.status).toBe(200);
        expect(read.body.data.children).toHaveLength(2);
      });

      it("can be trimmed by its owner with a patch, though still over after it", async () => {
        const trim = await sendPatch(
          treeId,
          [
            { op: "remove", path: "/data/children/1" },
            { op: "remove", path: "/data/partners/99" },
            { op: "replace", path: "/data/children/0/partners", value: [] },
          ],
          '"2"',
        );
        expect(trim.status, JSON.stringify(trim.body)).toBe(200);
        const data = (await stored(treeId)).data as unknown as TreeNode;
        expect(data.children).toHaveLength(1);
        expect(data.partners).toHaveLength(99);
        expect(data.children[0]!.partners).toEqual([]);
      });

      it("refuses what would make it larger", async () => {
        const grow = await sendPatch(
          treeId,
          [{ op: "copy", from: "/data/partners/0", path: "/data/partners/-" }],
          '"3"',
        );
        expect(grow.status).toBe(422);
        expect(detailOf(grow)).toBe(
          `Operation 0 (copy /data/partners/0 → /data/partners/-) would pass a limit: ${LIMIT_TEXT.referencesPerNode}`,
        );
        const copyNode = await sendPatch(
          treeId,
          [{ op: "copy", from: "/data", path: "/data/children/-" }],
          '"3"',
        );
        expect(copyNode.status).toBe(422);
        expect(detailOf(copyNode)).toBe(
          `Operation 0 (copy /data → /data/children/-) would pass a limit: ${LIMIT_TEXT.referencesPerNode}`,
        );
        expect((await stored(treeId)).version).toBe(3);
      });
    });

    describe("JSON Pointers and moves, strictly as RFC 6901 and 6902 say (finding 7)", () => {
      let treeId: string;
      let data: TreeNode;
      beforeAll(async () => {
        const tree = await createTree(owner.token);
        treeId = tree._id;
        const [a, b] = (await insertPeople(treeId, 2)) as [string, string];
        data = {
          ...emptyNode(),
          children: [
            { ...emptyNode(), person: { _id: a }, children: [{ ...emptyNode(), hidden: true }] },
            { ...emptyNode(), person: { _id: b } },
          ],
        };
        expect((await sendWhole(treeId, data)).status).toBe(200);
      });

      it.each<[string, unknown[], number, string]>([
        [
          "a move of the root into its own grandchild",
          [{ op: "move", from: "/data", path: "/data/children/0/children/-" }],
          422,
          "Operation 0 (move /data → /data/children/0/children/-) cannot be applied: its path is inside its from path: nothing can be moved into itself (RFC 6902, 4.4)",
        ],
        [
          "a move of a node into its own child",
          [{ op: "move", from: "/data/children/0", path: "/data/children/0/children/-" }],
          422,
          "Operation 0 (move /data/children/0 → /data/children/0/children/-) cannot be applied: its path is inside its from path: nothing can be moved into itself (RFC 6902, 4.4)",
        ],
        [
          "an index with a leading zero",
          [{ op: "replace", path: "/data/children/01/hidden", value: true }],
          422,
          "Operation 0 (replace /data/children/01/hidden) cannot be applied: a list index in its path must be 0 or digits without a leading zero (RFC 6901)",
        ],
        [
          "~2",
          [{ op: "add", path: "/data/children~2", value: [] }],
          400,
          "A path may use ~ only as ~0 (for ~) or ~1 (for /), as RFC 6901 says",
        ],
        [
          "a trailing ~",
          [{ op: "replace", path: "/data/hidden~", value: true }],
          400,
          "A path may use ~ only as ~0 (for ~) or ~1 (for /), as RFC 6901 says",
        ],
        [
          "- in a replace",
          [{ op: "replace", path: "/data/children/-", value: {} }],
          422,
          "Operation 0 (replace /data/children/-) cannot be applied: - (the end of a list) can only end the path of an add, a move or a copy",
        ],
        [
          "- in the middle of a path",
          [{ op: "add", path: "/data/children/-/hidden", value: true }],
          422,
          "Operation 0 (add /data/children/-/hidden) cannot be applied: - (the end of a list) can only end the path of an add, a move or a copy",
        ],
        [
          "- as a from",
          [{ op: "copy", from: "/data/children/-", path: "/data/children/-" }],
          422,
          "Operation 0 (copy /data/children/- → /data/children/-) cannot be applied: - (the end of a list) can only end the path of an add, a move or a copy",
        ],
        [
          "a field a node does not have",
          [{ op: "add", path: "/data/polluted", value: "yes" }],
          422,
          "Operation 0 (add /data/polluted) cannot be applied: its path is not in the tree",
        ],
        [
          "__proto__ escaped as a key",
          [{ op: "add", path: "/data/__proto__", value: { polluted: "yes" } }],
          400,
          "A path may not name __proto__, constructor or prototype",
        ],
        [
          "removing the root",
          [{ op: "remove", path: "/data" }],
          422,
          "Operation 0 (remove /data) cannot be applied: the root node cannot be removed; replace it instead",
        ],
        [
          "removing a reference's id",
          [{ op: "remove", path: "/data/children/0/person/_id" }],
          422,
          "Operation 2 (remove /data/children/0/person/_id) cannot be applied: a person reference cannot lose its _id",
        ],
      ])("%s", async (_name, operations, status, detail) => {
        const ops =
          _name === "removing a reference's id"
            ? [
                { op: "test", path: "/data/hidden", value: false },
                { op: "test", path: "/data/children/1/hidden", value: false },
                ...operations,
              ]
            : operations;
        const response = await sendPatch(treeId, ops, '"2"');
        expect(response.status).toBe(status);
        expect(detailOf(response)).toBe(detail);
        expect((await stored(treeId)).data).toEqual(data);
        expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
      });

      it("moves a node to a sibling's children, and a move onto itself changes nothing", async () => {
        const response = await sendPatch(
          treeId,
          [
            { op: "move", from: "/data/children/1", path: "/data/children/1" },
            { op: "move", from: "/data/children/1", path: "/data/children/0/children/0" },
            { op: "test", path: "/data/children/0/children/1/hidden", value: true },
          ],
          '"2"',
        );
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        const after = (await stored(treeId)).data as unknown as TreeNode;
        expect(after.children).toHaveLength(1);
        expect(after.children[0]!.children.map((c) => c.person)).toEqual([
          data.children[1]!.person,
          null,
        ]);
      });
    });
  });
}
