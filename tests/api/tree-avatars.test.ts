import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { getStorage } from "@/lib/server/storage";
import { deleteUploadFiles, variantKey } from "@/lib/server/uploads/delete-upload-files";
import { call, detailOf } from "../helpers/api";
import {
  createPerson,
  createTree,
  createUser,
  type TestUser,
  uploadImage,
} from "../helpers/factories";
import { makeJpeg, makePng } from "../helpers/upload-fixtures";

interface AvatarsAnswer {
  avatars: Record<string, string>;
}

let alice: TestUser;
let bob: TestUser;
let treeId: string;
let otherTreeId: string;
let png: string;
let jpeg: string;
let gone: string;
let elsewhere: string;

const avatarsOf = (token: string | null, id: string, query = "") =>
  call<AvatarsAnswer>("GET", `/api/trees/${id}/avatars${query}`, { token });

/** The type and pixel size of a data: URI's image. */
async function imageOf(uri: string) {
  const match = /^data:(image\/(?:png|jpeg));base64,([A-Za-z0-9+/]+=*)$/.exec(uri);
  expect(match, uri.slice(0, 60)).not.toBeNull();
  const meta = await sharp(Buffer.from(match![2]!, "base64")).metadata();
  return { type: match![1], width: meta.width, height: meta.height, format: meta.format };
}

beforeAll(async () => {
  [alice, bob] = await Promise.all([createUser(), createUser()]);
  [png, jpeg, gone, elsewhere] = await Promise.all([
    uploadImage(alice.token, await makePng(160, 120)),
    uploadImage(alice.token, await makeJpeg(90, 200)),
    uploadImage(alice.token, await makePng(64, 64)),
    uploadImage(alice.token, await makePng(64, 64)),
  ]);
  const tree = await createTree(alice.token, { title: "The Goth Legacy" });
  const other = await createTree(alice.token, { title: "Another legacy" });
  treeId = tree._id;
  otherTreeId = other._id;
  // Two Sims share an avatar, one has none, one's file has since gone from storage.
  for (const avatar of [png, png, jpeg, null, gone]) {
    await createPerson(alice.token, treeId, { avatar });
  }
  await createPerson(alice.token, otherTreeId, { avatar: elsewhere });
  await deleteUploadFiles([gone]);
});

afterAll(async () => {
  const names = [alice.username, bob.username];
  const uploads = await db.upload.findMany({
    where: { ownerId: { in: names } },
    select: { id: true },
  });
  await deleteUploadFiles(uploads.map((u) => u.id));
  await db.user.deleteMany({ where: { id: { in: names } } });
});

describe("GET /api/trees/{treeId}/avatars", () => {
  it("answers each distinct avatar of the tree's people once, as 100×100 data: URIs", async () => {
    const response = await avatarsOf(alice.token, treeId, "?size=100x100");
    expect(response.status, detailOf(response)).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    // The other tree's avatar and the one whose file is gone are not there.
    expect(Object.keys(response.body.avatars).sort()).toEqual([jpeg, png].sort());
    expect(await imageOf(response.body.avatars[png]!)).toEqual({
      type: "image/png",
      format: "png",
      width: 100,
      height: 100,
    });
    expect(await imageOf(response.body.avatars[jpeg]!)).toEqual({
      type: "image/jpeg",
      format: "jpeg",
      width: 100,
      height: 100,
    });
    // The variants it made are stored, so the next answer reads them back.
    expect(await getStorage().exists(variantKey("100x100", png))).toBe(true);
    const again = await avatarsOf(alice.token, treeId, "?size=100x100");
    expect(again.body).toEqual(response.body);
  });

  it("makes 100×100 by default, and 200×200 when asked", async () => {
    const byDefault = await avatarsOf(alice.token, treeId);
    expect(byDefault.status).toBe(200);
    expect(await imageOf(byDefault.body.avatars[jpeg]!)).toMatchObject({ width: 100 });
    const large = await avatarsOf(alice.token, treeId, "?size=200x200");
    expect(large.status).toBe(200);
    expect(Object.keys(large.body.avatars).sort()).toEqual([jpeg, png].sort());
    expect(await imageOf(large.body.avatars[png]!)).toMatchObject({ width: 200, height: 200 });
  });

  it("answers an empty object for a tree without avatars", async () => {
    const bare = await createTree(alice.token, { title: "No portraits" });
    await createPerson(alice.token, bare._id, { avatar: null });
    const response = await avatarsOf(alice.token, bare._id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ avatars: {} });
  });

  it("is 404 for someone else's tree, a missing tree and a malformed id", async () => {
    for (const [token, id] of [
      [bob.token, treeId],
      [alice.token, "no-such-tree"],
      [alice.token, "bad%20id%3F"],
    ] as const) {
      const response = await avatarsOf(token, id);
      expect(response.status).toBe(404);
      expect(detailOf(response)).toBe("Tree not found");
    }
  });

  it("is 401 without a token", async () => {
    const response = await avatarsOf(null, treeId);
    expect(response.status).toBe(401);
    expect(detailOf(response)).toBe("Looks like you're not logged in");
  });

  it("refuses a size it does not make with 400 and a detail", async () => {
    for (const size of ["600x320", "1x1", "", "100x100x"]) {
      const response = await avatarsOf(alice.token, treeId, `?size=${encodeURIComponent(size)}`);
      expect(response.status).toBe(400);
      expect(detailOf(response)).toMatch(/size must be one of 100x100, 200x200/);
    }
  });
});
