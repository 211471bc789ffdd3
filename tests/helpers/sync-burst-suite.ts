// Issue 32's leftover, on both engines (tests/api/sync-burst.test.ts for PostgreSQL,
// tests/pglite/sync-burst.test.ts for the embedded default): after a burst of Sims 4 syncs, a sync
// sent with the ETag that GET /api/trees/{id} had just answered met 409 for minutes. The syncs of
// the burst, cut off by their client or not, were still running on the server, and each of them
// wrote a new version of the tree even when the save brought nothing new, so the player's version
// was stale again by the time their own sync reached the lock.
import { NextRequest } from "next/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/server/db";
import { workerPool } from "@/lib/server/workers/pool";
import type { TaskName } from "@/lib/server/workers/tasks";
import { api, detailOf, postBytes, uniqueIp } from "./api";
import { type TestUser, createUser } from "./factories";
import { FAMILY_HOUSEHOLD, familySave } from "./sims4-family";

const HH = FAMILY_HOUSEHOLD;

/** The Burst household: a couple and their daughter, and a baby in the newer save. */
const save = (withBaby: boolean) => familySave(withBaby, { name: "Burst" });

interface SyncAnswer {
  tree: { _id: string; version: number };
  changes: { added: { firstName: string }[]; updated: unknown[]; unchanged: number };
}

/**
 * Watches the process's worker pool: each task's name, and `after` run once a task has answered
 * and before its answer goes back to the caller.
 */
function watchTasks(after?: (name: TaskName) => void): { names: TaskName[] } {
  const seen = { names: [] as TaskName[] };
  const pool = workerPool();
  const run = pool.run.bind(pool);
  vi.spyOn(pool, "run").mockImplementation(async (name, input, transfer) => {
    seen.names.push(name);
    const answer = await run(name, input, transfer);
    after?.(name);
    return answer;
  });
  return seen;
}

export function describeSyncBurst(engine: string): void {
  describe(
    `a Sims 4 sync after a burst of syncs on ${engine} (issue 32)`,
    { timeout: 120_000 },
    () => {
      let owner: TestUser;
      beforeAll(async () => {
        owner = await createUser();
      });
      afterEach(() => {
        vi.restoreAllMocks();
      });

      const post = (url: string, bytes: Uint8Array, headers: Record<string, string> = {}) =>
        postBytes<SyncAnswer>(owner.token, url, bytes, headers);
      const syncPath = (treeId: string) => `/api/trees/${treeId}/import?household=${HH}`;
      const etagOf = async (treeId: string) =>
        (await api.get(`/api/trees/${treeId}`, { token: owner.token })).headers.get("etag")!;
      const simsOf = (treeId: string) => db.person.count({ where: { treeId } });

      /** A tree imported from the older save, then synced once with the newer (the baby added). */
      async function syncedTree(): Promise<{ treeId: string; etag: string }> {
        const imported = await post(`/api/trees/import?household=${HH}`, save(false));
        expect(imported.status).toBe(201);
        const treeId = imported.body.tree._id;
        const synced = await post(syncPath(treeId), save(true), {
          "if-match": await etagOf(treeId),
        });
        expect(synced.status).toBe(200);
        expect(synced.body.changes.added.map((p) => p.firstName)).toEqual(["Baby"]);
        return { treeId, etag: synced.headers.get("etag")! };
      }

      it("a sync that brings nothing new keeps the tree's version, so a sync sent with the current ETag beside a burst goes through", async () => {
        const { treeId, etag } = await syncedTree();
        expect(await etagOf(treeId)).toBe(etag);
        // the burst (the same newer save again, as a player clicking again, without If-Match as
        // the original client sends) and, beside it, the player's sync with the ETag GET answered
        const [first, second, mine] = await Promise.all([
          post(syncPath(treeId), save(true)),
          post(syncPath(treeId), save(true)),
          post(syncPath(treeId), save(true), { "if-match": etag }),
        ]);
        for (const answer of [first, second, mine]) {
          expect(answer.status, detailOf(answer)).toBe(200);
          expect(answer.body.changes.added).toEqual([]);
          expect(answer.body.changes.unchanged).toBe(4);
          expect(answer.headers.get("etag")).toBe(etag);
        }
        expect(await etagOf(treeId)).toBe(etag);
        expect(await simsOf(treeId)).toBe(4);
        // and the next one, with the same ETag, still goes through
        const again = await post(syncPath(treeId), save(true), { "if-match": etag });
        expect(again.status, detailOf(again)).toBe(200);
      });

      it("a sync cut off by its client while the save is read writes nothing", async () => {
        const imported = await post(`/api/trees/import?household=${HH}`, save(false));
        expect(imported.status).toBe(201);
        const treeId = imported.body.tree._id;
        const etag = await etagOf(treeId);
        // the client gives up (a closed tab, a timeout) while the worker reads the save
        const cut = new AbortController();
        const tasks = watchTasks((name) => {
          if (name === "sims4Read") cut.abort();
        });
        const { POST } = await import("@/app/api/trees/[treeId]/import/route");
        const answer = await POST(
          new NextRequest(`http://localhost:3000${syncPath(treeId)}`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${owner.token}`,
              "content-type": "application/octet-stream",
              "x-forwarded-for": uniqueIp(),
              "if-match": etag,
            },
            body: new Uint8Array(save(true)),
            signal: cut.signal,
          }),
          { params: Promise.resolve({ treeId }) },
        );
        expect(tasks.names).toContain("sims4Read");
        expect(answer.status).toBe(400);
        expect(tasks.names).not.toContain("syncStructure");
        // the tree is as it was: the player's ETag is still current, and a sync with it goes through
        expect(await etagOf(treeId)).toBe(etag);
        expect(await simsOf(treeId)).toBe(3);
        vi.restoreAllMocks();
        const mine = await post(syncPath(treeId), save(true), { "if-match": etag });
        expect(mine.status, detailOf(mine)).toBe(200);
        expect(mine.body.changes.added.map((p) => p.firstName)).toEqual(["Baby"]);
      });

      it("a stale If-Match is refused with the current ETag before the save is read", async () => {
        const { treeId, etag } = await syncedTree();
        const tasks = watchTasks();
        const stale = await post(syncPath(treeId), save(true), { "if-match": '"1-0"' });
        expect(stale.status).toBe(409);
        expect(stale.headers.get("etag")).toBe(etag);
        expect(tasks.names).toEqual([]);
      });
    },
  );
}
