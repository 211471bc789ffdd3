// The embedded database on a thread of its own (ADR 036). PGlite is WebAssembly: a statement runs
// on the thread that called it, for as long as it takes, and nothing else runs there meanwhile.
// So the process's PGlite is opened in a worker thread (pglite-thread-worker.ts), and the main
// thread holds a stand-in, PgliteThread, offering exactly what the app uses of a PGlite (query,
// exec, transaction, close) and forwarding each call as a message. Loaded by both module graphs
// (the start script's and Next's bundle), like pglite.ts.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import {
  messages,
  type ParserOptions,
  type PGlite,
  type QueryOptions,
  type Results,
  type Transaction,
} from "@electric-sql/pglite";
import {
  parserSetFingerprint,
  type Answer,
  type Hello,
  type Request,
  type SerializedError,
  type SlicedCell,
  type ThreadQueryOptions,
} from "./pglite-thread-protocol";
import { processSingleton } from "./process-singletons";

/** What the app uses of a transaction of the embedded database. */
export type EmbeddedTransaction = Pick<Transaction, "query" | "exec" | "rollback" | "closed">;

/** What the app uses of the embedded database: what PgliteThread (and a PGlite) offers. */
export interface EmbeddedDatabase {
  readonly closed: boolean;
  readonly waitReady: Promise<void>;
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string, options?: QueryOptions): Promise<Results[]>;
  transaction<T>(work: (tx: EmbeddedTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The thread's entry, a file Node loads at run time: found from the project's root (the working
 * directory of `npm start`, `next dev` and vitest), never from this module's own address, which
 * in production is a chunk of Next's bundle (as lib/server/workers/pool.ts does).
 */
export function pgliteThreadEntry(): string {
  return path.join(process.cwd(), "lib", "server", "front", "pglite-thread-entry.mjs");
}

/** PostgreSQL's connection_failure: Prisma's adapter passes it on, and the API answers 503. */
const CONNECTION_FAILURE = "08006";

/** The error of every call the thread cannot answer because it stopped. */
export function threadStoppedError(reason: string): messages.DatabaseError {
  const error = new messages.DatabaseError(
    `The embedded database's thread stopped (${reason})`,
    0,
    "error",
  );
  error.severity = "FATAL";
  error.code = CONNECTION_FAILURE;
  return error;
}

/** An error as the thread sent it, rebuilt as the class PGlite would have thrown in this thread. */
function rebuildError(
  sent: SerializedError,
  context: { query: string; params?: unknown[]; options?: QueryOptions },
): Error {
  if (sent.kind === "database") {
    const error = new messages.DatabaseError(
      sent.message,
      sent.length,
      sent.name as messages.MessageName,
    );
    Object.assign(error, sent.fields, {
      query: context.query,
      params: context.params,
      queryOptions: context.options,
    });
    return error;
  }
  const error = new Error(sent.message);
  error.name = sent.name;
  if (sent.code !== undefined) Object.assign(error, { code: sent.code });
  if (sent.stack) error.stack = `${error.stack}\n    in the database thread: ${sent.stack}`;
  return error;
}

type Pending = {
  resolve: (answer: Extract<Answer, { ok: true }>) => void;
  reject: (error: SerializedError | Error) => void;
};

interface Opened {
  worker: Worker;
  /** When it was started (performance.now()). */
  startedAt: number;
  /** Resolves once the thread opened the database; the fingerprints of the parsers it knows. */
  ready: Promise<Set<string>>;
  /** Resolves when the thread has ended, for whatever reason. */
  exited: Promise<void>;
  stopped?: Error;
}

/** A thread that stopped within this long of its start is not started again before it passes. */
const REOPEN_AFTER_MS = 5_000;

/** A request as the caller gives it; #call numbers it. */
type Outgoing = Request extends infer R
  ? R extends { id: number }
    ? Omit<R, "id">
    : never
  : never;

/** Fingerprints of the parser sets callers passed, computed once per set. */
const fingerprints = new WeakMap<ParserOptions, string>();

/**
 * The process's embedded database, held by a worker thread. Statements of other callers wait
 * while a transaction is open, as they do on PGlite itself (PGlite's own mutex, in the thread,
 * does the waiting). If the thread stops (a crash), every call under way fails with PostgreSQL's
 * connection_failure (08006), which the API answers with 503, and the next call opens the
 * database again in a new thread, as a restart of the process would.
 */
export class PgliteThread implements EmbeddedDatabase {
  #opened: Opened | undefined;
  #closed = false;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  constructor(
    readonly dataDir: string,
    readonly options: {
      reopenAfterMs: number;
      /** Longest text sent in one message (SLICE_CHARS); tests and measurements change it. */
      sliceChars?: number;
    } = { reopenAfterMs: REOPEN_AFTER_MS },
  ) {
    this.#open();
  }

  get closed(): boolean {
    return this.#closed;
  }

  get waitReady(): Promise<void> {
    return this.#thread().then(() => undefined);
  }

  /** The thread's id while it runs. */
  get threadId(): number | undefined {
    return this.#opened?.stopped ? undefined : this.#opened?.worker.threadId;
  }

  /** Ends the thread at once, as a crash would (for the tests of what a crash is answered). */
  async stopThreadAbruptly(): Promise<void> {
    await this.#opened?.worker.terminate();
  }

  #open(): Opened {
    // The entry is given as a line of code that imports it, not as a path: Turbopack bundles the
    // file of a `new Worker(path)` with all it imports (tsx, esbuild's binary), which must instead
    // load from node_modules at run time, as the worker pool's entry does.
    const entry = JSON.stringify(pathToFileURL(pgliteThreadEntry()).href);
    const worker = new Worker(`import(${entry})`, {
      eval: true,
      workerData: { dataDir: this.dataDir, sliceChars: this.options.sliceChars },
      name: "heirloom-pglite",
      // The thread must not inherit vitest's or tsx's loader flags; it registers tsx itself.
      execArgv: [],
    });
    worker.unref();
    let exited!: () => void;
    const opened: Opened = {
      worker,
      startedAt: performance.now(),
      exited: new Promise<void>((resolve) => (exited = resolve)),
      ready: new Promise<Set<string>>((resolve, reject) => {
        worker.once("message", (hello: Hello) => {
          if (hello.ready) {
            worker.on("message", (answer: Answer) => this.#settle(answer));
            resolve(new Set(hello.parserSets));
          } else {
            reject(rebuildError(hello.error, { query: "" }));
          }
        });
        const stop = (error: Error) => {
          if (!opened.stopped && !this.#closed) {
            const log = processSingleton("__heirloomLogger");
            if (log) log.error({ err: error }, "the embedded database's thread stopped");
            else console.error(error.message);
          }
          opened.stopped ??= error;
          reject(error);
          this.#failPending(error);
        };
        worker.on("error", (error) => stop(threadStoppedError(error.message)));
        worker.on("exit", (code) => {
          stop(threadStoppedError(`exit code ${code}`));
          exited();
        });
      }),
    };
    // A failed open is reported to the calls that wait for it.
    opened.ready.catch(() => undefined);
    this.#opened = opened;
    return opened;
  }

  #failPending(error: Error) {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.#updateRef();
    for (const call of pending) call.reject(error);
  }

  #settle(answer: Answer) {
    const call = this.#pending.get(answer.id);
    if (!call) return;
    this.#pending.delete(answer.id);
    this.#updateRef();
    if (answer.ok) call.resolve(answer);
    else call.reject(answer.error);
  }

  /** The thread keeps the process alive only while a call waits for it, as PGlite does. */
  #updateRef() {
    const worker = this.#opened?.worker;
    if (!worker) return;
    if (this.#pending.size > 0) worker.ref();
    else worker.unref();
  }

  async #thread(): Promise<Opened> {
    if (this.#closed) throw new Error("PGlite is closed");
    let opened = this.#opened!;
    if (opened.stopped) {
      // A thread that stopped soon after it started would stop again: calls fail meanwhile.
      if (performance.now() - opened.startedAt < this.options.reopenAfterMs) throw opened.stopped;
      // The folder is opened again only once the stopped thread has ended.
      await opened.exited;
      if (this.#closed) throw new Error("PGlite is closed");
      if (this.#opened === opened) this.#open();
      opened = this.#opened!;
    }
    await opened.ready;
    return opened;
  }

  /** Sends `request` (its id is set here) and answers the thread's answer. */
  async #call(
    request: Outgoing,
    context: { query: string; params?: unknown[]; options?: QueryOptions },
  ): Promise<Extract<Answer, { ok: true }>> {
    const opened = await this.#thread();
    const id = this.#nextId++;
    try {
      return await new Promise((resolve, reject) => {
        this.#pending.set(id, { resolve, reject });
        this.#updateRef();
        try {
          opened.worker.postMessage({ ...request, id });
        } catch (error) {
          // A parameter that cannot be cloned (a function, say): nothing was sent.
          this.#pending.delete(id);
          this.#updateRef();
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    } catch (error) {
      throw error instanceof Error ? error : rebuildError(error as SerializedError, context);
    }
  }

  async #fingerprint(parsers: ParserOptions): Promise<string> {
    let fingerprint = fingerprints.get(parsers);
    if (!fingerprint) {
      fingerprint = parserSetFingerprint(parsers);
      fingerprints.set(parsers, fingerprint);
    }
    const known = await (await this.#thread()).ready;
    if (!known.has(fingerprint)) {
      throw new Error(
        "Parsers cannot cross to the database thread: only pglite-prisma-adapter's are known there",
      );
    }
    return fingerprint;
  }

  async #options(options: QueryOptions | undefined): Promise<ThreadQueryOptions> {
    if (!options) return {};
    const { rowMode, parsers, paramTypes, serializers, blob, onNotice } = options;
    if (serializers || blob || onNotice) {
      throw new Error("serializers, blob and onNotice cannot cross to the database thread");
    }
    return {
      rowMode,
      paramTypes,
      parsers: parsers ? await this.#fingerprint(parsers) : undefined,
    };
  }

  /** Pulls the long text values the thread held back, one piece at a time, into their cells. */
  async #fillSliced(of: number, result: Results<unknown>, sliced: SlicedCell[], query: string) {
    for (const cell of sliced) {
      let text = "";
      // `+` makes a rope of the pieces: nothing is copied until the text is read.
      while (text.length < cell.length) {
        const piece = await this.#call({ op: "slice", of }, { query });
        text += piece.value as string;
      }
      (result.rows[cell.row] as Record<string | number, unknown>)[cell.key] = text;
    }
  }

  async #query<T>(
    tx: number | undefined,
    text: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<Results<T>> {
    const sent = await this.#options(options);
    const context = { query: text, params, options };
    const answer = await this.#call({ op: "query", tx, text, params, options: sent }, context);
    const result = answer.value as Results<T>;
    if (answer.sliced) await this.#fillSliced(answer.id, result, answer.sliced, text);
    return result;
  }

  async #exec(tx: number | undefined, text: string, options?: QueryOptions): Promise<Results[]> {
    const sent = await this.#options(options);
    const answer = await this.#call(
      { op: "exec", tx, text, options: sent },
      { query: text, options },
    );
    return answer.value as Results[];
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#query<T>(undefined, text, params, options);
  }

  exec(text: string, options?: QueryOptions): Promise<Results[]> {
    return this.#exec(undefined, text, options);
  }

  /**
   * Runs `work` in one transaction, which holds the database until it ends (other callers'
   * statements wait): committed when `work` succeeds, rolled back when it throws or called
   * tx.rollback(). As PGlite's own transaction().
   */
  async transaction<T>(work: (tx: EmbeddedTransaction) => Promise<T>): Promise<T> {
    const begun = await this.#call({ op: "begin" }, { query: "BEGIN" });
    const id = begun.value as number;
    let closed = false;
    const tx: EmbeddedTransaction = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) =>
        this.#query<R>(id, text, params, options),
      exec: (text: string, options?: QueryOptions) => this.#exec(id, text, options),
      rollback: async () => {
        await this.#call({ op: "rollback", tx: id }, { query: "ROLLBACK" });
        closed = true;
      },
      get closed() {
        return closed;
      },
    };
    let value: T;
    try {
      value = await work(tx);
    } catch (error) {
      closed = true;
      await this.#call({ op: "end", tx: id, commit: false }, { query: "ROLLBACK" }).catch(
        () => undefined,
      );
      throw error;
    }
    closed = true;
    await this.#call({ op: "end", tx: id, commit: true }, { query: "COMMIT" });
    return value;
  }

  /** Closes the database (its folder is left clean) and ends the thread. */
  async close(): Promise<void> {
    if (this.#closed) return;
    const opened = this.#opened;
    try {
      if (opened && !opened.stopped) {
        await opened.ready;
        await this.#call({ op: "close" }, { query: "" });
      }
    } finally {
      this.#closed = true;
      if (opened) {
        opened.worker.ref();
        await opened.worker.terminate();
        await opened.exited;
      }
    }
  }
}

/**
 * `db` as the client pglite-prisma-adapter takes, which it types as a PGlite. The adapter calls
 * only query (with rowMode "array" and its own parsers), exec, and transaction with the
 * transaction's query and rollback, which EmbeddedDatabase offers (ADR 036 lists them).
 */
export function asAdapterClient(db: EmbeddedDatabase): PGlite {
  return db as unknown as PGlite;
}
