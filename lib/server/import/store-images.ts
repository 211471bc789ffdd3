import "server-only";
import { randomUUID } from "node:crypto";
import { MAX_UPLOAD_BYTES } from "@/lib/schemas/upload";
import { ApiError } from "@/lib/server/http/errors";
import { getStorage } from "@/lib/server/storage";
import { EXTENSIONS } from "@/lib/server/uploads/create-upload-url";
import { deleteUploadFiles } from "@/lib/server/uploads/delete-upload-files";
import { prepareAvatarThumbnail } from "@/lib/server/uploads/get-resized-image";
import { checkImage, NOT_AN_IMAGE, sniffImageType } from "@/lib/server/uploads/image-check";
import { masterKey } from "@/lib/server/uploads/image-files";

/** How many images are checked and re-encoded at once (sharp is CPU-bound). */
const CONCURRENCY = 4;

export interface StoredImage {
  /** The Heirloom name, e.g. "avatar/<uuid>.png". */
  name: string;
  dir: "avatar" | "cover";
  contentType: string;
  size: number;
  width: number;
  height: number;
}

export interface StoredImages {
  /** Imported image key → the stored image. */
  byKey: Map<string, StoredImage>;
  skipped: { image: string; reason: string }[];
  /** Removes every file written (the import failed after storing them). */
  discard(): Promise<void>;
}

/**
 * Puts each image through the upload pipeline's checks (real PNG or JPEG, no polyglot, at most
 * 40 MP, at most 10 MB, decoded and re-encoded without metadata) and stores the re-encoded bytes.
 * An image that fails is skipped, with the reason, and whoever used it has no image: one bad
 * picture should not cost a player their whole legacy. A storage failure is not skipped: files
 * already written are removed and the error is thrown.
 */
export async function storeImportedImages(
  images: ReadonlyMap<string, Uint8Array>,
  usage: ReadonlyMap<string, "avatar" | "cover">,
): Promise<StoredImages> {
  const storage = getStorage();
  const byKey = new Map<string, StoredImage>();
  const skipped: StoredImages["skipped"] = [];
  const written: string[] = [];
  const discard = () => deleteUploadFiles(written);

  const queue = [...usage.entries()];
  let failed = false;
  const work = async () => {
    for (let next = queue.shift(); next && !failed; next = queue.shift()) {
      const [key, dir] = next;
      const bytes = images.get(key);
      if (!bytes) {
        skipped.push({ image: key, reason: "The image is not in the file" });
        continue;
      }
      if (bytes.length > MAX_UPLOAD_BYTES) {
        skipped.push({ image: key, reason: "Files must be under 10MB in size" });
        continue;
      }
      const type = sniffImageType(bytes);
      if (!type) {
        skipped.push({ image: key, reason: NOT_AN_IMAGE });
        continue;
      }
      let checked;
      try {
        checked = await checkImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), type);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        skipped.push({ image: key, reason: error.detail });
        continue;
      }
      const name = `${dir}/${randomUUID()}.${EXTENSIONS[type]}`;
      written.push(name);
      // The lean original (ADR 015): WebP under masterKey(name).
      await storage.put(masterKey(name), checked.bytes, checked.storedType);
      await prepareAvatarThumbnail(name);
      byKey.set(key, {
        name,
        dir,
        contentType: type,
        size: checked.bytes.length,
        width: checked.width,
        height: checked.height,
      });
    }
  };
  // Every worker is waited for before cleaning up, so none writes a file after the cleanup.
  const results = await Promise.allSettled(
    Array.from({ length: CONCURRENCY }, () =>
      work().catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    ),
  );
  const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure) {
    await discard();
    throw failure.reason;
  }
  return { byKey, skipped, discard };
}
