import "server-only";
import { ApiError } from "@/lib/server/errors";

/** The largest file an import accepts: a Plum Tree backup with thousands of photos. */
export const MAX_IMPORT_BYTES = 200 * 1024 * 1024;
export const IMPORT_TOO_BIG = "Backups must be under 200 MB";

/**
 * Reads the raw request body, refusing it with 413 as soon as the declared length or the running
 * count passes `limit`, so an endless upload never fills the memory.
 */
export async function readImportBody(req: Request, limit = MAX_IMPORT_BYTES): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new ApiError(413, IMPORT_TOO_BIG);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new ApiError(413, IMPORT_TOO_BIG);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
