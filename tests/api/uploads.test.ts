import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getEnv, resetEnvForTests } from "@/lib/env";
import { createSession } from "@/lib/server/auth/session";
import { db } from "@/lib/server/db";
import { getStorage } from "@/lib/server/storage";
import { LocalDiskStorage } from "@/lib/server/storage/local-disk";
import {
  cleanupTemporaryUploads,
  CLEANUP_INTERVAL_MS,
  scheduleTemporaryUploadCleanup,
} from "@/lib/server/uploads/cleanup-temporary-uploads";
import { createUploadUrl } from "@/lib/server/uploads/create-upload-url";
import { deleteUploadFiles, variantKey } from "@/lib/server/uploads/delete-upload-files";
import { masterKey } from "@/lib/server/uploads/image-files";
import { MAX_STORED_SIDE } from "@/lib/server/uploads/lean-image";
import { api, call, detailOf, type ApiResponse } from "../helpers/api";
import {
  HTML_FILE,
  makeJpeg,
  makeJpegHtmlPolyglot,
  makeOversizedFile,
  makePixelFloodPng,
  makePng,
  makePngHtmlPolyglot,
  makePngZipPolyglot,
  makeTruncatedPng,
  SVG_FILE,
} from "../helpers/upload-fixtures";

type ImageType = "image/png" | "image/jpeg";
type Dir = "avatar" | "cover";

const POLYGLOT =
  "This image carries data that is not part of the picture. Please save it again as a plain JPG or PNG.";

async function createUser() {
  const username = `upl_${randomUUID().slice(0, 12)}`;
  const user = await db.user.create({
    data: { id: username, email: `${username}@example.com`, passwordHash: "not-a-real-hash" },
    select: { id: true, accountId: true },
  });
  return { username, token: await createSession(user) };
}

let alice: { username: string; token: string };
let bob: { username: string; token: string };

beforeAll(async () => {
  [alice, bob] = await Promise.all([createUser(), createUser()]);
});

afterAll(async () => {
  const uploads = await db.upload.findMany({
    where: { ownerId: { in: [alice.username, bob.username] } },
    select: { id: true },
  });
  await deleteUploadFiles(uploads.map((u) => u.id));
  await db.user.deleteMany({ where: { id: { in: [alice.username, bob.username] } } });
});

async function requestUrl(token: string, type: ImageType = "image/png", dir: Dir = "avatar") {
  const response = await api.get<{ filename: string; uploadURL: string }>(
    `/api/upload/url?type=${encodeURIComponent(type)}&dir=${dir}`,
    { token },
  );
  expect(response.status).toBe(200);
  return response.body;
}

/** PUTs bytes to an upload URL the way an S3-style client does (no bearer token). */
function putFile(uploadURL: string, bytes: Buffer, contentType: string, extra = {}) {
  const url = new URL(uploadURL);
  return call("PUT", url.pathname + url.search, {
    rawBody: new Uint8Array(bytes),
    headers: { "content-type": contentType, ...extra },
  });
}

async function upload(
  token: string,
  bytes: Buffer,
  type: ImageType = "image/png",
  dir: Dir = "avatar",
) {
  const { filename, uploadURL } = await requestUrl(token, type, dir);
  const response = await putFile(uploadURL, bytes, type);
  expect(response.status).toBe(200);
  return filename;
}

const metadataOf = (response: ApiResponse) => sharp(response.bytes).metadata();

function expectImageHeaders(response: ApiResponse, contentType: string) {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe(contentType);
  expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("content-security-policy")).toBe("default-src 'none'");
  expect(Number(response.headers.get("content-length"))).toBe(response.bytes.length);
}

describe("the upload URL's origin", () => {
  // Behind a proxy that rewrites Host (nginx's default), the Host is the internal address: a URL
  // built from it sent the original client's PUT nowhere (issue 22.7). APP_URL, whatever comes in.
  it.each([
    ["a Host the browser used", { host: "127.0.0.1:3200" }, false],
    ["an internal Host set by a proxy", { host: "heirloom-app:3000" }, false],
    ["an unusable Host", { host: "evil host/" }, false],
    ["a forwarded host", { host: "a.test", "x-forwarded-host": "b.test" }, false],
    [
      "a forwarded host behind a trusted proxy",
      { host: "a.test", "x-forwarded-host": "evil.test", "x-forwarded-proto": "https" },
      true,
    ],
  ])("is APP_URL whatever %s says", async (_name, headers, trustProxy) => {
    if (trustProxy) {
      vi.stubEnv("TRUST_PROXY", "true");
      resetEnvForTests();
    }
    try {
      const response = await api.get<{ uploadURL: string }>(
        "/api/upload/url?type=image/png&dir=avatar",
        { token: alice.token, headers },
      );
      expect(response.status).toBe(200);
      expect(new URL(response.body.uploadURL).origin).toBe(getEnv().APP_URL);
    } finally {
      vi.unstubAllEnvs();
      resetEnvForTests();
    }
  });
});

describe("the upload flow", () => {
  it("issues a signed URL for a reserved file name", async () => {
    const { filename, uploadURL } = await requestUrl(alice.token, "image/png", "cover");
    expect(filename).toMatch(/^cover\/[0-9a-f-]{36}\.png$/);
    const url = new URL(uploadURL);
    expect(url.origin).toBe("http://localhost:3000");
    expect(url.pathname).toBe(`/api/upload/file/${filename}`);
    expect(url.searchParams.get("expires")).toMatch(/^\d+$/);
    expect(url.searchParams.get("signature")).toBeTruthy();
    const row = await db.upload.findUniqueOrThrow({ where: { id: filename } });
    expect(row).toMatchObject({ ownerId: alice.username, dir: "cover", status: "PENDING" });
    expect(row.urlExpiresAt.getTime() - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    expect(row.urlExpiresAt.getTime() - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);
  });

  it("takes a PNG (ignoring S3 headers), keeps it TEMP, and serves it at 200x200, then from cache", async () => {
    const { filename, uploadURL } = await requestUrl(alice.token, "image/png", "avatar");
    const put = await putFile(uploadURL, await makePng(640, 480), "image/png", {
      "x-amz-acl": "public-read",
      "x-amz-tagging": "temp=true",
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ filename });
    expect(await db.upload.findUniqueOrThrow({ where: { id: filename } })).toMatchObject({
      status: "TEMP",
      width: 640,
      height: 480,
      contentType: "image/png",
    });

    const first = await api.get(`/api/upload/200x200/${filename}`);
    expectImageHeaders(first, "image/png");
    expect(await metadataOf(first)).toMatchObject({ format: "png", width: 200, height: 200 });
    const storage = getStorage();
    expect(await storage.exists(variantKey("200x200", filename))).toBe(true);

    // Replace the cached variant with a marker: the second request must serve the cache as is.
    const marker = await sharp({
      create: { width: 200, height: 200, channels: 3, background: "#ff0000" },
    })
      .png()
      .toBuffer();
    await storage.put(variantKey("200x200", filename), marker, "image/png");
    const second = await api.get(`/api/upload/200x200/${filename}`);
    expectImageHeaders(second, "image/png");
    expect(second.bytes.equals(marker)).toBe(true);
  });

  it("takes a JPEG cover and serves it at 600x320 and as the original", async () => {
    const filename = await upload(alice.token, await makeJpeg(1280, 720), "image/jpeg", "cover");
    expect(filename).toMatch(/^cover\/[0-9a-f-]{36}\.jpg$/);

    const resized = await api.get(`/api/upload/600x320/${filename}`);
    expectImageHeaders(resized, "image/jpeg");
    expect(await metadataOf(resized)).toMatchObject({ format: "jpeg", width: 600, height: 320 });
    expect(await getStorage().exists(variantKey("600x320", filename))).toBe(true);
    const cached = await api.get(`/api/upload/600x320/${filename}`);
    expect(cached.bytes.equals(resized.bytes)).toBe(true);

    const original = await api.get(`/api/upload/orig/${filename}`);
    expectImageHeaders(original, "image/jpeg");
    expect(await metadataOf(original)).toMatchObject({ format: "jpeg", width: 1280, height: 720 });
  });

  it("makes a variant once when first requests arrive together, and never tears it", async () => {
    const filename = await upload(alice.token, await makePng(500, 400));
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => api.get(`/api/upload/200x200/${filename}`)),
    );
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.bytes.equals(responses[0]!.bytes)).toBe(true);
    }
    const stored = await getStorage().get(variantKey("200x200", filename));
    const storedBytes = await stored!.bytes();
    expect(storedBytes.equals(responses[0]!.bytes)).toBe(true);
    expect(await sharp(storedBytes).metadata()).toMatchObject({ width: 200, height: 200 });
    const storage = getStorage();
    if (storage instanceof LocalDiskStorage) {
      const dir = path.dirname(storage.pathFor(variantKey("200x200", filename)));
      expect((await fs.readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    }
  });

  it("makes an avatar's 100x100 thumbnail as it arrives (export and canvas need it), not a cover's", async () => {
    const avatar = await upload(alice.token, await makePng(300, 200));
    const stored = await getStorage().get(variantKey("100x100", avatar));
    expect(stored).not.toBeNull();
    expect(await sharp(await stored!.bytes()).metadata()).toMatchObject({
      width: 100,
      height: 100,
    });
    const cover = await upload(alice.token, await makePng(300, 200), "image/png", "cover");
    expect(await getStorage().exists(variantKey("100x100", cover))).toBe(false);
  });

  it("stores the image re-encoded, without its EXIF data", async () => {
    const jpeg = await makeJpeg(64, 64, { exif: { IFD0: { Copyright: "GPS-SECRET-MARKER" } } });
    const filename = await upload(alice.token, jpeg, "image/jpeg");
    const original = await api.get(`/api/upload/orig/${filename}`);
    expect(original.status).toBe(200);
    expect(original.bytes.includes("GPS-SECRET-MARKER")).toBe(false);
  });

  it("refuses a second PUT to the same URL and keeps the first file", async () => {
    const { filename, uploadURL } = await requestUrl(alice.token);
    const first = await makePng(40, 30);
    expect((await putFile(uploadURL, first, "image/png")).status).toBe(200);
    const stored = await (await getStorage().get(masterKey(filename)))!.bytes();

    const again = await putFile(uploadURL, await makePng(80, 60), "image/png");
    expect(again.status).toBe(409);
    expect(detailOf(again)).toBe(
      "This upload URL has already been used. Please upload the file again.",
    );
    expect((await (await getStorage().get(masterKey(filename)))!.bytes()).equals(stored)).toBe(
      true,
    );
  });

  it("accepts exactly one of two PUTs racing on the same URL", async () => {
    const { filename, uploadURL } = await requestUrl(alice.token);
    const [a, b] = await Promise.all([
      putFile(uploadURL, await makePng(40, 30), "image/png"),
      putFile(uploadURL, await makePng(30, 40), "image/png"),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const row = await db.upload.findUniqueOrThrow({ where: { id: filename } });
    const stored = await sharp(
      await (await getStorage().get(masterKey(filename)))!.bytes(),
    ).metadata();
    expect([stored.width, stored.height]).toEqual([row.width, row.height]);
    expect(a.status === 200 ? [40, 30] : [30, 40]).toEqual([row.width, row.height]);
  });

  it("does not use the URL up on a refused file", async () => {
    const { filename, uploadURL } = await requestUrl(alice.token);
    expect((await putFile(uploadURL, HTML_FILE, "image/png")).status).toBe(400);
    expect((await putFile(uploadURL, await makePng(10, 10), "image/png")).status).toBe(200);
    expect((await db.upload.findUniqueOrThrow({ where: { id: filename } })).status).toBe("TEMP");
  });

  it("refuses a pixel-flood PNG from its header, with no memory spike", async () => {
    const { filename, uploadURL } = await requestUrl(alice.token);
    const flood = makePixelFloodPng(100_000, 100_000);
    const before = process.memoryUsage().rss;
    const response = await putFile(uploadURL, flood, "image/png");
    const grown = process.memoryUsage().rss - before;
    expect(response.status).toBe(400);
    expect(detailOf(response)).toBe("Images must be at most 40 megapixels");
    expect(grown).toBeLessThan(200 * 1024 * 1024);
    expect(await getStorage().exists(masterKey(filename))).toBe(false);
  });
});

describe("lean images (ADR 015)", () => {
  const AVIF_BROWSER = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
  const WEBP_BROWSER = "image/webp,*/*";
  const OLD_BROWSER = "image/png,image/*;q=0.8,*/*;q=0.5";

  it("stores an oversized upload within the 2,048 px cap, as WebP, and records that size", async () => {
    const filename = await upload(alice.token, await makePng(3000, 1500));
    const stored = await getStorage().get(masterKey(filename));
    expect(stored?.contentType).toBe("image/webp");
    const meta = await sharp(await stored!.bytes()).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", MAX_STORED_SIDE, 1024]);
    expect(await getStorage().exists(filename)).toBe(false);
    expect(await db.upload.findUniqueOrThrow({ where: { id: filename } })).toMatchObject({
      width: 2048,
      height: 1024,
      size: stored!.size,
    });
    // A JPEG taller than wide is capped on its height.
    const tall = await upload(alice.token, await makeJpeg(1200, 2600), "image/jpeg", "cover");
    const tallMeta = await sharp(
      await (await getStorage().get(masterKey(tall)))!.bytes(),
    ).metadata();
    expect([tallMeta.width, tallMeta.height]).toEqual([945, 2048]);
    // An image within the cap keeps its size.
    const small = await upload(alice.token, await makePng(640, 480));
    const smallMeta = await sharp(
      await (await getStorage().get(masterKey(small)))!.bytes(),
    ).metadata();
    expect([smallMeta.width, smallMeta.height]).toEqual([640, 480]);
  });

  it.each<[string, string | undefined, string, string]>([
    ["AVIF", AVIF_BROWSER, "image/avif", "heif"],
    ["WebP", WEBP_BROWSER, "image/webp", "webp"],
    ["the PNG of its name", OLD_BROWSER, "image/png", "png"],
    ["the PNG of its name (no Accept header)", undefined, "image/png", "png"],
    ["the PNG of its name (AVIF refused with q=0)", "image/avif;q=0,*/*", "image/png", "png"],
  ])("serves a browser %s, with Vary: Accept", async (_name, accept, type, format) => {
    const filename = await upload(alice.token, await makePng(900, 600));
    const headers = accept ? { accept } : undefined;
    for (const size of ["200x200", "600x320"]) {
      const response = await call("GET", `/api/upload/${size}/${filename}`, { headers });
      expectImageHeaders(response, type);
      const [width, height] = size.split("x").map(Number);
      expect(await metadataOf(response)).toMatchObject({ format, width, height });
      // Made once, then served from storage in the same format.
      const again = await call("GET", `/api/upload/${size}/${filename}`, { headers });
      expect(again.bytes.equals(response.bytes)).toBe(true);
    }
  });

  it("serves a JPEG's variants as JPEG to a browser without AVIF or WebP, and AVIF to one with", async () => {
    const filename = await upload(alice.token, await makeJpeg(1280, 720), "image/jpeg", "cover");
    const old = await call("GET", `/api/upload/600x320/${filename}`, {
      headers: { accept: OLD_BROWSER },
    });
    expectImageHeaders(old, "image/jpeg");
    const lean = await call("GET", `/api/upload/600x320/${filename}`, {
      headers: { accept: AVIF_BROWSER },
    });
    expectImageHeaders(lean, "image/avif");
    expect(lean.bytes.length).toBeLessThan(old.bytes.length);
  });

  it("serves the original as the stored WebP, or in the name's format to other browsers", async () => {
    const filename = await upload(alice.token, await makePng(2500, 1000));
    const lean = await call("GET", `/api/upload/orig/${filename}`, {
      headers: { accept: AVIF_BROWSER },
    });
    expectImageHeaders(lean, "image/webp");
    expect(await metadataOf(lean)).toMatchObject({ format: "webp", width: 2048, height: 819 });
    const old = await call("GET", `/api/upload/orig/${filename}`, {
      headers: { accept: OLD_BROWSER },
    });
    expectImageHeaders(old, "image/png");
    expect(await metadataOf(old)).toMatchObject({ format: "png", width: 2048, height: 819 });
  });

  it("still serves an image stored before ADR 015 (full size, own format, under its name)", async () => {
    const { filename } = await requestUrl(alice.token);
    await getStorage().put(filename, await makePng(2400, 1200), "image/png");
    const orig = await call("GET", `/api/upload/orig/${filename}`, {
      headers: { accept: AVIF_BROWSER },
    });
    expectImageHeaders(orig, "image/png");
    const resized = await call("GET", `/api/upload/200x200/${filename}`, {
      headers: { accept: AVIF_BROWSER },
    });
    expectImageHeaders(resized, "image/avif");
    await deleteUploadFiles([filename]);
  });
});

describe("PUT to an upload URL refuses", () => {
  const TOO_BIG = "Files must be under 10MB in size";
  const NOT_AN_IMAGE = "File must be a JPG or PNG";
  it.each<[string, ImageType, string, () => Promise<Buffer>, number, string]>([
    [
      "a 10,000,001-byte file",
      "image/png",
      "image/png",
      async () => makeOversizedFile(10_000_001),
      413,
      TOO_BIG,
    ],
    ["HTML sent as image/png", "image/png", "image/png", async () => HTML_FILE, 400, NOT_AN_IMAGE],
    ["SVG sent as image/png", "image/png", "image/png", async () => SVG_FILE, 400, NOT_AN_IMAGE],
    ["an SVG content type", "image/png", "image/svg+xml", async () => SVG_FILE, 400, NOT_AN_IMAGE],
    ["no content type", "image/png", "", () => makePng(8, 8), 400, NOT_AN_IMAGE],
    [
      "a real PNG declared as JPEG",
      "image/jpeg",
      "image/jpeg",
      () => makePng(8, 8),
      400,
      "File must be a JPG or PNG, and this one is a PNG sent as image/jpeg",
    ],
    [
      "a type other than the URL was issued for",
      "image/png",
      "image/jpeg",
      () => makeJpeg(8, 8),
      400,
      "This upload URL expects a file of type image/png",
    ],
    ["a PNG+HTML polyglot", "image/png", "image/png", makePngHtmlPolyglot, 400, POLYGLOT],
    ["a JPEG+HTML polyglot", "image/jpeg", "image/jpeg", makeJpegHtmlPolyglot, 400, POLYGLOT],
    ["a PNG+ZIP polyglot", "image/png", "image/png", makePngZipPolyglot, 400, POLYGLOT],
    [
      "a truncated PNG",
      "image/png",
      "image/png",
      makeTruncatedPng,
      400,
      "This image is damaged or incomplete and could not be read",
    ],
    [
      "a pixel-flood PNG",
      "image/png",
      "image/png",
      async () => makePixelFloodPng(),
      400,
      "Images must be at most 40 megapixels",
    ],
  ])("%s", async (_name, urlType, contentType, make, status, detail) => {
    const { filename, uploadURL } = await requestUrl(alice.token, urlType);
    const response = await putFile(uploadURL, await make(), contentType);
    expect(response.status).toBe(status);
    expect(detailOf(response)).toBe(detail);
    expect((await db.upload.findUniqueOrThrow({ where: { id: filename } })).status).toBe("PENDING");
    expect(await getStorage().exists(masterKey(filename))).toBe(false);
  });

  const INVALID = "This upload URL is not valid. Please upload the file again.";
  it.each<[string, (url: URL, other: string) => string, number, string]>([
    [
      "a tampered signature",
      (url) => {
        const signature = url.searchParams.get("signature")!;
        url.searchParams.set("signature", (signature[0] === "A" ? "B" : "A") + signature.slice(1));
        return url.pathname + url.search;
      },
      400,
      INVALID,
    ],
    [
      "a later expiry",
      (url) => {
        url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
        return url.pathname + url.search;
      },
      400,
      INVALID,
    ],
    ["another file's name", (url, other) => `/api/upload/file/${other}${url.search}`, 400, INVALID],
    ["no signature", (url) => url.pathname, 400, INVALID],
    [
      "a malformed file name",
      (url) => `/api/upload/file/avatar/..%2F..%2Fetc%2Fpasswd${url.search}`,
      404,
      "Not found",
    ],
  ])("%s", async (_name, tamper, status, detail) => {
    const { filename, uploadURL } = await requestUrl(alice.token);
    const other = await requestUrl(alice.token);
    const response = await call("PUT", tamper(new URL(uploadURL), other.filename), {
      rawBody: new Uint8Array(await makePng(8, 8)),
      headers: { "content-type": "image/png" },
    });
    expect(response.status).toBe(status);
    expect(detailOf(response)).toBe(detail);
    for (const name of [filename, other.filename]) {
      expect((await db.upload.findUniqueOrThrow({ where: { id: name } })).status).toBe("PENDING");
    }
  });

  it("an expired URL, with 410", async () => {
    const { filename, uploadURL } = await createUploadUrl({
      ownerId: alice.username,
      type: "image/png",
      dir: "avatar",
      now: new Date(Date.now() - 16 * 60 * 1000),
    });
    const response = await putFile(uploadURL, await makePng(8, 8), "image/png");
    expect(response.status).toBe(410);
    expect(detailOf(response)).toBe("This upload URL has expired. Please upload the file again.");
    expect((await db.upload.findUniqueOrThrow({ where: { id: filename } })).status).toBe("PENDING");
  });
});

describe("GET /api/upload/url refuses", () => {
  it.each<[string, string, () => string | null, number, string]>([
    ["a GIF", "type=image/gif&dir=avatar", () => alice.token, 400, "File must be a JPG or PNG"],
    [
      "an SVG",
      "type=image/svg%2Bxml&dir=avatar",
      () => alice.token,
      400,
      "File must be a JPG or PNG",
    ],
    ["no type", "dir=avatar", () => alice.token, 400, "File must be a JPG or PNG"],
    [
      "another dir",
      "type=image/png&dir=../etc",
      () => alice.token,
      400,
      "dir must be avatar or cover",
    ],
    ["no token", "type=image/png&dir=avatar", () => null, 401, "Looks like you're not logged in"],
    [
      "a forged token",
      "type=image/png&dir=avatar",
      () => "eyJhbGciOiJIUzI1NiJ9.eyJ1c2VybmFtZSI6ImFsaWNlIiwic3YiOjB9.Zm9yZ2Vk",
      403,
      "You're session expired. Please login again.",
    ],
  ])("%s", async (_name, query, token, status, detail) => {
    const before = await db.upload.count({ where: { ownerId: alice.username } });
    const response = await api.get(`/api/upload/url?${query}`, { token: token() });
    expect(response.status).toBe(status);
    expect(detailOf(response)).toBe(detail);
    expect(await db.upload.count({ where: { ownerId: alice.username } })).toBe(before);
  });
});

describe("serving images", () => {
  let filename: string;
  let pending: string;
  beforeAll(async () => {
    filename = await upload(alice.token, await makePng(64, 64));
    pending = (await requestUrl(alice.token)).filename;
  });

  it("is public: no token is needed to read an image", async () => {
    const response = await api.get(`/api/upload/orig/${filename}`);
    expectImageHeaders(response, "image/png");
    expect(await metadataOf(response)).toMatchObject({ width: 64, height: 64 });
  });

  it.each<[string, () => string, string]>([
    [
      "a size that is not allow-listed",
      () => `/api/upload/123x456/${filename}`,
      "Images are served only at these sizes: 200x200, 600x320, 100x100, 1200x640",
    ],
    [
      "an enormous size",
      () => `/api/upload/100000x100000/${filename}`,
      "Images are served only at these sizes: 200x200, 600x320, 100x100, 1200x640",
    ],
    ["an unknown image", () => "/api/upload/orig/avatar/nope.png", "Image not found"],
    ["an unknown image at a size", () => "/api/upload/200x200/cover/nope.jpg", "Image not found"],
    ["an upload whose file never arrived", () => `/api/upload/orig/${pending}`, "Image not found"],
    ["a traversal", () => "/api/upload/orig/avatar/..%2F..%2Fpackage.json", "Image not found"],
    [
      "a variant path as an original",
      () => `/api/upload/orig/variants/200x200/${filename}`,
      "Image not found",
    ],
    ["an unknown kind", () => `/api/upload/big/${filename}`, "Not found"],
  ])("answers 404 for %s", async (_name, pathOf, detail) => {
    const response = await api.get(pathOf());
    expect(response.status).toBe(404);
    expect(detailOf(response)).toBe(detail);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});

describe("PUT /api/upload/crop", () => {
  it.each<[ImageType, () => Promise<Buffer>]>([
    ["image/png", () => makePng(640, 480)],
    ["image/jpeg", () => makeJpeg(640, 480)],
  ])("crops a %s into a new upload of exactly the requested size", async (type, make) => {
    const source = await upload(alice.token, await make(), type, "avatar");
    const response = await api.put(
      "/api/upload/crop",
      { image: source, cropData: { x: 10, y: 20, width: 300, height: 200 } },
      { token: alice.token },
    );
    expect(response.status).toBe(200);
    const { filename } = response.body as { filename: string };
    expect(filename).not.toBe(source);
    expect(filename).toMatch(new RegExp(`^avatar/[0-9a-f-]{36}\\${path.extname(source)}$`));
    expect(await db.upload.findUniqueOrThrow({ where: { id: filename } })).toMatchObject({
      ownerId: alice.username,
      status: "TEMP",
      contentType: type,
      width: 300,
      height: 200,
    });
    const cropped = await api.get(`/api/upload/orig/${filename}`);
    expectImageHeaders(cropped, type);
    expect(await metadataOf(cropped)).toMatchObject({ width: 300, height: 200 });
  });

  it("crops the whole image, edge to edge", async () => {
    const source = await upload(alice.token, await makePng(120, 90));
    const response = await api.put(
      "/api/upload/crop",
      { image: source, cropData: { x: 0, y: 0, width: 120, height: 90 } },
      { token: alice.token },
    );
    expect(response.status).toBe(200);
    const cropped = await api.get(
      `/api/upload/orig/${(response.body as { filename: string }).filename}`,
    );
    expect(await metadataOf(cropped)).toMatchObject({ width: 120, height: 90 });
  });

  it("crops an upload that a tree or person already uses", async () => {
    const source = await upload(alice.token, await makePng(100, 100));
    await db.upload.update({ where: { id: source }, data: { status: "USED" } });
    const response = await api.put(
      "/api/upload/crop",
      { image: source, cropData: { x: 0, y: 0, width: 50, height: 50 } },
      { token: alice.token },
    );
    expect(response.status).toBe(200);
  });

  describe("refuses", () => {
    let source: string;
    let pending: string;
    let bobs: string;
    beforeAll(async () => {
      source = await upload(alice.token, await makePng(200, 100));
      pending = (await requestUrl(alice.token)).filename;
      bobs = await upload(bob.token, await makePng(200, 100));
    });

    const crop = { x: 0, y: 0, width: 50, height: 50 };
    it.each<[string, () => unknown, () => string | null, number, string]>([
      [
        "a rectangle past the right edge",
        () => ({ image: source, cropData: { x: 160, y: 0, width: 50, height: 50 } }),
        () => alice.token,
        400,
        "The crop area (50x50 at 160,0) must lie inside the image (200x100)",
      ],
      [
        "a rectangle past the bottom edge",
        () => ({ image: source, cropData: { x: 0, y: 1, width: 200, height: 100 } }),
        () => alice.token,
        400,
        "The crop area (200x100 at 0,1) must lie inside the image (200x100)",
      ],
      [
        "a negative x",
        () => ({ image: source, cropData: { ...crop, x: -1 } }),
        () => alice.token,
        400,
        "cropData.x: Too small: expected number to be >=0",
      ],
      [
        "a fractional width",
        () => ({ image: source, cropData: { ...crop, width: 10.5 } }),
        () => alice.token,
        400,
        "Crop values must be whole pixels",
      ],
      [
        "a zero height",
        () => ({ image: source, cropData: { ...crop, height: 0 } }),
        () => alice.token,
        400,
        "cropData.height: Too small: expected number to be >=1",
      ],
      [
        "no cropData",
        () => ({ image: source }),
        () => alice.token,
        400,
        "cropData: Invalid input: expected object, received undefined",
      ],
      [
        "an image name with a path",
        () => ({ image: "avatar/../../etc/passwd.png", cropData: crop }),
        () => alice.token,
        400,
        "Not a valid image name",
      ],
      [
        "another user's upload",
        () => ({ image: bobs, cropData: crop }),
        () => alice.token,
        404,
        "That image was not found",
      ],
      [
        "an unknown upload",
        () => ({ image: "avatar/nope.png", cropData: crop }),
        () => alice.token,
        404,
        "That image was not found",
      ],
      [
        "an upload whose file never arrived",
        () => ({ image: pending, cropData: crop }),
        () => alice.token,
        404,
        "That image was not found",
      ],
      [
        "a caller without a token",
        () => ({ image: source, cropData: crop }),
        () => null,
        401,
        "Looks like you're not logged in",
      ],
    ])("%s", async (_name, body, token, status, detail) => {
      const ours = { ownerId: { in: [alice.username, bob.username] } };
      const before = await db.upload.count({ where: ours });
      const response = await api.put("/api/upload/crop", body(), { token: token() });
      expect(response.status).toBe(status);
      expect(detailOf(response)).toBe(detail);
      expect(await db.upload.count({ where: ours })).toBe(before);
    });
  });
});

describe("cleanupTemporaryUploads", () => {
  it("deletes TEMP and PENDING uploads older than a day, with their files and variants", async () => {
    const now = new Date();
    const dayAndHourAgo = new Date(now.getTime() - 25 * 60 * 60 * 1000);
    const almostADayAgo = new Date(now.getTime() - 23 * 60 * 60 * 1000);
    const oldTemp = await upload(alice.token, await makePng(300, 300));
    expect((await api.get(`/api/upload/200x200/${oldTemp}`)).status).toBe(200);
    const oldPending = (await requestUrl(alice.token)).filename;
    const oldUsed = await upload(alice.token, await makePng(30, 30));
    const recentTemp = await upload(alice.token, await makePng(30, 30));
    await db.upload.updateMany({
      where: { id: { in: [oldTemp, oldPending, oldUsed] } },
      data: { createdAt: dayAndHourAgo },
    });
    await db.upload.update({ where: { id: oldUsed }, data: { status: "USED" } });
    await db.upload.update({ where: { id: recentTemp }, data: { createdAt: almostADayAgo } });

    await cleanupTemporaryUploads(now);

    const left = await db.upload.findMany({
      where: { id: { in: [oldTemp, oldPending, oldUsed, recentTemp] } },
      select: { id: true },
    });
    expect(left.map((u) => u.id).sort()).toEqual([oldUsed, recentTemp].sort());
    const storage = getStorage();
    expect(await storage.exists(masterKey(oldTemp))).toBe(false);
    expect(await storage.exists(variantKey("200x200", oldTemp))).toBe(false);
    expect(await storage.exists(masterKey(oldUsed))).toBe(true);
    expect(await storage.exists(masterKey(recentTemp))).toBe(true);
    expect((await api.get(`/api/upload/orig/${oldTemp}`)).status).toBe(404);
  });

  it("runs in the background at most once an hour per process", async () => {
    // Issuing an upload URL has already started it once in this process.
    await requestUrl(alice.token);
    expect(scheduleTemporaryUploadCleanup(new Date())).toBe(false);
    const later = new Date(Date.now() + CLEANUP_INTERVAL_MS + 1000);
    expect(scheduleTemporaryUploadCleanup(later)).toBe(true);
    expect(scheduleTemporaryUploadCleanup(new Date(later.getTime() + 1000))).toBe(false);
  });
});
