import { beforeAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { ApiError } from "@/lib/server/http/errors";
import sharp from "sharp";
import { countPublicView, flushPublicViews } from "@/lib/server/published/count-public-view";
import { ogImageKey } from "@/lib/server/published/og-image-file";
import { db, Prisma } from "@/lib/server/db";
import { getStorage } from "@/lib/server/storage";
import type { PublishStatus, PublishedTreeView } from "@/lib/schemas/published";
import { getPublishStatus } from "@/lib/server/published/get-publish-status";
import { getPublishedTree } from "@/lib/server/published/get-published-tree";
import { api, detailOf } from "../helpers/api";
import { type TestUser, createPerson, createTree, createUser } from "../helpers/factories";

const publishedPath = (id: string) => `/api/published/${id}`;
const NOT_PUBLISHED = { errors: [{ detail: "This tree is not published" }] };
const UNKNOWN_ID = "0b6f5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b";

let owner: TestUser;

beforeAll(async () => {
  owner = await createUser();
});

/** A tree with two people, one of them placed at the root. */
async function legacy(): Promise<{ tree: Tree; people: Person[]; data: TreeNode }> {
  const tree = await createTree(owner.token, {
    title: "The Goths",
    description: "<p>Spooky</p>",
  });
  const bella = await createPerson(owner.token, tree._id, { firstName: "Bella" });
  const mortimer = await createPerson(owner.token, tree._id, { firstName: "Mortimer" });
  const data: TreeNode = {
    ...emptyNode(),
    person: { _id: bella._id },
    partners: [{ type: "MARRIED", people: [{ _id: mortimer._id }] }],
  };
  await api.patch(`/api/trees/${tree._id}`, { data }, { token: owner.token });
  return { tree, people: [bella, mortimer], data };
}

const readPublished = (treeId: string) => api.get<PublishedTreeView>(publishedPath(treeId));

const publish = (treeId: string, token = owner.token) =>
  api.put<PublishStatus>(publishedPath(treeId), undefined, { token });

describe("PUT /api/published/{treeId}", () => {
  it("publishes a snapshot that anyone can read", async () => {
    const { tree, people, data } = await legacy();
    const before = Date.now();
    const response = await publish(tree._id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      lastPublishDate: response.body.lastPublishDate,
      viewCount: 0,
      publishToGallery: false,
    });
    expect(typeof response.body.lastPublishDate).toBe("string");
    const date = Date.parse(response.body.lastPublishDate);
    expect(date).toBeGreaterThanOrEqual(before - 1000);
    expect(date).toBeLessThanOrEqual(Date.now() + 1000);

    const read = await readPublished(tree._id);
    expect(read.status).toBe(200);
    // The tree itself, as the original client reads it (`answer.data`, `answer.title`; #13.1),
    // keys in this order.
    expect(read.body).toEqual({
      _id: tree._id,
      title: "The Goths",
      description: "<p>Spooky</p>",
      cover: null,
      data,
      heirs: [],
      people,
      lastPublishDate: response.body.lastPublishDate,
      viewCount: 0,
      publishToGallery: false,
    });
    expect(Object.keys(read.body)).toEqual([
      "_id",
      "title",
      "description",
      "cover",
      "data",
      "heirs",
      "people",
      "lastPublishDate",
      "viewCount",
      "publishToGallery",
    ]);
  });

  it("draws and stores the Open Graph card when publishing, and removes it when unpublishing", async () => {
    const tree = await createTree(owner.token, { title: "The Pancakes" });
    const key = ogImageKey(tree._id);
    expect(await getStorage().exists(key)).toBe(false);
    expect((await publish(tree._id)).status).toBe(200);
    // Right after publishing: a stored file, served as it is.
    const stored = await getStorage().get(key);
    expect(stored?.contentType).toBe("image/png");
    const bytes = await stored!.bytes();
    expect(await sharp(bytes).metadata()).toMatchObject({
      format: "png",
      width: 1200,
      height: 630,
    });
    const served = await api.get(`/api/published/${tree._id}/og`);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(bytes)).toBe(true);
    await api.delete(publishedPath(tree._id), undefined, { token: owner.token });
    expect(await getStorage().exists(key)).toBe(false);
  });

  it("serves the stored card on every request, never reading or drawing the published copy (issue 22)", async () => {
    const tree = await createTree(owner.token, { title: "The Landgraabs" });
    expect((await publish(tree._id)).status).toBe(200);
    const key = ogImageKey(tree._id);
    // The stored file is what is served: replace it, and the answer follows.
    const marked = await sharp({
      create: { width: 12, height: 6, channels: 3, background: "#7b2d8e" },
    })
      .png()
      .toBuffer();
    await getStorage().put(key, marked, "image/png");
    // The published copy is never read for the card: spoil it, and the card is still served.
    await db.publishedTree.update({
      where: { treeId: tree._id },
      data: { tree: Prisma.JsonNull, people: Prisma.JsonNull },
    });
    for (let request = 0; request < 3; request += 1) {
      const served = await api.get(`/api/published/${tree._id}/og`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(served.bytes.equals(marked)).toBe(true);
    }
    await api.delete(publishedPath(tree._id), undefined, { token: owner.token });
    expect((await api.get(`/api/published/${tree._id}/og`)).status).toBe(404);
  });

  it("draws a missing card once, stores it, and serves the stored file after", async () => {
    const tree = await createTree(owner.token, { title: "The Calientes" });
    expect((await publish(tree._id)).status).toBe(200);
    const key = ogImageKey(tree._id);
    await getStorage().delete(key);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => api.get(`/api/published/${tree._id}/og`)),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    const stored = await (await getStorage().get(key))!.bytes();
    for (const answer of answers) expect(answer.bytes.equals(stored)).toBe(true);
  });

  it("accepts an empty JSON body too", async () => {
    const tree = await createTree(owner.token);
    const response = await api.put(publishedPath(tree._id), {}, { token: owner.token });
    expect(response.status).toBe(200);
  });

  it.each([
    ["an unknown tree", UNKNOWN_ID],
    ["an id of an impossible shape", "no such tree"],
  ])("answers 404 for %s", async (_name, id) => {
    const response = await publish(encodeURIComponent(id));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errors: [{ detail: "Tree not found" }] });
  });
});

describe("snapshot semantics", () => {
  it("shows later edits only after re-publishing, keeping the view count", async () => {
    const { tree, people } = await legacy();
    const bella = people[0]!;
    const first = await publish(tree._id);
    countPublicView(tree._id);
    countPublicView(tree._id);
    await flushPublicViews();

    // edit a name, the details and the structure
    await api.put(
      `/api/people/${bella._id}`,
      { ...bella, firstName: "Isabella" },
      {
        token: owner.token,
      },
    );
    await api.patch(
      `/api/trees/${tree._id}`,
      { title: "The Goths, renamed" },
      {
        token: owner.token,
      },
    );
    await api.patch(`/api/trees/${tree._id}`, { data: emptyNode() }, { token: owner.token });
    const added = await createPerson(owner.token, tree._id, { firstName: "Cassandra" });

    const unchanged = await readPublished(tree._id);
    expect(unchanged.body.lastPublishDate).toBe(first.body.lastPublishDate);
    expect(unchanged.body.title).toBe("The Goths");
    expect(unchanged.body.data.person).toEqual({ _id: bella._id });
    expect(unchanged.body.people.map((p) => p.firstName)).toEqual(["Bella", "Mortimer"]);
    expect(unchanged.body.viewCount).toBe(2);

    const again = await publish(tree._id);
    expect(again.status).toBe(200);
    expect(again.body.viewCount).toBe(2);
    expect(Date.parse(again.body.lastPublishDate)).toBeGreaterThanOrEqual(
      Date.parse(first.body.lastPublishDate),
    );
    const changed = await readPublished(tree._id);
    expect(changed.body.title).toBe("The Goths, renamed");
    expect(changed.body.data).toEqual(emptyNode());
    expect(changed.body.people.map((p) => p.firstName)).toEqual([
      "Isabella",
      "Mortimer",
      "Cassandra",
    ]);
    expect(changed.body.people[2]).toEqual(added);
    expect(changed.body.viewCount).toBe(2);
  });

  it("keeps the published copy when the tree is deleted", async () => {
    const { tree } = await legacy();
    await publish(tree._id);
    const before = await readPublished(tree._id);
    expect(
      (await api.delete(`/api/trees/${tree._id}`, undefined, { token: owner.token })).status,
    ).toBe(200);

    const after = await readPublished(tree._id);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    // the deleted tree cannot be published again
    const republish = await publish(tree._id);
    expect(republish.status).toBe(404);
    expect(detailOf(republish)).toBe("Tree not found");
    // but its owner may still withdraw the public copy
    const unpublish = await api.delete(publishedPath(tree._id), undefined, { token: owner.token });
    expect(unpublish.status).toBe(200);
    expect((await readPublished(tree._id)).status).toBe(404);
  });

  it("deleting a person later does not change the published copy", async () => {
    const { tree, people } = await legacy();
    await publish(tree._id);
    await api.delete(`/api/people/${people[0]!._id}`, undefined, { token: owner.token });
    const read = await readPublished(tree._id);
    expect(read.body.people).toEqual(people);
    expect(read.body.data.person).toEqual({ _id: people[0]!._id });
  });
});

describe("DELETE /api/published/{treeId}", () => {
  it("unpublishes: GET and a second DELETE answer 404", async () => {
    const { tree } = await legacy();
    await publish(tree._id);
    const response = await api.delete(publishedPath(tree._id), undefined, { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: "Tree is no longer published" });

    const read = await readPublished(tree._id);
    expect(read.status).toBe(404);
    expect(read.body).toEqual(NOT_PUBLISHED);
    const again = await api.delete(publishedPath(tree._id), undefined, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_PUBLISHED);
    // the tree itself is untouched
    expect((await api.get(`/api/trees/${tree._id}`, { token: owner.token })).status).toBe(200);
  });

  it("answers 404 for a tree that was never published", async () => {
    const tree = await createTree(owner.token);
    const response = await api.delete(publishedPath(tree._id), undefined, { token: owner.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(NOT_PUBLISHED);
  });

  it("starts the view count again after unpublishing and publishing", async () => {
    const tree = await createTree(owner.token);
    await publish(tree._id);
    countPublicView(tree._id);
    await flushPublicViews();
    await api.delete(publishedPath(tree._id), undefined, { token: owner.token });
    expect((await publish(tree._id)).body.viewCount).toBe(0);
  });
});

describe("GET /api/published/{treeId}", () => {
  it.each([
    ["a tree that was never published", async () => (await createTree(owner.token))._id],
    ["an unknown id", async () => UNKNOWN_ID],
    ["an id of an impossible shape", async () => encodeURIComponent("../../etc/passwd")],
  ])("answers 404 for %s", async (_name, id) => {
    const response = await readPublished(await id());
    expect(response.status).toBe(404);
    expect(response.body).toEqual(NOT_PUBLISHED);
  });

  it("does not count a view (the publish page reads it too)", async () => {
    const tree = await createTree(owner.token);
    await publish(tree._id);
    await readPublished(tree._id);
    await readPublished(tree._id);
    expect((await readPublished(tree._id)).body.viewCount).toBe(0);
  });
});

describe("services used by the public page", () => {
  it("getPublishedTree answers the snapshot, or throws a 404 ApiError", async () => {
    const { tree } = await legacy();
    await expect(getPublishedTree(tree._id)).rejects.toEqual(
      new ApiError(404, "This tree is not published"),
    );
    await publish(tree._id);
    const view = await getPublishedTree(tree._id);
    expect(view).toEqual((await readPublished(tree._id)).body);
  });

  it("countPublicView counts views in memory, written in one batch, and nothing when unpublished", async () => {
    const tree = await createTree(owner.token);
    countPublicView(tree._id);
    await flushPublicViews();
    await publish(tree._id);
    expect((await getPublishedTree(tree._id)).viewCount).toBe(0);
    for (let view = 0; view < 25; view += 1) countPublicView(tree._id);
    countPublicView("not a valid id");
    expect((await getPublishedTree(tree._id)).viewCount).toBe(0);
    await flushPublicViews();
    expect((await getPublishedTree(tree._id)).viewCount).toBe(25);
  });

  it("getPublishStatus answers the owner only", async () => {
    const tree = await createTree(owner.token);
    const stranger = await createUser();
    await expect(getPublishStatus(owner.username, tree._id)).rejects.toEqual(
      new ApiError(404, "This tree is not published"),
    );
    const published = await publish(tree._id);
    expect(await getPublishStatus(owner.username, tree._id)).toEqual(published.body);
    await expect(getPublishStatus(stranger.username, tree._id)).rejects.toEqual(
      new ApiError(404, "This tree is not published"),
    );
  });
});
