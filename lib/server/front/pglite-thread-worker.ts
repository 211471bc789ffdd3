// The thread that holds the process's embedded database (ADR 036): it opens PGlite on the folder
// it is given and runs what the main thread's stand-in (pglite-thread.ts) forwards, so that the
// WebAssembly work of a statement, and the parsing of its rows, never hold the thread that serves
// requests. Loaded by pglite-thread-entry.mjs, which registers tsx in this thread.
import { parentPort, workerData } from "node:worker_threads";
import {
  messages,
  PGlite,
  type ParserOptions,
  type QueryOptions,
  type Results,
  type Transaction,
} from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import {
  DATABASE_ERROR_FIELDS,
  parserSetFingerprint,
  SLICE_CHARS,
  type Answer,
  type Hello,
  type Request,
  type SerializedError,
  type SlicedCell,
  type ThreadQueryOptions,
} from "./pglite-thread-protocol";

const port = parentPort!;
const { dataDir, sliceChars = SLICE_CHARS } = workerData as {
  dataDir: string;
  sliceChars?: number;
};

/**
 * The parsers Prisma's adapter passes with every statement, taken from the adapter itself: a
 * stand-in client records the options of the one statement the adapter is asked to run.
 */
async function adapterParsers(): Promise<ParserOptions> {
  let seen: QueryOptions | undefined;
  const recorder = {
    query: async (_text: string, _params: unknown[], options: QueryOptions) => {
      seen = options;
      return { rows: [], fields: [] };
    },
  };
  const adapter = await new PrismaPGlite(recorder as unknown as PGlite).connect();
  await adapter.queryRaw({ sql: "SELECT 1", args: [], argTypes: [] });
  if (!seen?.parsers) throw new Error("pglite-prisma-adapter passed no parsers");
  return seen.parsers;
}

function serializeError(error: unknown): SerializedError {
  if (error instanceof messages.DatabaseError) {
    const fields: Extract<SerializedError, { kind: "database" }>["fields"] = {};
    for (const field of DATABASE_ERROR_FIELDS) {
      if (error[field] !== undefined) fields[field] = error[field];
    }
    return {
      kind: "database",
      message: error.message,
      length: error.length,
      name: error.name,
      fields,
    };
  }
  const plain = error instanceof Error ? error : new Error(String(error));
  const code = (plain as { code?: unknown }).code;
  return {
    kind: "error",
    name: plain.name,
    message: plain.message,
    stack: plain.stack,
    code: typeof code === "string" ? code : undefined,
  };
}

const parserSets = new Map<string, ParserOptions>();
/** Open transactions by the id of the request that began them. */
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>();
/** Long text values held back from an answer, in the order the main thread pulls them. */
const heldSlices = new Map<number, string[]>();
/** Thrown into a transaction's work to make PGlite roll it back (the main thread's work threw). */
class RollBack extends Error {}

function queryOptions(options: ThreadQueryOptions): QueryOptions {
  const parsers = options.parsers === undefined ? undefined : parserSets.get(options.parsers);
  if (options.parsers !== undefined && !parsers) {
    throw new Error("The database thread does not know these parsers");
  }
  return { rowMode: options.rowMode, paramTypes: options.paramTypes, parsers };
}

/**
 * Takes text cells out of `result`, to be pulled in pieces of sliceChars (SLICE_CHARS): every
 * cell longer than that, and once the answer's text passes it, every cell of a sixteenth of it or
 * more. Many cells of a megabyte each (a large publication's parts, 100 of them) had come in one
 * message of 100 MB, taken in by the main thread in one step; small cells stay in the answer, so
 * that a result of many short rows is still one message.
 */
function holdLongText(id: number, result: Results<unknown>): SlicedCell[] | undefined {
  let sliced: SlicedCell[] | undefined;
  const pieces: string[] = [];
  let kept = 0;
  result.rows.forEach((row, index) => {
    const cells = row as Record<string | number, unknown>;
    for (const key of Object.keys(cells)) {
      const cellKey = Array.isArray(row) ? Number(key) : key;
      const value = cells[cellKey];
      if (typeof value !== "string") continue;
      const fits = kept + value.length <= sliceChars || value.length < sliceChars / 16;
      if (value.length <= sliceChars && fits) {
        kept += value.length;
        continue;
      }
      (sliced ??= []).push({ row: index, key: cellKey, length: value.length });
      for (let at = 0; at < value.length; at += sliceChars) {
        pieces.push(value.slice(at, at + sliceChars));
      }
      cells[cellKey] = "";
    }
  });
  if (sliced) heldSlices.set(id, pieces.reverse());
  return sliced;
}

let pglite: PGlite;

function target(tx: number | undefined): PGlite | Transaction {
  if (tx === undefined) return pglite;
  const open = transactions.get(tx);
  if (!open) throw new Error("Transaction is closed");
  return open.tx;
}

async function handle(request: Request): Promise<Omit<Extract<Answer, { ok: true }>, "id">> {
  switch (request.op) {
    case "query": {
      const result = await target(request.tx).query(
        request.text,
        request.params,
        queryOptions(request.options),
      );
      return { ok: true, value: result, sliced: holdLongText(request.id, result) };
    }
    case "exec":
      return {
        ok: true,
        value: await target(request.tx).exec(request.text, queryOptions(request.options)),
      };
    case "begin":
      return { ok: true, value: await begin(request) };
    case "rollback":
      await (target(request.tx) as Transaction).rollback();
      return { ok: true, value: null };
    case "end": {
      const open = transactions.get(request.tx);
      if (!open) throw new Error("Transaction is closed");
      // PGlite's transaction() settles once COMMIT (or ROLLBACK) ran: wait for it here.
      const settled = new Promise<void>((resolve, reject) => {
        finishing.set(request.tx, { resolve, reject });
      });
      open.end(request.commit);
      await settled;
      return { ok: true, value: null };
    }
    case "slice": {
      const pieces = heldSlices.get(request.of);
      const piece = pieces?.pop();
      if (piece === undefined) throw new Error("No text is held for that answer");
      if (pieces!.length === 0) heldSlices.delete(request.of);
      return { ok: true, value: piece };
    }
    case "close":
      await pglite.close();
      return { ok: true, value: null };
  }
}

/** How each transaction's end is reported back to its "end" request. */
const finishing = new Map<number, { resolve: () => void; reject: (error: unknown) => void }>();

function begin(request: Extract<Request, { op: "begin" }>): Promise<number> {
  return new Promise((resolve, reject) => {
    let begun = false;
    pglite
      .transaction(
        (tx) =>
          new Promise<void>((commit, rollBack) => {
            begun = true;
            transactions.set(request.id, {
              tx,
              end: (ok) => (ok ? commit() : rollBack(new RollBack())),
            });
            resolve(request.id);
          }),
      )
      .then(
        () => finishing.get(request.id)?.resolve(),
        (error: unknown) => {
          if (!begun) return reject(error instanceof Error ? error : new Error(String(error)));
          const waiting = finishing.get(request.id);
          if (error instanceof RollBack) waiting?.resolve();
          else waiting?.reject(error);
        },
      )
      .finally(() => {
        transactions.delete(request.id);
        finishing.delete(request.id);
      });
  });
}

async function answer(request: Request): Promise<void> {
  try {
    port.postMessage({ id: request.id, ...(await handle(request)) } satisfies Answer);
  } catch (error) {
    port.postMessage({ id: request.id, ok: false, error: serializeError(error) } satisfies Answer);
  }
}

try {
  const prisma = await adapterParsers();
  parserSets.set(parserSetFingerprint(prisma), prisma);
  pglite = new PGlite(dataDir);
  await pglite.waitReady;
  port.on("message", (request: Request) => void answer(request));
  port.postMessage({ ready: true, parserSets: [...parserSets.keys()] } satisfies Hello);
} catch (error) {
  port.postMessage({ ready: false, error: serializeError(error) } satisfies Hello);
}
