import "server-only";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { contentTypeForKey } from "./content-type";
import {
  assertValidKey,
  assertValidPrefix,
  type ListedObject,
  type Storage,
  type StoredObject,
} from "./storage";

/** Where and how to reach the bucket (the S3_* variables of lib/env.ts). */
export interface S3Config {
  bucket: string;
  /** e.g. https://<account>.r2.cloudflarestorage.com; unset for AWS, which the region names. */
  endpoint?: string;
  /** "auto" for R2, the bucket's region for AWS and B2 (us-west-004), any for MinIO. */
  region: string;
  /** Unset: the SDK's own chain (AWS_* variables, shared config, an instance or task role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** https://endpoint/bucket/key instead of https://bucket.endpoint/key (MinIO, s3rver). */
  forcePathStyle: boolean;
  /** Hand the browser presigned PUT URLs to the bucket (needs CORS), else it PUTs to Heirloom. */
  directUploads: boolean;
  /** Keys per ListObjectsV2 page: S3's (and the default) is 1,000. */
  listPageSize?: number;
}

/** The longest a presigned upload URL may live; ours live 15 minutes (ADR 004). */
export const MAX_PRESIGNED_SECONDS = 3600;

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === "NoSuchKey" ||
    error.name === "NotFound" ||
    error.$metadata.httpStatusCode === 404);

/**
 * Any S3-compatible bucket: AWS S3, Cloudflare R2, Backblaze B2, MinIO, Ceph (ADR 018). The
 * bucket stays private: images are served through Heirloom's routes, never from the bucket. Like
 * local disk, `put` refuses a content type that the key's extension contradicts. An S3 PUT
 * replaces an object whole, so readers see the old bytes or the new ones.
 */
export class S3Storage implements Storage {
  readonly client: S3Client;
  readonly bucket: string;
  private readonly listPageSize: number | undefined;
  readonly signedUploadUrl?: Storage["signedUploadUrl"];

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.listPageSize = config.listPageSize;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // The SDK's default adds CRC32 checksum headers (and, on a presigned PUT, the checksum of an
      // empty body, which no real upload matches); R2, B2 and older MinIO reject some of them.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    if (config.directUploads) this.signedUploadUrl = this.presignPut.bind(this);
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertValidKey(key);
    if (contentTypeForKey(key) !== contentType) {
      throw new Error(`Content type ${contentType} does not match the key ${key}`);
    }
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
      }),
    );
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidKey(key);
    let found;
    try {
      found = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    const body = found.Body;
    if (!body) return null;
    return {
      contentType: found.ContentType ?? contentTypeForKey(key),
      size: found.ContentLength ?? 0,
      stream: () => body.transformToWebStream() as ReadableStream<Uint8Array>,
      bytes: async () => Buffer.from(await body.transformToByteArray()),
    };
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      // S3 answers 204 for a missing key; some compatible stores answer 404.
      if (!isNotFound(error)) throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertValidPrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ContinuationToken: token,
          MaxKeys: this.listPageSize,
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield {
          key: object.Key,
          size: object.Size ?? 0,
          lastModified: object.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * A presigned (SigV4, query-string) URL for one PUT of `contentType` under `key`. The content
   * type is a signed header, so the store refuses the PUT of any other type; nothing else (no ACL,
   * no tagging, no checksum) is signed, so the browser sends only Content-Type.
   */
  private async presignPut(
    key: string,
    contentType: string,
    expiresAt: Date,
    now: Date = new Date(),
  ): Promise<string> {
    assertValidKey(key);
    const seconds = Math.round((expiresAt.getTime() - now.getTime()) / 1000);
    if (seconds < 1 || seconds > MAX_PRESIGNED_SECONDS) {
      throw new Error(`A presigned URL lives 1 to ${MAX_PRESIGNED_SECONDS} s, not ${seconds} s`);
    }
    return await getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
      { expiresIn: seconds, signingDate: now, signableHeaders: new Set(["content-type"]) },
    );
  }
}
