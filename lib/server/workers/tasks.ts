// The tasks of the worker pool, run in worker threads (worker-entry.mjs loads this module there;
// pool.ts sends the work). Each task is a pure function of its input: no database, no storage,
// no request. Loaded by Node in the worker thread, never by Next's bundle.
import "server-only";
import fs from "node:fs";
import type { MessagePort } from "node:worker_threads";
import { move, transferableSymbol, valueSymbol } from "piscina";
import { writeHeirloomZip, type HeirloomBackup } from "@/lib/export/heirloom-zip";
import { writeGedcom } from "@/lib/gedcom/export";
import { ImportError } from "@/lib/import/types";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { prepareImport, type ImportSource } from "@/lib/server/import/prepare-import";
import { mergeHouseholdTask } from "@/lib/server/import/sync-structure";
import type { TreeNode } from "@/lib/schemas/tree";
import {
  type HeirsContext,
  answerOf,
  orderHeirs,
  prepareTreeBody,
} from "@/lib/server/trees/structure-work";
import { listSims4Households, parseSims4 } from "@/lib/sims4";
import { looksLikeSims4, NOT_A_SAVE } from "@/lib/sims4/sniff";
import { drawOgCard } from "@/lib/server/published/og-image";
import { publicPageModelOfJson, type PublicPageWanted } from "@/lib/public-tree/page-model";
import { transferables } from "./transfer";

/** A tree and its people as JSON text (PostgreSQL writes it: see load-export.ts). */
export interface ExportInput {
  tree: string;
  people: string;
}

const encoder = new TextEncoder();

/** A Sims 4 upload's bytes (the upload's size is capped before it reaches a worker). */
function saveBytes(source: ImportSource): Uint8Array {
  const bytes = "bytes" in source ? source.bytes : new Uint8Array(fs.readFileSync(source.path));
  if (!looksLikeSims4(bytes)) throw new ImportError(NOT_A_SAVE);
  return bytes;
}
const parseExport = (input: ExportInput) => ({
  tree: JSON.parse(input.tree) as Tree,
  people: JSON.parse(input.people) as Person[],
});

export const TASKS = {
  /** An uploaded file (a path or bytes) → the rows of the new tree (prepare-import.ts). */
  import: prepareImport,
  /** A Sims 4 save or tray item → its households with member and family counts. */
  sims4Households: (input: { source: ImportSource }) =>
    listSims4Households(saveBytes(input.source)),
  /**
   * A Sims 4 save or tray item → one household's family (or several households' families,
   * merged: issue 34) as an imported tree (sync-household.ts).
   */
  sims4Read: (input: { source: ImportSource; household?: string; households?: string[] }) =>
    parseSims4(saveBytes(input.source), {
      household: input.household,
      households: input.households,
    }),
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
  /** A publication's JSON text → what one of its public pages draws (lib/public-tree/page-model.ts). */
  publicPage: (input: { json: string; wanted: PublicPageWanted }) =>
    publicPageModelOfJson(input.json, input.wanted),
  /**
   * A large `PATCH /api/trees/{id}` body's text → its `{data}` validated and cut into chunks, or
   * null for any other body (structure-work.ts; issue 32).
   */
  treeBody: (input: { text: string }) => answerOf(() => prepareTreeBody(input.text)),
  /** A large stored structure's text and the heirs asked for → the heirs in generation order. */
  heirs: (input: { text: string; heirs: string[]; context?: HeirsContext }) =>
    answerOf(() => orderHeirs(JSON.parse(input.text) as TreeNode, input.heirs, input.context)),
  /** A stored structure's text and a newer save's household → the synced structure's chunks. */
  syncStructure: mergeHouseholdTask,
} as const;

export type TaskName = keyof typeof TASKS;
export type TaskInput<K extends TaskName> = Parameters<(typeof TASKS)[K]>[0];
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<(typeof TASKS)[K]>>;

/** What a task answers: its value, or an expected failure with the sentence the player sees. */
export type TaskAnswer<T> = ({ ok: true; value: T } | { ok: false; importError: string }) & {
  /** Milliseconds the task ran on this thread, charged to whoever asked (worker-time.ts). */
  ms: number;
};

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
  const startedAt = performance.now();
  let answer: TaskAnswer<unknown>;
  try {
    const task = TASKS[message.name] as (input: unknown) => unknown;
    const value = await task(message.input);
    answer = { ok: true, value, ms: performance.now() - startedAt };
  } catch (error) {
    // An Error's class does not survive the trip between threads: a file that cannot be read
    // travels as its sentence. Anything else is thrown (the pool logs it; the route answers 500).
    if (error instanceof ImportError) {
      answer = { ok: false, importError: error.message, ms: performance.now() - startedAt };
    } else throw error;
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
