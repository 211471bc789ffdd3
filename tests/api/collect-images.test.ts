import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { getStorage } from "@/lib/server/storage";
import { LocalDiskStorage } from "@/lib/server/storage/local-disk";
import { S3Storage } from "@/lib/server/storage/s3";
import {
  COLLECTION_GRACE_MS,
  DELETED_TREE_RETENTION_MS,
  collectUnusedImages,
} from "@/lib/server/uploads/collect-unused-images";
import { deleteUploadFiles, storedKeys } from "@/lib/server/uploads/delete-upload-files";
import { masterKey, variantKey } from "@/lib/server/uploads/image-files";
import { api, call } from "../helpers/api";
import {
  createPerson,
  createTree,
  createUser,
  type TestUser,
  uploadImage,
} from "../helpers/factories";
import { storeUploadsOnS3 } from "../helpers/s3";
import { makeJpeg, makePng } from "../helpers/upload-fixtures";

const AVIF_BROWSER = "image/avif,image/webp,*/*";
let user: TestUser;
const made: string[] = [];

async function image(dir: "avatar" | "cover" = "avatar") {
  const name = await uploadImage(
    user.token,
    dir === "avatar" ? await makePng(300, 300) : await makeJpeg(800, 400),
    dir,
  );
  made.push(name);
  // Variants in two formats, as browsers would have asked for them.
  const size = dir === "avatar" ? "200x200" : "600x320";
  expect(
    (await call("GET", `/api/upload/${size}/${name}`, { headers: { accept: AVIF_BROWSER } }))
      .status,
  ).toBe(200);
  expect((await call("GET", `/api/upload/${size}/${name}`)).status).toBe(200);
  return name;
}

async function storedFiles(name: string): Promise<string[]> {
  const storage = getStorage();
  const found = [];
  for (const key of storedKeys(name)) if (await storage.exists(key)) found.push(key);
  return found;
}

/** Sets a person's avatar as a save does: the image claimed (USED) with the row, in one transaction. */
async function setAvatar(personId: string, avatar: string) {
  await db.$transaction([
    db.upload.update({ where: { id: avatar }, data: { status: "USED" } }),
    db.person.update({ where: { id: personId }, data: { avatar } }),
  ]);
}

const later = () => new Date(Date.now() + COLLECTION_GRACE_MS + 60_000);

beforeAll(async () => {
  user = await createUser();
});

afterAll(async () => {
  await deleteUploadFiles(made);
  await db.user.deleteMany({ where: { id: user.username } });
});

describe.each([
  ["local disk", false],
  ["an S3 bucket", true],
])("collectUnusedImages on %s", (_backend, onS3) => {
  if (onS3) storeUploadsOnS3("collect");

  it("deletes from the backend the test means", () => {
    expect(getStorage()).toBeInstanceOf(onS3 ? S3Storage : LocalDiskStorage);
  });

  it("removes a replaced avatar's files and keeps the one a published tree still shows", async () => {
    const tree = await createTree(user.token, { title: "The Collected Legacy" });
    const shown = await image();
    const person = await createPerson(user.token, tree._id, { avatar: shown });
    expect(
      (await api.put(`/api/published/${tree._id}`, undefined, { token: user.token })).status,
    ).toBe(200);

    // After publishing, the avatar is replaced twice: the first (published) must stay, the
    // second (never published, replaced) must go with every variant.
    const between = await image();
    await setAvatar(person._id, between);
    const current = await image();
    await setAvatar(person._id, current);
    expect(await storedFiles(between)).toEqual(
      expect.arrayContaining([
        masterKey(between),
        variantKey("200x200", between, "avif"),
        variantKey("200x200", between),
      ]),
    );

    // Within the grace period nothing is collected (a save may be claiming it right now).
    expect((await collectUnusedImages()).names).not.toContain(between);

    const { names } = await collectUnusedImages(later());
    expect(names).toContain(between);
    expect(names).not.toContain(shown);
    expect(names).not.toContain(current);
    expect(await storedFiles(between)).toEqual([]);
    expect(await db.upload.findUnique({ where: { id: between } })).toBeNull();
    expect((await call("GET", `/api/upload/200x200/${between}`)).status).toBe(404);

    // The published snapshot's avatar is still served; so is the live one.
    expect(await storedFiles(shown)).toContain(masterKey(shown));
    expect(
      (await call("GET", `/api/upload/200x200/${shown}`, { headers: { accept: AVIF_BROWSER } }))
        .status,
    ).toBe(200);
    expect((await call("GET", `/api/upload/200x200/${current}`)).status).toBe(200);

    // Once unpublished, the old avatar is no longer shown anywhere and goes too.
    expect(
      (await api.delete(`/api/published/${tree._id}`, undefined, { token: user.token })).status,
    ).toBe(200);
    expect((await collectUnusedImages(later())).names).toContain(shown);
    expect(await storedFiles(shown)).toEqual([]);
    expect(await storedFiles(current)).toContain(masterKey(current));
  });

  it("removes a replaced cover and a deleted person's avatar, and never a temporary upload", async () => {
    const oldCover = await image("cover");
    const tree = await createTree(user.token, { title: "Covers", cover: oldCover });
    const newCover = await image("cover");
    await db.tree.update({ where: { id: tree._id }, data: { cover: newCover } });
    const avatar = await image();
    const person = await createPerson(user.token, tree._id, { avatar });
    await db.person.delete({ where: { id: person._id } });
    const temporary = await image(); // uploaded, never used: TEMP

    const { names } = await collectUnusedImages(later());
    expect(names).toEqual(expect.arrayContaining([oldCover, avatar]));
    expect(names).not.toContain(newCover);
    expect(names).not.toContain(temporary);
    expect(await storedFiles(oldCover)).toEqual([]);
    expect(await storedFiles(avatar)).toEqual([]);
    expect(await storedFiles(newCover)).toContain(masterKey(newCover));
    expect(await storedFiles(temporary)).toContain(masterKey(temporary));
  });

  it("keeps a deleted tree's images while it can be recovered, then removes them", async () => {
    const cover = await image("cover");
    const tree = await createTree(user.token, { title: "Gone", cover });
    const avatar = await image();
    await createPerson(user.token, tree._id, { avatar });
    expect(
      (await api.delete(`/api/trees/${tree._id}`, undefined, { token: user.token })).status,
    ).toBe(200);

    expect((await collectUnusedImages(later())).names).not.toEqual(expect.arrayContaining([cover]));
    expect(await storedFiles(avatar)).toContain(masterKey(avatar));

    const afterRetention = new Date(Date.now() + DELETED_TREE_RETENTION_MS + COLLECTION_GRACE_MS);
    const { names } = await collectUnusedImages(afterRetention);
    expect(names).toEqual(expect.arrayContaining([cover, avatar]));
    expect(await storedFiles(cover)).toEqual([]);
    expect(await storedFiles(avatar)).toEqual([]);
  });
});
