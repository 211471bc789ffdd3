import "server-only";
import { IMAGE_SIZES } from "@/lib/schemas/upload";
import { getStorage } from "@/lib/server/storage";
import { incomingKey, masterKey, variantKeys } from "./image-files";

export { variantKey } from "./image-files";

/**
 * Every key an image may be stored under: its original (lean or legacy), every variant, and the
 * unchecked file a browser PUT to a presigned bucket URL (which may arrive again after confirming).
 */
export function storedKeys(name: string): string[] {
  return [
    masterKey(name),
    name,
    incomingKey(name),
    ...["orig", ...IMAGE_SIZES].flatMap((size) => variantKeys(size, name)),
  ];
}

/** Removes stored images together with every variant made from them, in every format. */
export async function deleteUploadFiles(names: readonly string[]): Promise<void> {
  const storage = getStorage();
  for (const name of names) {
    await Promise.all(storedKeys(name).map((key) => storage.delete(key)));
  }
}
