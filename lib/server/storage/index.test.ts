import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { createStorage, getStorage, resetStorageForTests } from "./index";
import { LocalDiskStorage } from "./local-disk";
import { S3Storage } from "./s3";
import { VercelBlobStorage } from "./vercel-blob";

const uploadsDir = path.resolve("/tmp/heirloom-uploads");
const NO_S3 = {
  S3_BUCKET: undefined,
  S3_ENDPOINT: undefined,
  S3_REGION: "us-east-1",
  S3_ACCESS_KEY_ID: undefined,
  S3_SECRET_ACCESS_KEY: undefined,
  S3_FORCE_PATH_STYLE: false,
  S3_DIRECT_UPLOADS: true,
};
const R2 = {
  ...NO_S3,
  S3_BUCKET: "heirloom-images",
  S3_ENDPOINT: "https://0123456789abcdef.r2.cloudflarestorage.com",
  S3_REGION: "auto",
  S3_ACCESS_KEY_ID: "key-id",
  S3_SECRET_ACCESS_KEY: "secret",
};

describe("createStorage", () => {
  it("uses local disk under UPLOADS_DIR when no Blob token is set", () => {
    const storage = createStorage({
      ...NO_S3,
      BLOB_READ_WRITE_TOKEN: undefined,
      UPLOADS_DIR: uploadsDir,
    });
    expect(storage).toBeInstanceOf(LocalDiskStorage);
    expect((storage as LocalDiskStorage).root).toBe(uploadsDir);
  });

  it("uses Vercel Blob when BLOB_READ_WRITE_TOKEN is set", () => {
    const storage = createStorage({
      ...NO_S3,
      BLOB_READ_WRITE_TOKEN: "vercel_blob_rw_store_secret",
      UPLOADS_DIR: uploadsDir,
    });
    expect(storage).toBeInstanceOf(VercelBlobStorage);
  });

  it("uses the S3 bucket when S3_BUCKET is set, presigning uploads unless told not to", async () => {
    const storage = createStorage({
      ...R2,
      BLOB_READ_WRITE_TOKEN: undefined,
      UPLOADS_DIR: uploadsDir,
    });
    expect(storage).toBeInstanceOf(S3Storage);
    const s3 = storage as S3Storage;
    expect(s3.bucket).toBe("heirloom-images");
    expect(await s3.client.config.region()).toBe("auto");
    expect(s3.client.config.forcePathStyle).toBe(false);
    expect(s3.signedUploadUrl).toBeTypeOf("function");

    const proxied = createStorage({
      ...R2,
      S3_DIRECT_UPLOADS: false,
      S3_FORCE_PATH_STYLE: true,
      BLOB_READ_WRITE_TOKEN: undefined,
      UPLOADS_DIR: uploadsDir,
    }) as S3Storage;
    expect(proxied.signedUploadUrl).toBeUndefined();
    expect(proxied.client.config.forcePathStyle).toBe(true);
  });

  it("refuses S3_BUCKET together with BLOB_READ_WRITE_TOKEN", () => {
    expect(() =>
      createStorage({ ...R2, BLOB_READ_WRITE_TOKEN: "vercel_blob_rw_x", UPLOADS_DIR: uploadsDir }),
    ).toThrow(/not both/);
  });
});

describe("getStorage", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("reads the choice from the environment once", () => {
    vi.stubEnv("DATA_DIR", "/tmp/heirloom-data");
    resetEnvForTests();
    const storage = getStorage();
    expect(storage).toBeInstanceOf(LocalDiskStorage);
    expect((storage as LocalDiskStorage).root).toBe("/tmp/heirloom-data/uploads");
    expect(getStorage()).toBe(storage);
  });

  it("reads the S3_* variables", async () => {
    vi.stubEnv("S3_BUCKET", "heirloom");
    vi.stubEnv("S3_ENDPOINT", "http://127.0.0.1:9000");
    vi.stubEnv("S3_FORCE_PATH_STYLE", "true");
    vi.stubEnv("S3_DIRECT_UPLOADS", "false");
    resetEnvForTests();
    resetStorageForTests();
    const storage = getStorage() as S3Storage;
    resetStorageForTests();
    expect(storage).toBeInstanceOf(S3Storage);
    expect(await storage.client.config.region()).toBe("us-east-1");
    expect(storage.client.config.forcePathStyle).toBe(true);
    expect(storage.signedUploadUrl).toBeUndefined();
    const endpoint = await storage.client.config.endpoint!();
    expect(`${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}`).toBe(
      "http://127.0.0.1:9000",
    );
  });
});
