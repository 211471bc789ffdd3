"use client";
import type { TreeNode } from "@/lib/schemas/tree";

// Local first for edits (STYLE.md 18, issue 32): an editor's save that failed for a network
// reason is kept on the device, per tree, until the server has it. IndexedDB rather than
// localStorage: a 10,000-Sim structure is several MB, near localStorage's whole quota.

/** One tree's writes that the server does not have yet. */
export interface KeptTree {
  treeId: string;
  /** The user whose session kept it: another account on the device never sees it. */
  owner: string;
  /** The structure as last edited, and the version it was edited from (its If-Match). */
  structure?: { data: TreeNode; version: number; mark: string };
  /** The heirs as last marked (PUT /heirs has no version: the last write wins). */
  heirs?: { list: string[]; mark: string };
  keptAt: number;
}

export interface KeptStore {
  read(treeId: string): Promise<KeptTree | undefined>;
  /** Reads, changes and writes one tree's record in one step; `undefined` deletes it. */
  update(
    treeId: string,
    change: (current: KeptTree | undefined) => KeptTree | undefined,
  ): Promise<void>;
}

/** A store in memory: for tests, and where IndexedDB is missing. */
export function memoryStore(): KeptStore {
  const records = new Map<string, KeptTree>();
  return {
    read: (treeId) => Promise.resolve(records.get(treeId)),
    update: (treeId, change) => {
      const next = change(records.get(treeId));
      if (next) records.set(treeId, next);
      else records.delete(treeId);
      return Promise.resolve();
    },
  };
}

const DATABASE = "heirloom-kept-edits";
const STORE = "trees";

function openDatabase(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(STORE, { keyPath: "treeId" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB did not open"));
    request.onblocked = () => reject(new Error("IndexedDB is blocked by another tab"));
  });
}

/**
 * The browser's IndexedDB. An update's read and write are one readwrite transaction, so two tabs
 * never interleave them; transactions of one store run in the order they were made, so a keep
 * followed by a release lands in that order.
 */
export function indexedDbStore(factory: IDBFactory): KeptStore {
  let database: Promise<IDBDatabase> | null = null;
  const open = () => {
    database ??= openDatabase(factory).catch((error: unknown) => {
      database = null;
      throw error;
    });
    return database;
  };
  return {
    async read(treeId) {
      const db = await open();
      return new Promise<KeptTree | undefined>((resolve, reject) => {
        const request = db.transaction(STORE, "readonly").objectStore(STORE).get(treeId);
        request.onsuccess = () => resolve(request.result as KeptTree | undefined);
        request.onerror = () => reject(request.error ?? new Error("IndexedDB read failed"));
      });
    },
    async update(treeId, change) {
      const db = await open();
      await new Promise<void>((resolve, reject) => {
        const transaction = db.transaction(STORE, "readwrite");
        const store = transaction.objectStore(STORE);
        const request = store.get(treeId);
        request.onsuccess = () => {
          const next = change(request.result as KeptTree | undefined);
          if (next) store.put(next);
          else store.delete(treeId);
        };
        transaction.oncomplete = () => resolve();
        transaction.onerror = () =>
          reject(transaction.error ?? new Error("IndexedDB write failed"));
        transaction.onabort = () =>
          reject(transaction.error ?? new Error("IndexedDB write aborted"));
      });
    },
  };
}

let shared: KeptStore | null = null;

/** The device's store: IndexedDB, or memory (kept only while the page lives) without it. */
export function keptEdits(): KeptStore {
  shared ??= typeof indexedDB === "undefined" ? memoryStore() : indexedDbStore(indexedDB);
  return shared;
}

/** A kept record's parts, written and released by one editor (see KeptTreeWriter). */
export type KeptPart = "structure" | "heirs";

/**
 * One editor's writes to its tree's record. Each keep is marked with a mark of this editor's
 * own; a release clears a part only while it still holds that mark, so an older editor (or a
 * save that finishes late) never clears what a newer one kept.
 */
export class KeptTreeWriter {
  private count = 0;
  private readonly id = Math.random().toString(36).slice(2);
  private marks: Partial<Record<KeptPart, string>> = {};
  /** Writes in the order they were asked for; a failed write does not stop the next. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: KeptStore,
    private readonly treeId: string,
    private readonly owner: string,
    private readonly onWriteError: (error: unknown) => void = () => undefined,
  ) {}

  /** This editor opened with `record`'s parts: it may release them once the server has them. */
  adopt(record: KeptTree | undefined): void {
    if (!record || record.owner !== this.owner) return;
    if (record.structure) this.marks.structure = record.structure.mark;
    if (record.heirs) this.marks.heirs = record.heirs.mark;
  }

  keepStructure(data: TreeNode, version: number): Promise<void> {
    const mark = this.mark("structure");
    return this.write((current) => ({
      ...this.base(current),
      structure: { data, version, mark },
      keptAt: Date.now(),
    }));
  }

  keepHeirs(list: readonly string[]): Promise<void> {
    const mark = this.mark("heirs");
    return this.write((current) => ({
      ...this.base(current),
      heirs: { list: [...list], mark },
      keptAt: Date.now(),
    }));
  }

  /** The server has what this editor kept of `part`: forget it (unless kept again since). */
  release(part: KeptPart): Promise<void> {
    const mark = this.marks[part];
    if (!mark) return this.queue;
    delete this.marks[part];
    return this.write((current) => {
      if (!current || current.owner !== this.owner || current[part]?.mark !== mark) return current;
      const next = { ...current };
      delete next[part];
      return next.structure || next.heirs ? next : undefined;
    });
  }

  /** Forgets the part whatever its mark: the user chose the server's version (a reload after a 409). */
  discard(part: KeptPart): Promise<void> {
    delete this.marks[part];
    return this.write((current) => {
      if (!current || current.owner !== this.owner) return current;
      const next = { ...current };
      delete next[part];
      return next.structure || next.heirs ? next : undefined;
    });
  }

  private mark(part: KeptPart): string {
    this.count += 1;
    const mark = `${this.id}:${this.count}`;
    this.marks[part] = mark;
    return mark;
  }

  private base(current: KeptTree | undefined): KeptTree {
    // Another account's record of this tree id (it cannot be theirs too) is replaced.
    if (current && current.owner === this.owner) return current;
    return { treeId: this.treeId, owner: this.owner, keptAt: Date.now() };
  }

  private write(change: (current: KeptTree | undefined) => KeptTree | undefined): Promise<void> {
    this.queue = this.queue
      .then(() => this.store.update(this.treeId, change))
      .catch((error: unknown) => this.onWriteError(error));
    return this.queue;
  }
}
