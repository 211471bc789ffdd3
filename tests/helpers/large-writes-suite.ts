// Issue 32, finding 4, on both engines (tests/api/large-writes.test.ts for PostgreSQL,
// tests/pglite/large-writes.test.ts for the embedded default): a large tree's whole-body save, heirs
// check and household sync run in the worker pool, not on the request thread, and store exactly
// what the request thread stored; If-Match, chunks and the next patch work as before; heirs writes
// are rate-limited per account.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type Tree, type TreeNode, treeData } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { HEIRS_PER_ACCOUNT } from "@/lib/server/trees/set-tree-heirs";
import { chunkedWrite } from "@/lib/server/trees/structure-json";
import { OFF_THREAD_CHARS, orderHeirs } from "@/lib/server/trees/structure-work";
import { buildKinship } from "@/lib/tree/placements";
import { describeZodError } from "@/lib/validation-message";
import { workerPool } from "@/lib/server/workers/pool";
import type { TaskName } from "@/lib/server/workers/tasks";
import { api, call } from "./api";
import { type TestUser, buildLegacy, createTree, createUser, insertPeople } from "./factories";
import { FAMILY_HOUSEHOLD, familySave } from "./sims4-family";
import { structureSaves, treePath } from "./tree-saves";

const heirsPath = (treeId: string) => `/api/trees/${treeId}/heirs`;

/**
 * Watches the process's worker pool (the one the routes use): each task's name, and `after` run
 * once a task has answered and before its answer goes back to the caller.
 */
function watchTasks(after?: (name: TaskName) => Promise<void>): { names: TaskName[] } {
  const seen = { names: [] as TaskName[] };
  const pool = workerPool();
  const run = pool.run.bind(pool);
  vi.spyOn(pool, "run").mockImplementation(async (name, input, transfer) => {
    seen.names.push(name);
    const answer = await run(name, input, transfer);
    await after?.(name);
    return answer;
  });
  return seen;
}

/** The detail of an error answer. */
const detailOf = (answer: { body: unknown }) =>
  (answer.body as { errors: { detail: string }[] }).errors[0]!.detail;

/** The stored top and chunks of a tree, each parsed, by key ("top" for the tree's row). */
async function storedParts(treeId: string): Promise<Map<number | "top", unknown>> {
  const rows = await db.$queryRaw<{ key: number | null; data: string }[]>`
    SELECT NULL::int AS "key", "data"::text AS "data" FROM "Tree" WHERE "id" = ${treeId}
    UNION ALL
    SELECT "key", "data"::text FROM "TreeChunk" WHERE "treeId" = ${treeId}`;
  return new Map(rows.map((row) => [row.key ?? "top", JSON.parse(row.data)] as const));
}

/** What the request thread's own path (chunkedWrite of a new set) stores for `data`. */
function partsOnTheRequestThread(data: TreeNode): Map<number | "top", unknown> {
  const write = chunkedWrite(treeData.parse(data), null);
  return new Map<number | "top", unknown>([
    ["top", JSON.parse(write.root!)],
    ...write.put.map((chunk) => [chunk.key, JSON.parse(chunk.text)] as [number, unknown]),
  ]);
}

export function describeLargeWrites(engine: string): void {
  describe(
    `large-tree writes off the request thread on ${engine} (issue 32)`,
    { timeout: 180_000 },
    () => {
      let owner: TestUser;
      beforeAll(async () => {
        owner = await createUser();
      });
      afterEach(() => {
        vi.restoreAllMocks();
      });
      const { sendPatch, sendWhole } = structureSaves(() => owner.token);

      /** A tree whose whole body (some 400 kB, 600 nodes) is past OFF_THREAD_CHARS. */
      async function largeTree() {
        const tree = await createTree(owner.token);
        const people = await insertPeople(tree._id, 120);
        const data = treeData.parse(buildLegacy(people, { nodes: 600, branching: 2 }));
        expect(JSON.stringify({ data }).length).toBeGreaterThan(OFF_THREAD_CHARS);
        return { tree, people, data };
      }

      it("prepares a large whole-tree save in the worker pool and stores what the request thread would", async () => {
        const { tree, data } = await largeTree();
        const tasks = watchTasks();
        const saved = await sendWhole(tree._id, data);
        expect(saved.status).toBe(200);
        expect(tasks.names).toContain("treeBody");
        expect(await storedParts(tree._id)).toEqual(partsOnTheRequestThread(data));
        const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
        expect(treeData.parse(read.body.data)).toEqual(data);
        expect(read.headers.get("etag")).toBe(saved.headers.get("etag"));
      });

      it("keeps If-Match, and the next patch reads the chunks back and rewrites one or two", async () => {
        const { tree, data } = await largeTree();
        const first = await sendWhole(tree._id, data);
        const etag = first.headers.get("etag")!;
        const tasks = watchTasks();
        // a save against the version before is refused, with the current ETag, and changes nothing
        const stale = await sendWhole(tree._id, { ...data, hidden: true }, '"0-0"');
        expect(stale.status).toBe(409);
        expect(stale.headers.get("etag")).toBe(etag);
        expect(tasks.names).toContain("treeBody");
        const before = await storedParts(tree._id);
        expect(before).toEqual(partsOnTheRequestThread(data));
        // the next patch: the structure was never held on this thread, so it is read back by its chunks
        const patched = await sendPatch(
          tree._id,
          [{ op: "replace", path: "/data/children/0/children/0/children/0/hidden", value: true }],
          etag,
        );
        expect(patched.status).toBe(200);
        const after = await storedParts(tree._id);
        const changed = [...after.keys()].filter(
          (key) => JSON.stringify(after.get(key)) !== JSON.stringify(before.get(key)),
        );
        expect(changed.length).toBeGreaterThanOrEqual(1);
        expect(changed.length).toBeLessThanOrEqual(2);
        expect(changed).not.toContain("top");
        data.children[0]!.children[0]!.children[0]!.hidden = true;
        const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
        expect(treeData.parse(read.body.data)).toEqual(data);
      });

      it("answers a large body's schema error and unknown Sims as the request thread does", async () => {
        const { tree, data } = await largeTree();
        const tasks = watchTasks();
        const broken = structuredClone(data) as unknown as { children: { parentType: string }[] };
        broken.children[1]!.parentType = "STORK";
        const refused = await sendWhole(tree._id, broken);
        expect(refused.status).toBe(400);
        const expected = treeData.safeParse(broken);
        expect(expected.success).toBe(false);
        expect(refused.body).toEqual({ errors: [{ detail: describeZodError(expected.error!) }] });
        const stranger = structuredClone(data);
        stranger.children[0]!.person = { _id: "not-in-this-tree" };
        const unknown = await sendWhole(tree._id, stranger);
        expect(unknown.status).toBe(400);
        expect(detailOf(unknown)).toBe(
          "The tree refers to people who are not in this tree: not-in-this-tree",
        );
        expect(tasks.names.filter((name) => name === "treeBody")).toHaveLength(2);
        // a large body that is not exactly {data} is read the usual way
        const both = await api.patch(
          treePath(tree._id),
          { data, title: "Both" },
          { token: owner.token },
        );
        expect(both.status).toBe(400);
        expect(detailOf(both)).toBe(
          "Send either {data} or {title, description, cover}, not both in one request",
        );
      });

      it("checks the heirs of a large tree in the worker pool", async () => {
        const { tree, data } = await largeTree();
        expect((await sendWhole(tree._id, data)).status).toBe(200);
        const tasks = watchTasks();
        // Sims of two generations, and two of one, as the request thread's rule places them
        const byGeneration = new Map<number, string[]>();
        for (const [id, generation] of buildKinship(data).generation) {
          byGeneration.set(generation, [...(byGeneration.get(generation) ?? []), id]);
        }
        const [older, younger] = [...byGeneration.keys()].sort((a, b) => a - b).slice(-2);
        const pair = [byGeneration.get(younger!)![0]!, byGeneration.get(older!)![0]!];
        const put = await api.put(heirsPath(tree._id), { heirs: pair }, { token: owner.token });
        expect(put.status).toBe(200);
        expect(put.body).toEqual({ heirs: orderHeirs(data, pair) });
        expect(put.body).toEqual({ heirs: [pair[1], pair[0]] });
        const [generation, same] = [...byGeneration].find(([, ids]) => ids.length > 1)!;
        const twice = await api.put(
          heirsPath(tree._id),
          { heirs: same.slice(0, 2) },
          { token: owner.token },
        );
        expect(twice.status).toBe(422);
        expect(detailOf(twice)).toBe(`Generation ${generation} can have only one heir`);
        const outsider = "0f7a4d0e-0000-4000-8000-000000000000";
        const unknown = await api.put(
          heirsPath(tree._id),
          { heirs: [outsider] },
          { token: owner.token },
        );
        expect(unknown.status).toBe(422);
        expect(detailOf(unknown)).toBe(`The heir ${outsider} is not placed in this tree`);
        expect(tasks.names.filter((name) => name === "heirs")).toHaveLength(3);
      });

      it("limits heirs writes per account: one past the limit in an hour is 429, others are not held", async () => {
        const player = await createUser();
        const tree = await createTree(player.token);
        const heirs = (token: string) => api.put(heirsPath(tree._id), { heirs: [] }, { token });
        for (let i = 0; i < HEIRS_PER_ACCOUNT.limit; i++) {
          const ok = await heirs(player.token);
          expect(ok.status, `write ${i + 1}`).toBe(200);
        }
        const limited = await heirs(player.token);
        expect(limited.status).toBe(429);
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(detailOf(limited)).toMatch(/^You've changed heirs a lot in the last hour\./);
        // refused before the tree is read: still 429 for a tree that does not exist
        expect(
          (await api.put(heirsPath("no-such-tree"), { heirs: [] }, { token: player.token })).status,
        ).toBe(429);
        // another player's heirs are theirs to change
        const other = await createUser();
        const theirs = await createTree(other.token);
        expect(
          (await api.put(heirsPath(theirs._id), { heirs: [] }, { token: other.token })).status,
        ).toBe(200);
      });

      describe("a household sync", () => {
        const HH = FAMILY_HOUSEHOLD;
        const save = (withBaby: boolean) => familySave(withBaby, { name: "Sync" });
        const post = (url: string, bytes: Uint8Array, headers: Record<string, string> = {}) =>
          call<{ tree: { _id: string }; changes: { added: { _id: string; firstName: string }[] } }>(
            "POST",
            url,
            {
              token: owner.token,
              rawBody: new Uint8Array(bytes),
              headers: { "content-type": "application/octet-stream", ...headers },
            },
          );

        it("merges in the worker pool, and merges again when another save comes before its lock", async () => {
          const imported = await post(`/api/trees/import?household=${HH}`, save(false));
          expect(imported.status).toBe(201);
          const treeId = imported.body.tree._id;
          const etag = (await api.get(treePath(treeId), { token: owner.token })).headers.get(
            "etag",
          )!;
          // a stale If-Match is refused before any merge
          const tasks = watchTasks();
          const stale = await post(`/api/trees/${treeId}/import?household=${HH}`, save(true), {
            "if-match": '"0-0"',
          });
          expect(stale.status).toBe(409);
          expect(stale.headers.get("etag")).toBe(etag);
          expect(tasks.names).not.toContain("syncStructure");
          // the player hides the root while the worker merges: the sync must not write over it
          vi.restoreAllMocks();
          let interfered = false;
          const merges = watchTasks(async (name) => {
            if (name !== "syncStructure" || interfered) return;
            interfered = true;
            const read = await api.get<Tree>(treePath(treeId), { token: owner.token });
            const hidden = { ...treeData.parse(read.body.data), hidden: true };
            const saved = await sendWhole(treeId, hidden, read.headers.get("etag")!);
            expect(saved.status).toBe(200);
          });
          const synced = await post(`/api/trees/${treeId}/import?household=${HH}`, save(true));
          expect(synced.status).toBe(200);
          expect(merges.names.filter((name) => name === "syncStructure")).toHaveLength(2);
          expect(synced.body.changes.added.map((p) => p.firstName)).toEqual(["Baby"]);
          const read = await api.get<Tree>(treePath(treeId), { token: owner.token });
          expect(read.headers.get("etag")).toBe(synced.headers.get("etag"));
          const stored = treeData.parse(read.body.data);
          expect(stored.hidden).toBe(true);
          const baby = synced.body.changes.added[0]!._id;
          const placed = JSON.stringify(stored).includes(`"_id":"${baby}"`);
          expect(placed).toBe(true);
        });
      });
    },
  );
}
