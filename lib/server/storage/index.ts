import "server-only";
import { getEnv, type Env } from "@/lib/env";
import { LocalDiskStorage } from "./local-disk";
import { S3Storage } from "./s3";
import type { Storage } from "./storage";
import { VercelBlobStorage } from "./vercel-blob";

export type { ListedObject, Storage, StoredObject } from "./storage";

type StorageEnv = Pick<
  Env,
  | "BLOB_READ_WRITE_TOKEN"
  | "UPLOADS_DIR"
  | "S3_BUCKET"
  | "S3_ENDPOINT"
  | "S3_REGION"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
  | "S3_FORCE_PATH_STYLE"
  | "S3_DIRECT_UPLOADS"
>;

/**
 * An S3-compatible bucket when S3_BUCKET is set, Vercel Blob when BLOB_READ_WRITE_TOKEN is set,
 * otherwise local disk under UPLOADS_DIR. Both at once is refused: images would be split.
 */
export function createStorage(env: StorageEnv): Storage {
  if (env.S3_BUCKET && env.BLOB_READ_WRITE_TOKEN) {
    throw new Error("Set S3_BUCKET or BLOB_READ_WRITE_TOKEN, not both: uploads live in one place");
  }
  if (env.S3_BUCKET) {
    return new S3Storage({
      bucket: env.S3_BUCKET,
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      directUploads: env.S3_DIRECT_UPLOADS,
    });
  }
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

/** Forget the chosen storage (tests that change the S3_* variables call this with resetEnvForTests). */
export function resetStorageForTests(): void {
  cached = undefined;
}
