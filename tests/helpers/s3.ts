// The S3 server of the api tests (tests/helpers/setup-s3rver.ts) and a bucket of one's own on it.
import { randomUUID } from "node:crypto";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, inject, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { resetStorageForTests } from "@/lib/server/storage";
import type { S3Config } from "@/lib/server/storage/s3";

/** s3rver's own credentials (it checks the key id, not SigV4 signatures). */
export const S3RVER_KEY = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** A new, empty bucket on the test S3 server, and the config that reaches it. */
export async function createTestBucket(label: string): Promise<S3Config> {
  const config: S3Config = {
    bucket: `heirloom-${label}-${randomUUID().slice(0, 8)}`,
    endpoint: inject("s3Endpoint"),
    region: "us-east-1",
    ...S3RVER_KEY,
    forcePathStyle: true,
    directUploads: true,
  };
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: true,
    credentials: S3RVER_KEY,
  });
  await client.send(new CreateBucketCommand({ Bucket: config.bucket }));
  client.destroy();
  return config;
}

/** The S3_* variables that make the app use `config` (stub them, then reset env and storage). */
export function s3EnvOf(config: S3Config): Record<string, string> {
  return {
    S3_BUCKET: config.bucket,
    S3_ENDPOINT: config.endpoint ?? "",
    S3_REGION: config.region,
    S3_ACCESS_KEY_ID: config.accessKeyId ?? "",
    S3_SECRET_ACCESS_KEY: config.secretAccessKey ?? "",
    S3_FORCE_PATH_STYLE: String(config.forcePathStyle),
    S3_DIRECT_UPLOADS: String(config.directUploads),
  };
}

/**
 * Makes the app store uploads in a new bucket on the test S3 server for the tests of the enclosing
 * describe (or file): the S3_* variables are stubbed, and the parsed env and storage forgotten.
 */
export function storeUploadsOnS3(label: string, options: { directUploads?: boolean } = {}) {
  let config: S3Config | undefined;
  beforeAll(async () => {
    config = { ...(await createTestBucket(label)), ...options };
    for (const [name, value] of Object.entries(s3EnvOf(config))) vi.stubEnv(name, value);
    resetEnvForTests();
    resetStorageForTests();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    resetEnvForTests();
    resetStorageForTests();
  });
  return () => config!;
}
