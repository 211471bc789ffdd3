// The public pages' reads (lib/server/published/load-public-tree.ts) on one engine: the head from
// a small statement, and a page's model worked out from the publication's JSON text, in the worker
// pool when the publication is large, so that the request thread never parses, lays out or pages
// a large tree (issue 22, finding 3). tests/api/public-page-model.test.ts runs it on PostgreSQL,
// tests/pglite/public-page-model.test.ts on the embedded default.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { publicPageModelOfJson } from "@/lib/public-tree/page-model";
import { getPublishedTreeJson } from "@/lib/server/published/get-published-tree";
import {
  PAGE_INLINE_CHARS,
  loadPublicHead,
  loadPublicPage,
} from "@/lib/server/published/load-public-tree";
import { workerPool } from "@/lib/server/workers/pool";
import { api } from "./api";
import { type TestUser, buildLegacy, createTree, createUser, insertPeople } from "./factories";
import { structureSaves } from "./tree-saves";

export function describePublicPageModel(engine: string): void {
  describe(`public page reads on ${engine}`, () => {
    let owner: TestUser;
    beforeAll(async () => {
      owner = await createUser();
    });
    afterEach(() => vi.restoreAllMocks());
    const { sendWhole } = structureSaves(() => owner.token);

    async function published(nodes: number): Promise<string> {
      const tree = await createTree(owner.token, { title: `Legacy of ${nodes}` });
      const ids = await insertPeople(tree._id, Math.max(1, Math.ceil(nodes / 2)));
      expect((await sendWhole(tree._id, buildLegacy(ids, { nodes }))).status).toBe(200);
      expect((await api.put(`/api/published/${tree._id}`, {}, { token: owner.token })).status).toBe(
        200,
      );
      return tree._id;
    }

    it("works out a large publication's pages in the worker pool, the same as on the request thread", async () => {
      const treeId = await published(2_000);
      const json = await getPublishedTreeJson(treeId);
      expect(json.length).toBeGreaterThan(PAGE_INLINE_CHARS);
      const run = vi.spyOn(workerPool(), "run");
      const list = await loadPublicPage(treeId, "list", 2);
      const canvas = await loadPublicPage(treeId, "canvas");
      expect(run.mock.calls.map(([name]) => name)).toEqual(["publicPage", "publicPage"]);
      expect(list).toEqual(publicPageModelOfJson(json, { kind: "list", page: 2 }));
      expect(canvas).toEqual(publicPageModelOfJson(json, { kind: "canvas" }));
      expect(list.kind === "list" && list.list.count).toBeGreaterThan(2);
    });

    it("works out a small publication's pages on the request thread", async () => {
      const treeId = await published(20);
      const run = vi.spyOn(workerPool(), "run");
      const list = await loadPublicPage(treeId, "list", 1);
      expect(run).not.toHaveBeenCalled();
      expect(list).toEqual(
        publicPageModelOfJson(await getPublishedTreeJson(treeId), { kind: "list", page: 1 }),
      );
    });

    it("reads the head without the tree, and a tree that is not published is the 404 page", async () => {
      const treeId = await published(20);
      const head = await loadPublicHead(treeId);
      const whole = JSON.parse(await getPublishedTreeJson(treeId)) as Record<string, unknown>;
      expect(head).toEqual({
        _id: treeId,
        title: "Legacy of 20",
        description: whole.description,
        cover: null,
        lastPublishDate: whole.lastPublishDate,
      });
      const unpublished = await createTree(owner.token);
      await expect(loadPublicHead(unpublished._id)).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404/);
      await expect(loadPublicPage(unpublished._id, "canvas")).rejects.toThrow(
        /NEXT_HTTP_ERROR_FALLBACK;404/,
      );
      await expect(loadPublicHead("not-an-id")).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404/);
    });
  });
}
