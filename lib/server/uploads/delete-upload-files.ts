import "server-only";
import { IMAGE_SIZES } from "@/lib/schemas/upload";
import { getStorage } from "@/lib/server/storage";

/** The storage key of a resized variant of an image. */
export function variantKey(size: string, name: string): string {
  return `variants/${size}/${name}`;
}

/** Removes stored images together with every resized variant made from them. */
export async function deleteUploadFiles(names: readonly string[]): Promise<void> {
  const storage = getStorage();
  for (const name of names) {
    await Promise.all([
      storage.delete(name),
      ...IMAGE_SIZES.map((size) => storage.delete(variantKey(size, name))),
    ]);
  }
}
