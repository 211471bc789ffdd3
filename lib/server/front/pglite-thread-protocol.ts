// The messages between the main thread's stand-in for the embedded database (pglite-thread.ts)
// and the thread that holds it (pglite-thread-worker.ts), and what both sides must compute alike.
// Loaded by both threads: imports only node:crypto and types.
import { createHash } from "node:crypto";
import type { ParserOptions, RowMode } from "@electric-sql/pglite";

/** What may cross with a statement: functions cannot, so parsers go as a parser set's name. */
export interface ThreadQueryOptions {
  rowMode?: RowMode;
  /** The fingerprint (parserSetFingerprint) of a parser set the thread knows. */
  parsers?: string;
  paramTypes?: number[];
}

export type Request =
  | {
      op: "query";
      id: number;
      tx?: number;
      text: string;
      params: unknown[];
      options: ThreadQueryOptions;
    }
  | { op: "exec"; id: number; tx?: number; text: string; options: ThreadQueryOptions }
  /** Opens a transaction; the answer comes once BEGIN ran, and the request's id names it. */
  | { op: "begin"; id: number }
  | { op: "rollback"; id: number; tx: number }
  /** Ends transaction `tx`: commit when its work succeeded, roll back when it threw. */
  | { op: "end"; id: number; tx: number; commit: boolean }
  /** The next piece of a long text value held back from answer `of` (see SlicedCell). */
  | { op: "slice"; id: number; of: number }
  | { op: "close"; id: number };

/** A cell whose text was longer than SLICE_CHARS: sent as "" and then pulled piece by piece. */
export interface SlicedCell {
  row: number;
  key: string | number;
  length: number;
}

/** A PostgreSQL error's fields, as PGlite's DatabaseError carries them. */
export const DATABASE_ERROR_FIELDS = [
  "severity",
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const;

export type SerializedError =
  | {
      kind: "database";
      message: string;
      length: number;
      name: string;
      fields: Partial<Record<(typeof DATABASE_ERROR_FIELDS)[number], string>>;
    }
  | { kind: "error"; name: string; message: string; stack?: string; code?: string };

export type Answer =
  | { id: number; ok: true; value: unknown; sliced?: SlicedCell[] }
  | { id: number; ok: false; error: SerializedError };

/** The thread's first message: opened (with the parser sets it knows), or not. */
export type Hello =
  { ready: true; parserSets: string[] } | { ready: false; error: SerializedError };

/**
 * Longest text sent in one message. A longer value (a large tree's published JSON is ~50 MB)
 * comes in pieces the main thread asks for one at a time, so that taking it in never holds the
 * main thread for longer than one piece: measured at about 5 ms a MB on the shared machine.
 */
export const SLICE_CHARS = 1 << 20;

/**
 * Names a set of parsers by what it is: each type OID with its function's source. The main
 * thread sends this for the parsers a caller passed (Prisma's adapter passes its own set), and
 * the thread answers with the same set, which it took from its own copy of the adapter.
 */
export function parserSetFingerprint(parsers: ParserOptions): string {
  const hash = createHash("sha256");
  for (const oid of Object.keys(parsers).sort((a, b) => Number(a) - Number(b))) {
    hash.update(`${oid}:${String(parsers[Number(oid)])}\n`);
  }
  return hash.digest("hex");
}
