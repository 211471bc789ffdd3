import "server-only";
import { readBodyBytes } from "@/lib/server/http";

/** The largest file an import accepts: a Plum Tree backup with thousands of photos. */
export const MAX_IMPORT_BYTES = 200 * 1024 * 1024;
export const IMPORT_TOO_BIG = "Backups must be under 200 MB";

/** Reads the uploaded file, refused with 413 once it passes `limit` (see readBodyBytes). */
export function readImportBody(req: Request, limit = MAX_IMPORT_BYTES): Promise<Uint8Array> {
  return readBodyBytes(req, limit, IMPORT_TOO_BIG);
}
