import "server-only";
import { getEnv, type Env } from "@/lib/env";
import { LocalDiskStorage } from "./local-disk";
import type { Storage } from "./storage";
import { VercelBlobStorage } from "./vercel-blob";

export type { Storage, StoredObject } from "./storage";

/** Vercel Blob when BLOB_READ_WRITE_TOKEN is set, otherwise local disk under UPLOADS_DIR. */
export function createStorage(env: Pick<Env, "BLOB_READ_WRITE_TOKEN" | "UPLOADS_DIR">): Storage {
  return env.BLOB_READ_WRITE_TOKEN
    ? new VercelBlobStorage(env.BLOB_READ_WRITE_TOKEN)
    : new LocalDiskStorage(env.UPLOADS_DIR);
}

let cached: Storage | undefined;

/** The storage this process uses, chosen once from the environment. */
export function getStorage(): Storage {
  cached ??= createStorage(getEnv());
  return cached;
}
