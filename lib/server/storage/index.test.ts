import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { createStorage, getStorage } from "./index";
import { LocalDiskStorage } from "./local-disk";
import { VercelBlobStorage } from "./vercel-blob";

const uploadsDir = path.resolve("/tmp/heirloom-uploads");

describe("createStorage", () => {
  it("uses local disk under UPLOADS_DIR when no Blob token is set", () => {
    const storage = createStorage({ BLOB_READ_WRITE_TOKEN: undefined, UPLOADS_DIR: uploadsDir });
    expect(storage).toBeInstanceOf(LocalDiskStorage);
    expect((storage as LocalDiskStorage).root).toBe(uploadsDir);
  });

  it("uses Vercel Blob when BLOB_READ_WRITE_TOKEN is set", () => {
    const storage = createStorage({
      BLOB_READ_WRITE_TOKEN: "vercel_blob_rw_store_secret",
      UPLOADS_DIR: uploadsDir,
    });
    expect(storage).toBeInstanceOf(VercelBlobStorage);
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
});
