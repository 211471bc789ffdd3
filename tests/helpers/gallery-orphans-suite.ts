// The owner's list of public copies and the withdrawal of a deleted tree's copy (issue 25, "Published
// copies of deleted trees"), run on PostgreSQL (tests/api/gallery-orphans.test.ts) and on the
// embedded PGlite (tests/pglite/gallery-orphans.test.ts).
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { AccountPublication, AccountPublications } from "@/lib/schemas/account-publications";
import type { GalleryPage, PublishStatus } from "@/lib/schemas/published";
import { setGalleryHidden } from "@/lib/server/gallery/hide-tree";
import { api, detailOf } from "./api";
import { createTree as createEmptyTree, createUser, giveSim } from "./factories";

/** A tree with one Sim: the Gallery never lists an empty tree (issue 36). */
async function createTree(...args: Parameters<typeof createEmptyTree>) {
  const tree = await createEmptyTree(...args);
  await giveSim(args[0], tree._id);
  return tree;
}

const PATH = "/api/account/publications";

/** A word no other test uses, so a Gallery search for it finds only this test's trees. */
const uniqueWord = () => `o${randomBytes(5).toString("hex")}`;

const publications = async (token: string) => {
  const response = await api.get<AccountPublications>(PATH, { token });
  expect(response.status).toBe(200);
  return response.body.data;
};

const inGallery = async (word: string) => {
  const response = await api.get<GalleryPage>(`/api/published?page[number]=1&search=${word}`);
  expect(response.status).toBe(200);
  return response.body.data.map((item) => item._id);
};

const publish = async (token: string, treeId: string, body?: unknown) => {
  const response = await api.put<PublishStatus>(`/api/published/${treeId}`, body, { token });
  expect(response.status).toBe(200);
  return response.body;
};

const deleteTree = async (token: string, treeId: string) =>
  expect((await api.delete(`/api/trees/${treeId}`, undefined, { token })).status).toBe(200);

export function galleryOrphansSuite() {
  // The first calls load the routes and open the database (slow on a cold PGlite).
  beforeAll(async () => {
    const { token } = await createUser();
    await api.get(PATH, { token });
    await api.get("/api/published?page[number]=1");
  }, 180_000);

  describe("GET /api/account/publications", () => {
    it("lists the owner's public copies, newest first, with their Gallery state and whether the tree is gone", async () => {
      const { token } = await createUser();
      const word = uniqueWord();
      const kept = await createTree(token, { title: `Kept ${word}` });
      const listed = await createTree(token, { title: `Listed ${word}` });
      const gone = await createTree(token, { title: `Gone ${word}` });
      const never = await createTree(token, { title: `Private ${word}` });
      await publish(token, kept._id);
      await publish(token, listed._id, { publishToGallery: true });
      const goneStatus = await publish(token, gone._id, { publishToGallery: true });
      await deleteTree(token, gone._id);

      const list = await publications(token);
      expect(list.map((item) => item._id)).toEqual([gone._id, listed._id, kept._id]);
      expect(list.map((item) => item._id)).not.toContain(never._id);
      const byId = new Map(list.map((item) => [item._id, item]));
      expect(byId.get(gone._id)).toEqual<AccountPublication>({
        _id: gone._id,
        title: `Gone ${word}`,
        lastPublishDate: goneStatus.lastPublishDate,
        viewCount: 0,
        publishToGallery: true,
        inGallery: true,
        hiddenFromGallery: false,
        treeDeleted: true,
      });
      expect(byId.get(listed._id)).toMatchObject({
        publishToGallery: true,
        inGallery: true,
        treeDeleted: false,
      });
      expect(byId.get(kept._id)).toMatchObject({
        title: `Kept ${word}`,
        publishToGallery: false,
        inGallery: false,
        hiddenFromGallery: false,
        treeDeleted: false,
      });
      // The deleted tree's copy is still public and still in the Gallery (SPEC.md keeps it).
      expect((await api.get(`/api/published/${gone._id}`)).status).toBe(200);
      expect(await inGallery(word)).toContain(gone._id);
    });

    it("the title is the public copy's, not the tree's later one", async () => {
      const { token } = await createUser();
      const tree = await createTree(token, { title: "As published" });
      await publish(token, tree._id);
      const renamed = await api.patch(
        `/api/trees/${tree._id}`,
        { title: "Renamed later" },
        {
          token,
        },
      );
      expect(renamed.status).toBe(200);
      expect((await publications(token)).map((item) => item.title)).toEqual(["As published"]);
    });

    it("says when an operator hid a listed copy from the Gallery", async () => {
      const { token } = await createUser();
      const tree = await createTree(token);
      await publish(token, tree._id, { publishToGallery: true });
      await setGalleryHidden(tree._id, true);
      expect((await publications(token))[0]).toMatchObject({
        publishToGallery: true,
        inGallery: false,
        hiddenFromGallery: true,
      });
      await setGalleryHidden(tree._id, false);
      expect((await publications(token))[0]).toMatchObject({
        inGallery: true,
        hiddenFromGallery: false,
      });
    });

    it("is the signed-in owner's only: another user sees none of them; no session is 401, a bad one 403", async () => {
      const owner = await createUser();
      const other = await createUser();
      const tree = await createTree(owner.token);
      await publish(owner.token, tree._id, { publishToGallery: true });
      await deleteTree(owner.token, tree._id);
      expect(await publications(other.token)).toEqual([]);
      expect((await publications(owner.token)).map((item) => item._id)).toEqual([tree._id]);

      const anonymous = await api.get(PATH);
      expect(anonymous.status).toBe(401);
      expect(detailOf(anonymous)).toBeTruthy();
      const forged = await api.get(PATH, { token: `${owner.token}x` });
      expect(forged.status).toBe(403);
    });

    it("answers only GET", async () => {
      const { token } = await createUser();
      for (const method of ["post", "put", "patch", "delete"] as const) {
        const response = await api[method](PATH, {}, { token });
        expect(response.status, method).toBe(405);
      }
    });
  });

  describe("unpublishing a deleted tree's copy", () => {
    it("DELETE /api/published/{id} withdraws it: gone from the public address, the Gallery and the owner's list at once", async () => {
      const { token } = await createUser();
      const word = uniqueWord();
      const tree = await createTree(token, { title: `Orphan ${word}` });
      await publish(token, tree._id, { publishToGallery: true });
      await deleteTree(token, tree._id);
      expect(await inGallery(word)).toEqual([tree._id]);

      const gone = await api.delete(`/api/published/${tree._id}`, undefined, { token });
      expect(gone.status).toBe(200);
      expect(await inGallery(word)).toEqual([]);
      expect((await api.get(`/api/published/${tree._id}`)).status).toBe(404);
      expect(await publications(token)).toEqual([]);
      // Twice is 404 "not published", which the client counts as success (SPEC.md).
      const again = await api.delete(`/api/published/${tree._id}`, undefined, { token });
      expect(again.status).toBe(404);
      expect(detailOf(again)).toBe("This tree is not published");
    });

    it("someone else's copy is 404 and stays public and listed", async () => {
      const owner = await createUser();
      const other = await createUser();
      const word = uniqueWord();
      const tree = await createTree(owner.token, { title: `Theirs ${word}` });
      await publish(owner.token, tree._id, { publishToGallery: true });
      await deleteTree(owner.token, tree._id);

      const refused = await api.delete(`/api/published/${tree._id}`, undefined, {
        token: other.token,
      });
      expect(refused.status).toBe(404);
      expect(detailOf(refused)).toBe("This tree is not published");
      expect((await api.get(`/api/published/${tree._id}`)).status).toBe(200);
      expect(await inGallery(word)).toEqual([tree._id]);
      expect((await publications(owner.token)).map((item) => item._id)).toEqual([tree._id]);
    });
  });
}
