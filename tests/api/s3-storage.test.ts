// The S3 backend against a real S3 server (s3rver over HTTP, started by tests/helpers/setup-s3rver.ts):
// the same storage contract as local disk, and what only a bucket does.
import { describe, expect, it } from "vitest";
import { S3Storage } from "@/lib/server/storage/s3";
import { createTestBucket } from "../helpers/s3";
import { describeStorageBackend } from "../helpers/storage-suite";

describeStorageBackend("S3Storage", async () => new S3Storage(await createTestBucket("contract")));

describe("S3Storage on an S3 server", () => {
  it("lists past one page of keys", async () => {
    const storage = new S3Storage({ ...(await createTestBucket("paging")), listPageSize: 2 });
    const keys = ["a", "b", "c", "d", "e"].map((k) => `incoming/avatar/${k}.png`);
    for (const key of keys) await storage.put(key, Buffer.alloc(1), "image/png");
    await storage.put("outside/x.png", Buffer.alloc(1), "image/png");
    const listed: string[] = [];
    for await (const object of storage.list("incoming/")) listed.push(object.key);
    expect(listed.sort()).toEqual(keys);
  });

  it("accepts a PUT to its presigned URL with the signed content type, into that key only", async () => {
    const storage = new S3Storage(await createTestBucket("presign"));
    const now = new Date();
    const url = await storage.signedUploadUrl!(
      "incoming/avatar/x.png",
      "image/png",
      new Date(now.getTime() + 15 * 60_000),
      now,
    );
    const put = await fetch(url, {
      method: "PUT",
      body: new Uint8Array(Buffer.from("bytes")),
      headers: { "content-type": "image/png" },
    });
    expect(put.status).toBe(200);
    const stored = await storage.get("incoming/avatar/x.png");
    expect(stored?.contentType).toBe("image/png");
    expect((await stored!.bytes()).toString()).toBe("bytes");
  });

  it("has the server refuse a presigned URL once it has expired", async () => {
    const storage = new S3Storage(await createTestBucket("expired"));
    const signedAt = new Date(Date.now() - 16 * 60_000);
    const url = await storage.signedUploadUrl!(
      "incoming/avatar/late.png",
      "image/png",
      new Date(signedAt.getTime() + 15 * 60_000),
      signedAt,
    );
    const put = await fetch(url, {
      method: "PUT",
      body: new Uint8Array(Buffer.from("late")),
      headers: { "content-type": "image/png" },
    });
    expect(put.status).toBe(403);
    expect(await put.text()).toMatch(/expired/);
    expect(await storage.exists("incoming/avatar/late.png")).toBe(false);
  });
});
