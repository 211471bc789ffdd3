import "server-only";
import type { ImportQuery } from "@/lib/import/schemas";
import { ImportError } from "@/lib/import/types";
import type { ZipLimits } from "@/lib/import/zip";
import { ApiError } from "@/lib/server/http/errors";
import type { RateLimitRule } from "@/lib/server/rate-limit";
import { workerPool, type WorkerPool } from "@/lib/server/workers/pool";
import { importPrepared, type ImportResult } from "./import-tree";
import type { ImportSource } from "./prepare-import";

/** Imports per player: each one unpacks, checks and re-encodes up to 200 MB. */
export const IMPORT_PER_USER: RateLimitRule = {
  name: "import:user",
  limit: 30,
  windowSeconds: 60 * 60,
  message: "Too many imports.",
};

export const EMPTY_FILE = "The file is empty. Choose a backup ZIP or a GEDCOM file.";

/**
 * Imports an uploaded file (its path, or its bytes) as a new tree of `ownerId`: a worker thread
 * reads it (as `query.format`, or as detected) and builds the rows (prepare-import.ts), then this
 * thread stores the images and writes the rows (import-tree.ts). A file that cannot be read is a
 * 400 whose detail says why; one past the worker's time or memory limit a 422 or 413; nothing is
 * created then.
 */
export async function importFile(
  ownerId: string,
  source: ImportSource | Uint8Array,
  query: ImportQuery,
  options: { limits?: ZipLimits; pool?: WorkerPool } = {},
): Promise<ImportResult> {
  const input = source instanceof Uint8Array ? { bytes: source } : source;
  if ("bytes" in input && input.bytes.length === 0) throw new ApiError(400, EMPTY_FILE);
  try {
    const prepared = await (options.pool ?? workerPool()).run("import", {
      source: input,
      format: query.format,
      limits: options.limits,
      fileName: query.fileName,
      household: query.household,
      households: query.households,
      title: query.title || undefined,
    });
    return await importPrepared(ownerId, prepared);
  } catch (error) {
    if (error instanceof ImportError) throw new ApiError(400, error.message);
    throw error;
  }
}
