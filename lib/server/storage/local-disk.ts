import "server-only";
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../private-files";
import { contentTypeForKey } from "./content-type";
import {
  assertValidKey,
  assertValidPrefix,
  type ListedObject,
  type Storage,
  type StoredObject,
} from "./storage";

export { contentTypeForKey };

const isMissing = (error: unknown) =>
  (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
/** A write in flight (`put`'s temporary file), which a listing leaves out. */
const TEMPORARY_FILE = /\.[0-9a-f]{12}\.tmp$/;

/**
 * Files under one root directory. The content type comes from the key's extension, so `put`
 * refuses a type that the extension contradicts. Writes go to a temporary file that is then
 * renamed over the target, so concurrent writers and readers never see a partial file.
 */
export class LocalDiskStorage implements Storage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The absolute path for a key; throws for any key that would resolve outside the root. */
  pathFor(key: string): string {
    assertValidKey(key);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error("Storage key escapes the root");
    return full;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const full = this.pathFor(key);
    if (contentTypeForKey(key) !== contentType) {
      throw new Error(`Content type ${contentType} does not match the key ${key}`);
    }
    // The account's own only (lib/server/private-files.ts), whatever the process's umask.
    await fs.mkdir(path.dirname(full), { recursive: true, mode: PRIVATE_DIR_MODE });
    const temporary = `${full}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await fs.writeFile(temporary, bytes, { mode: PRIVATE_FILE_MODE });
      await fs.rename(temporary, full);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const full = this.pathFor(key);
    let size: number;
    try {
      const stat = await fs.stat(full);
      if (!stat.isFile()) return null;
      size = stat.size;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    return {
      contentType: contentTypeForKey(key),
      size,
      stream: () => Readable.toWeb(createReadStream(full)) as ReadableStream<Uint8Array>,
      bytes: () => fs.readFile(full),
    };
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathFor(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await fs.stat(this.pathFor(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertValidPrefix(prefix);
    // Walk only the folder the prefix names (its part up to the last "/"), then filter by prefix.
    const folder = prefix.slice(0, prefix.lastIndexOf("/") + 1);
    let entries: string[];
    try {
      entries = await fs.readdir(path.join(this.root, folder), { recursive: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const key = folder + entry.split(path.sep).join("/");
      if (!key.startsWith(prefix) || TEMPORARY_FILE.test(key)) continue;
      try {
        const stat = await fs.stat(path.join(this.root, key));
        if (stat.isFile()) yield { key, size: stat.size, lastModified: stat.mtime };
      } catch (error) {
        if (!isMissing(error)) throw error; // deleted since the folder was read
      }
    }
  }
}
