import "server-only";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/server/http/errors";
import { EMPTY_FILE } from "./import-file";
import { EXPECTED_FILE, FirstFilePart, multipartBoundary } from "./multipart";
import type { ImportSource } from "./prepare-import";
import { chargeWorkerBudget, checkWorkerBudget } from "./worker-budget";
import { meterWorkerTime } from "@/lib/server/workers/worker-time";

/** The largest file an import accepts: a Plum Tree backup with thousands of photos. */
export const MAX_IMPORT_BYTES = 200 * 1024 * 1024;
export const IMPORT_TOO_BIG = "Backups must be under 200 MB";
export const IMPORTS_BUSY =
  "The server is busy with other imports right now. Please try again in a minute.";
/** Seconds a refused import is told to wait. */
export const IMPORT_RETRY_AFTER = 30;
/** Upload files older than this are left over from a process that died mid-import. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

/**
 * Imports in flight in this process and the bytes they declared (SECURITY.md, #12 finding 3; ADR
 * 013). An import's memory grows with its file (the images it reads out of a ZIP, a GEDCOM parsed
 * whole), so both the count and the bytes are capped: one more is refused, before its body is
 * read, with 503 and Retry-After.
 */
const inFlight = { imports: 0, bytes: 0 };
let swept = false;

/** The bytes a request will cost: its Content-Length, or the cap when it declares none. */
function declaredBytes(req: Request, limit: number): number {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (declared > limit) throw new ApiError(413, IMPORT_TOO_BIG);
  return Number.isFinite(declared) && declared >= 0 ? declared : limit;
}

/** Takes a place for one import, or refuses with 503; `release` gives it back (once). */
export function admitImport(req: Request, limit = MAX_IMPORT_BYTES): { release(): void } {
  const env = getEnv();
  const bytes = declaredBytes(req, limit);
  if (
    inFlight.imports >= env.IMPORT_CONCURRENCY ||
    inFlight.bytes + bytes > env.IMPORT_BUDGET_MB * 1024 * 1024
  ) {
    throw new ApiError(503, IMPORTS_BUSY, { "Retry-After": String(IMPORT_RETRY_AFTER) });
  }
  inFlight.imports += 1;
  inFlight.bytes += bytes;
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      inFlight.imports -= 1;
      inFlight.bytes -= bytes;
    },
  };
}

/** Where upload files wait while they are imported: DATA_DIR, not /tmp (often memory-backed). */
export function importUploadDir(): string {
  return path.join(getEnv().DATA_DIR, "tmp", "imports");
}

/** Removes upload files a killed process left behind (once per process). */
async function sweepStaleUploads(dir: string): Promise<void> {
  if (swept) return;
  swept = true;
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const now = Date.now();
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (stat && now - stat.mtimeMs > STALE_UPLOAD_MS) await fs.promises.rm(file, { force: true });
    }),
  );
}

export interface ImportUpload {
  /** The file the body was written to: the worker reads it (prepare-import.ts). */
  source: { path: string };
  size: number;
  /** The file part's name, when the body was a multipart/form-data upload that gave one. */
  fileName: string | null;
  /** Closes and removes the file. */
  dispose(): Promise<void>;
}

/**
 * Streams the request body into a file of its own, refusing it with 413 as soon as the declared
 * length or the running count passes `limit`, so a body is never held in memory; an empty body is
 * a 400. The body is the file itself, or a multipart/form-data upload whose first file part is
 * (multipart.ts; issue 32, finding 14); the cap counts every byte of the body either way. The
 * file is read by the import's worker thread, by its path. On any failure (413, a client that
 * hangs up, a full disk) the file is removed before the error is thrown.
 */
export async function receiveImportBody(
  req: Request,
  limit = MAX_IMPORT_BYTES,
): Promise<ImportUpload> {
  declaredBytes(req, limit);
  const contentType = req.headers.get("content-type");
  const boundary = multipartBoundary(contentType);
  if (contentType?.split(";")[0]!.trim().toLowerCase() === "application/x-www-form-urlencoded") {
    throw new ApiError(415, `A form without its file cannot be imported. ${EXPECTED_FILE}`);
  }
  const dir = importUploadDir();
  await fs.promises.mkdir(dir, { recursive: true });
  await sweepStaleUploads(dir);
  const file = path.join(dir, `${process.pid}-${randomUUID()}.upload`);
  const handle = await fs.promises.open(file, "wx+", 0o600);
  const dispose = async () => {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(file, { force: true });
  };
  try {
    let size = 0;
    let written = 0;
    const write = async (bytes: Uint8Array) => {
      written += bytes.byteLength;
      await handle.write(bytes);
    };
    const form = boundary === null ? null : new FirstFilePart(boundary, write);
    if (req.body) {
      const reader = req.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => undefined);
          throw new ApiError(413, IMPORT_TOO_BIG);
        }
        if (form) {
          await form.push(value);
          // the file part is whole: the rest of the form is not wanted
          if (form.complete) {
            await reader.cancel().catch(() => undefined);
            break;
          }
        } else await write(value);
      }
    }
    if (size === 0) throw new ApiError(400, EMPTY_FILE);
    form?.end();
    if (written === 0) throw new ApiError(400, EMPTY_FILE);
    await handle.close();
    return { source: { path: file }, size: written, fileName: form?.fileName ?? null, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * Runs one import of `accountId`: a place is taken (or 503 before anything is read), the account's
 * worker-time budget is checked (429 once spent: worker-budget.ts), `before` runs (the rate limit),
 * the body is streamed to a file, `work` reads it, the worker time its tasks took is charged to the
 * account, and the place and the file are given back whatever happens.
 */
export async function withImportUpload<T>(
  req: Request,
  accountId: string,
  before: () => Promise<void>,
  work: (source: ImportSource, upload: { fileName: string | null }) => Promise<T>,
): Promise<T> {
  const admission = admitImport(req);
  try {
    await checkWorkerBudget(accountId);
    await before();
    const upload = await receiveImportBody(req);
    try {
      return await meterWorkerTime(
        () => work(upload.source, { fileName: upload.fileName }),
        (ms) => chargeWorkerBudget(accountId, ms),
      );
    } finally {
      await upload.dispose();
    }
  } finally {
    admission.release();
  }
}
