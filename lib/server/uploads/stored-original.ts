import "server-only";
import { getStorage, type StoredObject } from "@/lib/server/storage";
import { contentTypeForKey } from "@/lib/server/storage/content-type";
import { masterKey } from "./image-files";
import { encodeVariant, openStored } from "./lean-image";

/**
 * An image's stored original: the lean WebP (ADR 015) under masterKey(name), or, for an image
 * stored before ADR 015, the bytes under the name itself in its own format. Null when neither is.
 */
export async function getStoredOriginal(
  name: string,
): Promise<{ object: StoredObject; lean: boolean } | null> {
  const storage = getStorage();
  const lean = await storage.get(masterKey(name));
  if (lean) return { object: lean, lean: true };
  const legacy = await storage.get(name);
  return legacy ? { object: legacy, lean: false } : null;
}

/**
 * An image's original in the format its name says (PNG or JPEG), e.g. for a backup ZIP: the lean
 * WebP re-encoded (not kept), or the bytes of an image stored before ADR 015. Null when missing.
 */
export async function readOriginalInOwnFormat(name: string): Promise<Buffer | null> {
  const stored = await getStoredOriginal(name);
  if (!stored) return null;
  const bytes = await stored.object.bytes();
  if (!stored.lean) return bytes;
  return encodeVariant(openStored(bytes), null, contentTypeForKey(name));
}
