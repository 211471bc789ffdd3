import "server-only";
import { BlobNotFoundError, del, get, head, list, put } from "@vercel/blob";
import {
  assertValidKey,
  assertValidPrefix,
  readStream,
  type ListedObject,
  type Storage,
  type StoredObject,
} from "./storage";

/**
 * Vercel Blob, used when BLOB_READ_WRITE_TOKEN is set. Objects are public (every image is
 * publicly readable through our routes anyway) and keep the exact key as their pathname.
 */
export class VercelBlobStorage implements Storage {
  constructor(private readonly token: string) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertValidKey(key);
    await put(key, Buffer.from(bytes), {
      access: "public",
      contentType,
      token: this.token,
      addRandomSuffix: false,
      allowOverwrite: true,
      cacheControlMaxAge: 31_536_000,
    });
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidKey(key);
    const found = await get(key, { access: "public", token: this.token });
    if (!found || found.statusCode !== 200) return null;
    const { stream, blob } = found;
    return {
      contentType: blob.contentType,
      size: blob.size,
      stream: () => stream,
      bytes: () => readStream(stream),
    };
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await del(key, { token: this.token });
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key);
    try {
      await head(key, { token: this.token });
      return true;
    } catch (error) {
      if (error instanceof BlobNotFoundError) return false;
      throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertValidPrefix(prefix);
    let cursor: string | undefined;
    do {
      const page = await list({ prefix, cursor, token: this.token });
      for (const blob of page.blobs) {
        yield { key: blob.pathname, size: blob.size, lastModified: blob.uploadedAt };
      }
      cursor = page.hasMore ? page.cursor : undefined;
    } while (cursor);
  }
}
