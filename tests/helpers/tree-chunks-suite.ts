// Issue 23, saves that cost what the edit costs (ADR 037), on both engines: tests/api/tree-chunks.test.ts
// (PostgreSQL) and tests/pglite/tree-chunks.test.ts (the embedded default). A large structure is
// stored in chunks; a one-child JSON Patch rewrites one chunk, not the tree; every reader of the
// structure (the editor's read, the published copy, the export, heirs, a person's deletion, the
// next save after the held structure is gone) sees the whole structure as it was saved.
import { beforeAll, describe, expect, it } from "vitest";
import { type Tree, type TreeNode, treeData } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { forgetStructure } from "@/lib/server/trees/structure-cache";
import { api } from "./api";
import { structureSaves, treePath } from "./tree-saves";
import { type TestUser, buildLegacy, createTree, createUser, insertPeople } from "./factories";

/** The stored rows of a tree's structure: its top and its chunks, each with its row version. */
async function storedRows(treeId: string) {
  const rows = await db.$queryRaw<{ key: number | null; data: string; xmin: string }[]>`
    SELECT NULL::int AS "key", "data"::text AS "data", xmin::text AS "xmin" FROM "Tree" WHERE "id" = ${treeId}
    UNION ALL
    SELECT "key", "data"::text, xmin::text FROM "TreeChunk" WHERE "treeId" = ${treeId}`;
  return new Map(rows.map((row) => [row.key ?? "top", row] as const));
}

/** The ids-only form of a structure as the API answers it (references carry names). */
const idsOnly = (data: unknown): TreeNode => treeData.parse(data);

/** The JSON Pointer of the node reached by following the first child `depth` times. */
const deepPath = (depth: number) => `/data${"/children/0".repeat(depth)}`;

export function describeTreeChunks(engine: string): void {
  describe(`structures stored in chunks on ${engine} (issue 23, ADR 037)`, { timeout: 120_000 }, () => {
    let owner: TestUser;
    beforeAll(async () => {
      owner = await createUser();
    });
    const { sendPatch, sendWhole } = structureSaves(() => owner.token);
    const read = async (treeId: string) =>
      (await api.get<Tree>(treePath(treeId), { token: owner.token })).body;

    /** A tree of 600 nodes (some 400 kB) in a chain of families three wide. */
    async function largeTree() {
      const tree = await createTree(owner.token);
      const people = await insertPeople(tree._id, 120);
      const data = treeData.parse(buildLegacy(people, { nodes: 600, branching: 2 }));
      const saved = await sendWhole(tree._id, data);
      expect(saved.status).toBe(200);
      return { tree, people, data, etag: saved.headers.get("etag")! };
    }

    it("stores a large structure in chunks and reads it whole", async () => {
      const { tree, data } = await largeTree();
      const rows = await storedRows(tree._id);
      expect(rows.size).toBeGreaterThan(5);
      expect(rows.get("top")!.data.length).toBeLessThan(JSON.stringify(data).length / 5);
      expect(idsOnly((await read(tree._id)).data)).toEqual(data);
    });

    it("rewrites one chunk for a one-child patch, and the tree's top not at all", async () => {
      const { tree, data, etag } = await largeTree();
      const before = await storedRows(tree._id);
      const patched = await sendPatch(
        tree._id,
        [{ op: "add", path: `${deepPath(7)}/children/-`, value: {} }],
        etag,
      );
      expect(patched.status).toBe(200);
      const after = await storedRows(tree._id);
      const rewritten = [...after].filter(
        ([key, row]) => key !== "top" && before.get(key)?.xmin !== row.xmin,
      );
      expect(rewritten.length).toBeGreaterThanOrEqual(1);
      expect(rewritten.length).toBeLessThanOrEqual(2);
      expect(after.get("top")!.data).toBe(before.get("top")!.data);
      let node = data;
      for (let i = 0; i < 7; i++) node = node.children[0]!;
      node.children.push(treeData.parse({}));
      expect(idsOnly((await read(tree._id)).data)).toEqual(data);
    });

    it("saves what it changed after the held structure is gone, reading the chunks back", async () => {
      const { tree, data, etag } = await largeTree();
      forgetStructure(tree._id);
      const before = await storedRows(tree._id);
      const patched = await sendPatch(
        tree._id,
        [{ op: "replace", path: `${deepPath(5)}/hidden`, value: true }],
        etag,
      );
      expect(patched.status).toBe(200);
      const after = await storedRows(tree._id);
      const rewritten = [...after].filter(([key, row]) => before.get(key)?.xmin !== row.xmin);
      // the chunk of that node, and the top's row for the version (not its data)
      expect(rewritten.length).toBeLessThanOrEqual(2);
      expect(after.get("top")!.data).toBe(before.get("top")!.data);
      let node = data;
      for (let i = 0; i < 5; i++) node = node.children[0]!;
      node.hidden = true;
      expect(idsOnly((await read(tree._id)).data)).toEqual(data);
    });

    it("drops the chunks of a subtree taken out, and a whole-body save starts a new set", async () => {
      const { tree, etag } = await largeTree();
      const removed = await sendPatch(tree._id, [{ op: "remove", path: deepPath(1) }], etag);
      expect(removed.status).toBe(200);
      const kept = (await read(tree._id)).data;
      expect(kept.children).toHaveLength(1);
      const keys = [...(await storedRows(tree._id)).keys()];
      // every stored chunk is in the structure: the whole text names each once
      const text = (
        await db.$queryRaw<{ text: string }[]>`
          SELECT heirloom_tree_text("id", "data") AS "text" FROM "Tree" WHERE "id" = ${tree._id}`
      )[0]!.text;
      expect(text).not.toContain('"$chunk"');
      expect(idsOnly(JSON.parse(text))).toEqual(idsOnly(kept));
      const all = (await storedRows(tree._id)).get("top")!.data;
      const named = [...all.matchAll(/"\$chunk": (\d+)/g)].length;
      expect(named).toBeGreaterThan(0);
      expect(keys.length).toBeLessThan(40);

      const small = { ...treeData.parse({}), children: [treeData.parse({})] };
      expect((await sendWhole(tree._id, small)).status).toBe(200);
      expect([...(await storedRows(tree._id)).keys()]).toEqual(["top"]);
      expect(idsOnly((await read(tree._id)).data)).toEqual(small);
    });

    it("publishes, exports, places heirs and deletes people through the whole structure", async () => {
      const { tree, people, data } = await largeTree();
      const deepest = data.children[0]!.children[0]!.children[0]!.children[0]!.children[0]!;
      const heir = deepest.person!._id;

      const heirs = await api.put(
        `/api/trees/${tree._id}/heirs`,
        { heirs: [heir] },
        { token: owner.token },
      );
      expect(heirs.status).toBe(200);

      const published = await api.put(`/api/published/${tree._id}`, undefined, {
        token: owner.token,
      });
      expect(published.status).toBe(200);
      const copy = await api.get<{ data: unknown }>(`/api/published/${tree._id}`);
      expect(idsOnly(copy.body.data)).toEqual(data);

      const exported = await api.get(`/api/trees/${tree._id}/export?format=gedcom`, {
        token: owner.token,
      });
      expect(exported.status).toBe(200);

      const gone = people[0]!;
      expect((await api.delete(`/api/people/${gone}`, undefined, { token: owner.token })).status).toBe(
        200,
      );
      const after = JSON.stringify((await read(tree._id)).data);
      expect(after).not.toContain(gone);
      expect(after).toContain(people[1]!);
    });
  });
}
