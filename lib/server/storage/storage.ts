import "server-only";

/** A stored object as read back: its type and size, and its bytes as a stream or all at once. */
export interface StoredObject {
  contentType: string;
  size: number;
  /** The bytes as a web stream (for responses). Call at most one of `stream` and `bytes`. */
  stream(): ReadableStream<Uint8Array>;
  /** The bytes in memory (for sharp). */
  bytes(): Promise<Buffer>;
}

/** One object as a listing names it. */
export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

/**
 * Where uploaded images and their resized variants live. Keys are relative paths such as
 * "avatar/<id>.png" or "variants/200x200/avatar/<id>.png". A `put` replaces any previous object
 * atomically: a reader sees the old bytes or the new ones, never a torn file.
 */
export interface Storage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Every object whose key starts with `prefix` (e.g. "incoming/"), in no promised order. */
  list(prefix: string): AsyncIterable<ListedObject>;
  /**
   * A URL, signed at `now`, that accepts a PUT of `contentType` bytes under `key` until
   * `expiresAt`, for the browser to send the file straight to the store (an S3 presigned URL).
   * Backends without it have the browser PUT to Heirloom itself (uploads/receive-upload.ts).
   */
  signedUploadUrl?(key: string, contentType: string, expiresAt: Date, now?: Date): Promise<string>;
}

const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

/** Refuses keys that could leave the storage root: absolute paths, "..", backslashes, empty segments. */
export function assertValidKey(key: string): void {
  if (key.length > 300 || !KEY_PATTERN.test(key) || key.split("/").includes("..")) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key.slice(0, 80))}`);
  }
}

/** Refuses a listing prefix that is not "" or the start of a valid key ("incoming/", "avatar/ab"). */
export function assertValidPrefix(prefix: string): void {
  if (prefix !== "") assertValidKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix);
}

/** Reads a web stream to the end. */
export async function readStream(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
