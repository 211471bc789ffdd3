// The upload flow end to end on an S3 bucket (s3rver over HTTP, tests/helpers/setup-s3rver.ts):
// presigned URL → the browser's PUT to the bucket → PUT /api/upload/confirm (every check of
// ADR 004) → variants served by Accept (ADR 015); and the temporary-upload cleanup on the bucket.
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEnv } from "@/lib/env";
import { db } from "@/lib/server/db";
import { getStorage } from "@/lib/server/storage";
import { S3Storage } from "@/lib/server/storage/s3";
import { cleanupTemporaryUploads } from "@/lib/server/uploads/cleanup-temporary-uploads";
import { NOTHING_ARRIVED } from "@/lib/server/uploads/confirm-upload";
import { NOT_AN_IMAGE, POLYGLOT, TOO_MANY_PIXELS } from "@/lib/server/uploads/image-check";
import { incomingKey, masterKey, variantKey } from "@/lib/server/uploads/image-files";
import { MAX_STORED_SIDE } from "@/lib/server/uploads/lean-image";
import { TOO_BIG } from "@/lib/server/uploads/receive-upload";
import { api, call, detailOf } from "../helpers/api";
import { createUser, type TestUser } from "../helpers/factories";
import { storeUploadsOnS3 } from "../helpers/s3";
import {
  HTML_FILE,
  makeJpeg,
  makeOversizedFile,
  makePixelFloodPng,
  makePng,
  makePngHtmlPolyglot,
} from "../helpers/upload-fixtures";

type ImageType = "image/png" | "image/jpeg";

const bucket = storeUploadsOnS3("uploads");
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  [alice, bob] = await Promise.all([createUser(), createUser()]);
});
afterAll(async () => {
  await db.user.deleteMany({ where: { id: { in: [alice.username, bob.username] } } });
});

async function requestUrl(token: string, type: ImageType = "image/png", dir = "avatar") {
  const response = await api.get<{ filename: string; uploadURL: string }>(
    `/api/upload/url?type=${encodeURIComponent(type)}&dir=${dir}`,
    { token },
  );
  expect(response.status).toBe(200);
  return response.body;
}

/** The browser's PUT: straight to the bucket, over HTTP, with only its Content-Type. */
function putToBucket(uploadURL: string, bytes: Buffer, contentType: string) {
  return fetch(uploadURL, {
    method: "PUT",
    body: new Uint8Array(bytes),
    headers: { "content-type": contentType },
  });
}

const confirm = (token: string, image: string) =>
  api.put<{ filename: string }>("/api/upload/confirm", { image }, { token });

async function upload(token: string, bytes: Buffer, type: ImageType = "image/png") {
  const { filename, uploadURL } = await requestUrl(token, type);
  expect((await putToBucket(uploadURL, bytes, type)).status).toBe(200);
  const confirmed = await confirm(token, filename);
  expect(confirmed.status).toBe(200);
  return filename;
}

describe("uploads to an S3 bucket", () => {
  it("hands out a presigned PUT URL to the bucket's incoming/ key, signed for the type, 15 minutes", async () => {
    expect(getStorage()).toBeInstanceOf(S3Storage);
    const { filename, uploadURL } = await requestUrl(alice.token, "image/jpeg", "cover");
    expect(filename).toMatch(/^cover\/[0-9a-f-]{36}\.jpg$/);
    const url = new URL(uploadURL);
    const { endpoint, bucket: name } = bucket();
    expect(url.origin).toBe(endpoint);
    expect(url.pathname).toBe(`/${name}/${incomingKey(filename)}`);
    expect(url.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("content-type;host");
    // No checksum of an empty body, no ACL, no tagging: the browser sends only Content-Type.
    // (x-id=PutObject is the SDK's own marker; stores ignore it.)
    expect([...url.searchParams.keys()].filter((k) => !k.startsWith("X-Amz-"))).toEqual(["x-id"]);
    expect(await db.upload.findUnique({ where: { id: filename } })).toMatchObject({
      status: "PENDING",
      contentType: "image/jpeg",
    });
  });

  it("serves nothing of a PUT file until it is confirmed, then stores it capped and serves it by Accept", async () => {
    const { filename, uploadURL } = await requestUrl(alice.token);
    const put = await putToBucket(uploadURL, await makePng(3000, 1500), "image/png");
    expect(put.status).toBe(200);

    // In the bucket, but under incoming/, which no route reads: not served, not claimable.
    const storage = getStorage();
    expect(await storage.exists(incomingKey(filename))).toBe(true);
    for (const size of ["orig", "200x200", "1200x640"]) {
      const response = await call("GET", `/api/upload/${size}/${filename}`, {
        headers: { accept: "image/webp,*/*" },
      });
      expect(response.status).toBe(404);
    }
    expect((await call("GET", `/uploads/${filename}`)).status).toBe(404);
    const tree = await api.post<{ _id: string }>(
      "/api/trees",
      { title: "Unchecked", cover: null },
      { token: alice.token },
    );
    const person = await api.post(
      "/api/people",
      { tree: tree.body._id, avatar: filename, firstName: "Early" },
      { token: alice.token },
    );
    expect(person.status).toBe(400);
    expect(detailOf(person)).toBe("That image was not found. Please upload it again.");

    const confirmed = await confirm(alice.token, filename);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ filename });
    expect(await storage.exists(incomingKey(filename))).toBe(false);
    const master = await storage.get(masterKey(filename));
    expect(master?.contentType).toBe("image/webp");
    const meta = await sharp(await master!.bytes()).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", MAX_STORED_SIDE, 1024]);
    expect(await db.upload.findUnique({ where: { id: filename } })).toMatchObject({
      status: "TEMP",
      width: 2048,
      height: 1024,
      size: master!.size,
    });
    // Nothing on local disk: the bucket holds it all.
    await expect(fs.stat(path.join(getEnv().UPLOADS_DIR, masterKey(filename)))).rejects.toThrow(
      /ENOENT/,
    );

    for (const [accept, type, format] of [
      ["image/avif,image/webp,*/*", "image/avif", "heif"],
      ["image/webp,*/*", "image/webp", "webp"],
      [undefined, "image/png", "png"],
    ] as const) {
      const response = await call("GET", `/api/upload/200x200/${filename}`, {
        headers: accept ? { accept } : undefined,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("vary")).toBe("Accept");
      expect(await sharp(response.bytes).metadata()).toMatchObject({ format, width: 200 });
      const cached = variantKey(
        "200x200",
        filename,
        accept ? (format === "heif" ? "avif" : "webp") : null,
      );
      expect(await storage.exists(cached)).toBe(true);
    }
    const orig = await call("GET", `/api/upload/orig/${filename}`, {
      headers: { accept: "image/webp,*/*" },
    });
    expect([orig.status, orig.headers.get("content-type")]).toEqual([200, "image/webp"]);

    // The confirmed image can now be used.
    const used = await api.post(
      "/api/people",
      { tree: tree.body._id, avatar: filename, firstName: "Later" },
      { token: alice.token },
    );
    expect(used.status).toBe(200);
  });

  it.each<[string, () => Promise<Buffer> | Buffer, string, number, string]>([
    ["an HTML page sent as a PNG", () => HTML_FILE, "image/png", 400, NOT_AN_IMAGE],
    ["a PNG with an HTML page appended", makePngHtmlPolyglot, "image/png", 400, POLYGLOT],
    [
      "a 100,000 x 100,000 pixel flood",
      () => makePixelFloodPng(),
      "image/png",
      400,
      TOO_MANY_PIXELS,
    ],
    ["a file over 10 MB", () => makeOversizedFile(10_000_001), "image/png", 413, TOO_BIG],
    [
      "a JPEG PUT with another type than the URL was signed for",
      () => makeJpeg(40, 40),
      "image/jpeg",
      400,
      "This upload URL expects a file of type image/png",
    ],
  ])(
    "refuses %s at confirm, removes it, and leaves the URL usable",
    async (_n, make, type, status, detail) => {
      const { filename, uploadURL } = await requestUrl(alice.token, "image/png");
      expect((await putToBucket(uploadURL, await make(), type)).status).toBe(200);

      const refused = await confirm(alice.token, filename);
      expect(refused.status).toBe(status);
      if (detail === "TOO_MANY") expect(detailOf(refused)).toMatch(/pixels/);
      else expect(detailOf(refused)).toBe(detail);
      const storage = getStorage();
      expect(await storage.exists(incomingKey(filename))).toBe(false);
      expect(await storage.exists(masterKey(filename))).toBe(false);
      expect((await call("GET", `/api/upload/orig/${filename}`)).status).toBe(404);
      expect((await db.upload.findUniqueOrThrow({ where: { id: filename } })).status).toBe(
        "PENDING",
      );

      // The same URL still takes a good file.
      expect((await putToBucket(uploadURL, await makePng(64, 48), "image/png")).status).toBe(200);
      expect((await confirm(alice.token, filename)).status).toBe(200);
      expect((await call("GET", `/api/upload/200x200/${filename}`)).status).toBe(200);
    },
  );

  it("answers a confirm of nothing, of someone else's upload and of a missing one", async () => {
    const { filename } = await requestUrl(alice.token);
    const nothing = await confirm(alice.token, filename);
    expect([nothing.status, detailOf(nothing)]).toEqual([400, NOTHING_ARRIVED]);

    const mine = await upload(alice.token, await makePng(20, 20));
    for (const image of [mine, "avatar/00000000-0000-4000-8000-000000000000.png"]) {
      const response = await confirm(bob.token, image);
      expect([response.status, detailOf(response)]).toEqual([404, "That image was not found"]);
    }
    const invalid = await confirm(alice.token, "../etc/passwd");
    expect(invalid.status).toBe(400);
    expect((await confirm("", mine)).status).toBe(401);
  });

  it("keeps the first confirmed file: a second PUT is never read, and the cleanup sweeps it", async () => {
    const { filename, uploadURL } = await requestUrl(alice.token);
    expect((await putToBucket(uploadURL, await makePng(300, 200), "image/png")).status).toBe(200);
    expect((await confirm(alice.token, filename)).status).toBe(200);

    expect((await putToBucket(uploadURL, await makePng(500, 100), "image/png")).status).toBe(200);
    expect((await confirm(alice.token, filename)).body).toEqual({ filename });
    const storage = getStorage();
    expect(await storage.exists(incomingKey(filename))).toBe(true);
    const served = await call("GET", `/api/upload/orig/${filename}`);
    expect(await sharp(served.bytes).metadata()).toMatchObject({ width: 300, height: 200 });

    // A PENDING upload's file waits for its confirm; the stray of a confirmed one goes.
    const waiting = await requestUrl(alice.token);
    expect((await putToBucket(waiting.uploadURL, await makePng(10, 10), "image/png")).status).toBe(
      200,
    );
    const { strays } = await cleanupTemporaryUploads(new Date());
    expect(strays).toBeGreaterThanOrEqual(1);
    expect(await storage.exists(incomingKey(filename))).toBe(false);
    expect(await storage.exists(masterKey(filename))).toBe(true);
    expect(await storage.exists(incomingKey(waiting.filename))).toBe(true);
  });

  it("cleans up day-old temporary uploads in the bucket: rows, originals, variants and unconfirmed files", async () => {
    const oldTemp = await upload(alice.token, await makePng(300, 300));
    expect((await call("GET", `/api/upload/200x200/${oldTemp}`)).status).toBe(200);
    const oldPending = await requestUrl(alice.token);
    expect((await putToBucket(oldPending.uploadURL, await makePng(8, 8), "image/png")).status).toBe(
      200,
    );
    const recent = await upload(alice.token, await makePng(30, 30));
    const dayAndHourAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await db.upload.updateMany({
      where: { id: { in: [oldTemp, oldPending.filename] } },
      data: { createdAt: dayAndHourAgo },
    });
    const storage = getStorage();
    expect(await storage.exists(variantKey("200x200", oldTemp))).toBe(true);

    await cleanupTemporaryUploads(new Date());

    expect(await db.upload.count({ where: { id: { in: [oldTemp, oldPending.filename] } } })).toBe(
      0,
    );
    expect(await storage.exists(masterKey(oldTemp))).toBe(false);
    expect(await storage.exists(variantKey("200x200", oldTemp))).toBe(false);
    expect(await storage.exists(incomingKey(oldPending.filename))).toBe(false);
    expect(await storage.exists(masterKey(recent))).toBe(true);
  });
});
