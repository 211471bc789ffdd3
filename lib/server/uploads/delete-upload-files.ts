import "server-only";
import { IMAGE_SIZES } from "@/lib/schemas/upload";
import { getStorage } from "@/lib/server/storage";
import { variantKey } from "./image-files";

export { variantKey } from "./image-files";

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
