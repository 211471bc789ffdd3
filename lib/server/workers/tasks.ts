// The tasks of the worker pool, run in worker threads (worker-entry.mjs loads this module there;
// pool.ts sends the work). Each task is a pure function of its input: no database, no storage,
// no request. Loaded by Node in the worker thread, never by Next's bundle.
import "server-only";
import type { MessagePort } from "node:worker_threads";
import { move, transferableSymbol, valueSymbol } from "piscina";
import { writeHeirloomZip, type HeirloomBackup } from "@/lib/export/heirloom-zip";
import { writeGedcom } from "@/lib/gedcom/export";
import { ImportError } from "@/lib/import/types";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { prepareImport } from "@/lib/server/import/prepare-import";
import { drawOgCard } from "@/lib/server/published/og-image";
import { transferables } from "./transfer";

/** A tree and its people as JSON text (PostgreSQL writes it: see load-export.ts). */
export interface ExportInput {
  tree: string;
  people: string;
}

const encoder = new TextEncoder();
const parseExport = (input: ExportInput) => ({
  tree: JSON.parse(input.tree) as Tree,
  people: JSON.parse(input.people) as Person[],
});

export const TASKS = {
  /** An uploaded file (a path or bytes) → the rows of the new tree (prepare-import.ts). */
  import: prepareImport,
  /** A tree, its people and its images → the backup ZIP's bytes. */
  exportZip: (
    input: ExportInput & { images: Map<string, Uint8Array>; exportedAt: string },
  ): Uint8Array => {
    const backup: HeirloomBackup = {
      ...parseExport(input),
      images: input.images,
      exportedAt: new Date(input.exportedAt),
    };
    return writeHeirloomZip(backup);
  },
  /** A tree and its people → GEDCOM 7 as UTF-8 bytes. */
  exportGedcom: (input: ExportInput): Uint8Array => encoder.encode(writeGedcom(parseExport(input))),
  /** The Open Graph card of a published tree → PNG bytes. */
  ogImage: drawOgCard,
} as const;

export type TaskName = keyof typeof TASKS;
export type TaskInput<K extends TaskName> = Parameters<(typeof TASKS)[K]>[0];
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<(typeof TASKS)[K]>>;

/** What a task answers: its value, or an expected failure with the sentence the player sees. */
export type TaskAnswer<T> = { ok: true; value: T } | { ok: false; importError: string };

export interface TaskMessage {
  name: TaskName;
  input: unknown;
  /** Told when this thread starts the task: the task's time limit runs from then. */
  started: MessagePort;
}

/** Runs one task in this thread (the pool's handler, see worker-entry.mjs). */
export async function runTask(message: TaskMessage): Promise<unknown> {
  message.started.postMessage("started");
  message.started.close();
  let answer: TaskAnswer<unknown>;
  try {
    const task = TASKS[message.name] as (input: unknown) => unknown;
    answer = { ok: true, value: await task(message.input) };
  } catch (error) {
    // An Error's class does not survive the trip between threads: a file that cannot be read
    // travels as its sentence. Anything else is thrown (the pool logs it; the route answers 500).
    if (error instanceof ImportError) answer = { ok: false, importError: error.message };
    else throw error;
  }
  const transfer = answer.ok ? transferables(answer.value) : [];
  // Marked movable: the buffers in `transfer` move to the request thread instead of a copy.
  return move({
    get [transferableSymbol]() {
      return transfer;
    },
    get [valueSymbol]() {
      return answer;
    },
  });
}
