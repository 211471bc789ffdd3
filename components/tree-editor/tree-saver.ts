import type { Operation } from "fast-json-patch";
import type { PersonRef, TreeNode } from "@/lib/schemas/tree";
import { TREE_PATCH_LIMITS } from "@/lib/tree/patch-limits";

/**
 * The editor's autosave delay: a change is saved this long after the last one, and never while a
 * save of the tree is on its way (TreeSaver), so an editor sends at most one save per this delay
 * plus the answer's time. The reliability storm paces its editors by it.
 */
export const AUTOSAVE_DELAY = 1000;

/**
 * saved: the server has what is shown; pending: a change waits for the autosave; saving: a
 * request is out; kept: a save failed for a network reason, so the changes are kept on this
 * device and retried (with backoff, and when the browser is back online) until the server has
 * them; error: the last save was refused (retried on the next change or Save); conflict: someone
 * else saved first, so nothing more is sent until the page is reloaded.
 */
export type SaveStatus = "saved" | "pending" | "saving" | "kept" | "error" | "conflict";

/** The wait before the n-th retry (from 0) of a save that failed on the network: 2 s to 1 min. */
export const retryDelay = (attempt: number): number => Math.min(60_000, 2000 * 2 ** attempt);

export interface TreeSaverOptions {
  data: TreeNode;
  version: number;
  /** PATCHes {data} with If-Match of `version`; resolves with the tree's new version. */
  send: (data: TreeNode, version: number) => Promise<{ version: number }>;
  /**
   * PATCHes a JSON Patch (RFC 6902) of `{data}` with If-Match of `version`. When given, a save
   * sends the changes since the last saved tree, and the whole {data} only when that is smaller
   * or the server refuses the patch.
   */
  sendPatch?: (operations: Operation[], version: number) => Promise<{ version: number }>;
  /** True when the server refused a patch it could not apply (a whole body is sent instead). */
  isRefusedPatch?: (error: unknown) => boolean;
  isConflict: (error: unknown) => boolean;
  /** Autosave delay after the last change, in ms. */
  delay?: number;
  onStatus?: (status: SaveStatus) => void;
  /** After a manual save succeeded. */
  onManualSave?: () => void;
  onConflict?: (error: unknown) => void;
  onError?: (error: unknown) => void;
  /**
   * True when a save failed for a network reason (no answer at all, or a proxy's 502-504): the
   * changes are kept (`keep`) and the save retried, instead of reporting an error.
   */
  isNetworkFailure?: (error: unknown) => boolean;
  /** Keeps `data`, edited from `version`, on the device until the server has it. */
  keep?: (data: TreeNode, version: number) => void;
  /** The server has everything that was kept: the device may forget it. */
  release?: () => void;
  /**
   * The tree's stored structure and version. Read after a 409 that may be this editor's own
   * save whose answer the network lost: then it is adopted instead of being a conflict.
   */
  readServer?: () => Promise<{ data: TreeNode; version: number }>;
  /** The wait before each retry after network failures (default `retryDelay`). */
  retryDelay?: (attempt: number) => number;
  /** A manual save failed on the network: the changes stay kept on the device. */
  onKept?: () => void;
  /**
   * Changes this device kept (edited from `version`) that the server may not have: the editor
   * shows them and they are sent at once. `data` is then the server's structure, if known.
   */
  kept?: TreeNode;
}

/** A patch this long or longer is compared with the whole body before it is sent. */
const PATCH_CHECK_FROM = 64 * 1024;

const refIds = (refs: PersonRef[]): PersonRef[] => refs.map((ref) => ({ _id: ref._id }));

/**
 * The structure as the server stores it: GET gives every person reference its person's names
 * (issue 13), a save keeps the ids alone. Patches are worked out between such copies, so that
 * their paths are paths of the stored tree.
 */
export function storedForm(node: TreeNode): TreeNode {
  return {
    person: node.person ? { _id: node.person._id } : null,
    partners: node.partners.map((partner) => ({
      type: partner.type,
      people: refIds(partner.people),
    })),
    children: node.children.map(storedForm),
    parentType: node.parentType,
    parents: refIds(node.parents),
    adoptiveParents: refIds(node.adoptiveParents),
    hidden: node.hidden,
  };
}

const sameIds = (a: readonly PersonRef[], b: readonly PersonRef[]) =>
  a === b || (a.length === b.length && a.every((ref, i) => ref._id === b[i]!._id));

const samePartners = (a: TreeNode["partners"], b: TreeNode["partners"]) =>
  a === b ||
  (a.length === b.length &&
    a.every((row, i) => row.type === b[i]!.type && sameIds(row.people, b[i]!.people)));

/** The first index at which two child lists hold different nodes (or one of them ends). */
function sharedPrefix(a: readonly TreeNode[], b: readonly TreeNode[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return i;
}

/** How many nodes at the ends of two child lists are the same, without reaching `from`. */
function sharedSuffix(a: readonly TreeNode[], b: readonly TreeNode[], from: number): number {
  let n = 0;
  while (
    n < a.length - from &&
    n < b.length - from &&
    a[a.length - 1 - n] === b[b.length - 1 - n]
  ) {
    n += 1;
  }
  return n;
}

/**
 * Appends to `out` the operations that turn node `a` into node `b` at `path`. A subtree an edit
 * did not touch is the very same object in both trees (the reducers copy only the nodes on the
 * way to an edit, and the history keeps whole trees), so it is passed over without a look inside:
 * one edit costs a walk down its path, not a comparison of 10,000 nodes. Trees that are equal
 * but not shared (a reload) are compared in full and give no operations.
 */
function diffNode(a: TreeNode, b: TreeNode, path: string, out: Operation[]): void {
  if (a === b) return;
  if ((a.person?._id ?? null) !== (b.person?._id ?? null)) {
    out.push({
      op: "replace",
      path: `${path}/person`,
      value: b.person ? { _id: b.person._id } : null,
    });
  }
  if (!samePartners(a.partners, b.partners)) {
    out.push({ op: "replace", path: `${path}/partners`, value: storedForm(b).partners });
  }
  if (a.parentType !== b.parentType) {
    out.push({ op: "replace", path: `${path}/parentType`, value: b.parentType });
  }
  if (!sameIds(a.parents, b.parents)) {
    out.push({ op: "replace", path: `${path}/parents`, value: refIds(b.parents) });
  }
  if (!sameIds(a.adoptiveParents, b.adoptiveParents)) {
    out.push({ op: "replace", path: `${path}/adoptiveParents`, value: refIds(b.adoptiveParents) });
  }
  if (a.hidden !== b.hidden) out.push({ op: "replace", path: `${path}/hidden`, value: b.hidden });
  diffChildren(a.children, b.children, `${path}/children`, out);
}

function diffChildren(a: TreeNode[], b: TreeNode[], path: string, out: Operation[]): void {
  if (a === b) return;
  const start = sharedPrefix(a, b);
  const end = sharedSuffix(a, b, start);
  // One node added or removed (the usual edit): the nodes after it only move along.
  if (start + end === a.length && b.length === a.length + 1) {
    out.push({ op: "add", path: `${path}/${start}`, value: storedForm(b[start]!) });
    return;
  }
  if (start + end === b.length && a.length === b.length + 1) {
    out.push({ op: "remove", path: `${path}/${start}` });
    return;
  }
  const common = Math.min(a.length, b.length);
  for (let i = start; i < common; i += 1) diffNode(a[i]!, b[i]!, `${path}/${i}`, out);
  for (let i = common; i < b.length; i += 1) {
    out.push({ op: "add", path: `${path}/${i}`, value: storedForm(b[i]!) });
  }
  for (let i = a.length - 1; i >= common; i -= 1) out.push({ op: "remove", path: `${path}/${i}` });
}

/**
 * The JSON Patch (RFC 6902, paths of the stored tree, values in stored form) that turns the
 * saved structure into `next`; either tree may be in GET's form (names in references), since
 * references are compared by id. null when the whole body is the better thing to send: too many
 * operations, or no fewer bytes.
 */
export function structurePatch(saved: TreeNode, next: TreeNode): Operation[] | null {
  const operations: Operation[] = [];
  diffNode(saved, next, "/data", operations);
  if (operations.length > TREE_PATCH_LIMITS.maxOperations) return null;
  if (operations.length === 0) return operations;
  const length = JSON.stringify(operations).length;
  if (length >= PATCH_CHECK_FROM && length >= JSON.stringify({ data: storedForm(next) }).length) {
    return null;
  }
  return operations;
}

/** A structure as stored, as one text: two trees are the same tree when these are equal. */
export const storedText = (node: TreeNode): string => JSON.stringify(storedForm(node));

/**
 * The editor's saving, without React: changes are saved after a quiet `delay`, Save saves at
 * once, saves never overlap (each one carries the version the previous one returned), and a
 * 409 stops all saving so another tab's work is never overwritten. A save that fails for a
 * network reason is kept on the device (`keep`) and retried with backoff and on `online()`, with
 * the same If-Match, until the server has it (`release`).
 */
export class TreeSaver {
  private saved: TreeNode;
  private latest: TreeNode;
  private version: number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: Promise<void> | null = null;
  private manualQueued = false;
  private current: SaveStatus = "saved";
  private stopped = false;
  /** No more retries are scheduled (the editor was left); a save on its way still ends. */
  private suspended = false;
  /** Changes are kept on the device: set by a network failure, cleared once the server has all. */
  private keptMode = false;
  private keptData: TreeNode | null = null;
  private keptVersion = -1;
  private attempts = 0;
  /** What this editor sent without learning the outcome: one of them may be on the server. */
  private unsure: TreeNode[] = [];

  constructor(private readonly options: TreeSaverOptions) {
    this.saved = options.data;
    this.latest = options.kept ?? options.data;
    this.version = options.version;
    if (options.kept && options.kept !== options.data) {
      // Kept by an earlier page: it may be on the server already, with its answer lost.
      this.keptMode = true;
      this.keptData = options.kept;
      this.keptVersion = options.version;
      this.unsure = [options.kept];
      this.current = "kept";
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.save(false);
      }, 0);
    }
  }

  get status(): SaveStatus {
    return this.current;
  }

  get currentVersion(): number {
    return this.version;
  }

  /** True while something shown is not on the server yet. */
  get dirty(): boolean {
    return this.latest !== this.saved;
  }

  /** The editor's data changed: schedule an autosave (or note that nothing is left to save). */
  update(data: TreeNode): void {
    // The same tree again (an effect run twice) keeps the save already scheduled.
    if (data === this.latest && this.timer) return;
    this.latest = data;
    if (this.stopped || this.current === "conflict") return;
    this.clearTimer();
    // While changes are kept, each edit is on the device at once, not only when its save is
    // sent: a reload (or a closed tab) within the autosave delay would lose it otherwise.
    if (this.keptMode && this.dirty) this.keepLatest();
    if (this.inFlight) return;
    if (!this.dirty) {
      this.leaveKeptMode();
      this.setStatus("saved");
      return;
    }
    this.setStatus(this.keptMode ? "kept" : "pending");
    if (this.suspended) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save(false);
    }, this.options.delay ?? 1000);
  }

  /** Saves now; `manual` is the toolbar's Save, which always sends and reports success. */
  save(manual = false): Promise<void> {
    if (this.stopped || this.current === "conflict") return Promise.resolve();
    this.clearTimer();
    if (this.inFlight) {
      // The running save carries an older version; this one follows it.
      this.manualQueued ||= manual;
      return this.inFlight.then(() => this.afterFlight());
    }
    if (!manual && !this.dirty) return Promise.resolve();
    this.inFlight = this.run(manual).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight.then(() => this.afterFlight());
  }

  /** The browser is back online: kept changes are sent now, and the backoff starts again. */
  online(): void {
    if (this.stopped || this.current === "conflict" || !this.keptMode || this.inFlight) return;
    this.attempts = 0;
    void this.save(false);
  }

  /**
   * Leaving the editor: a change waiting for its autosave (or its retry) is sent right away. A
   * failed save is not retried here (after a 403 the user is already being logged out); what
   * failed on the network stays kept on the device for the next opening.
   */
  flush(): void {
    if ((this.current === "pending" || this.current === "kept") && this.timer) {
      void this.save(false);
    }
  }

  /** No more autosaves or retries are scheduled (the editor is gone); see `resume`. */
  suspend(): void {
    this.suspended = true;
    if (!this.inFlight) this.clearTimer();
  }

  resume(): void {
    this.suspended = false;
    if (this.keptMode && !this.timer && !this.inFlight) this.scheduleRetry();
  }

  /** No more saving at all (the tree was deleted). */
  stop(): void {
    this.stopped = true;
    this.clearTimer();
    this.latest = this.saved;
    this.leaveKeptMode();
    this.setStatus("saved");
  }

  private async run(manual: boolean): Promise<void> {
    const data = this.latest;
    // While changes are kept, the device has each version before it is sent.
    if (this.keptMode) this.keepLatest();
    else this.setStatus("saving");
    try {
      const sent = this.options.sendPatch
        ? await this.sendChanges(data, this.options.sendPatch)
        : await this.options.send(data, this.version);
      this.confirmed(data, sent.version);
      if (manual) this.options.onManualSave?.();
    } catch (error) {
      if (this.options.isConflict(error)) {
        const landed = await this.landed();
        if (landed) {
          // An earlier save of ours is the newer version: what was sent now follows it.
          this.confirmed(landed.data, landed.version);
          return;
        }
        this.setStatus("conflict");
        this.options.onConflict?.(error);
      } else if (this.options.isNetworkFailure?.(error)) {
        if (this.unsure.at(-1) !== data) this.unsure.push(data);
        this.keptMode = true;
        this.keepLatest();
        this.setStatus("kept");
        if (manual) this.options.onKept?.();
        this.scheduleRetry();
      } else {
        this.setStatus("error");
        this.options.onError?.(error);
      }
    }
  }

  /** The server has `data` as `version`. */
  private confirmed(data: TreeNode, version: number): void {
    this.version = version;
    this.saved = data;
    this.unsure = [];
    this.attempts = 0;
    if (this.keptMode) {
      if (this.dirty) this.keepLatest();
      else this.leaveKeptMode();
    }
    this.setStatus(this.keptMode ? "kept" : this.dirty ? "pending" : "saved");
  }

  /**
   * After a 409: the save of ours that the server has, when the newer version is one step on
   * and holds exactly what one of our unanswered saves sent; null when it is someone else's.
   */
  private async landed(): Promise<{ data: TreeNode; version: number } | null> {
    if (this.unsure.length === 0 || !this.options.readServer) return null;
    try {
      const server = await this.options.readServer();
      if (server.version !== this.version + 1) return null;
      const text = storedText(server.data);
      const mine = this.unsure.find((sent) => storedText(sent) === text);
      return mine ? { data: mine, version: server.version } : null;
    } catch {
      return null;
    }
  }

  private keepLatest(): void {
    if (this.keptData === this.latest && this.keptVersion === this.version) return;
    this.keptData = this.latest;
    this.keptVersion = this.version;
    this.options.keep?.(this.latest, this.version);
  }

  private leaveKeptMode(): void {
    if (!this.keptMode) return;
    this.keptMode = false;
    this.keptData = null;
    this.keptVersion = -1;
    this.attempts = 0;
    this.options.release?.();
  }

  private scheduleRetry(): void {
    if (this.suspended || this.stopped) return;
    this.clearTimer();
    const wait = (this.options.retryDelay ?? retryDelay)(this.attempts);
    this.attempts += 1;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save(false);
    }, wait);
  }

  /**
   * Sends `data`: as a JSON Patch against the last saved tree when the server takes patches and
   * it is the smaller body, else (or when the server refuses the patch) as the whole {data}.
   */
  private async sendChanges(
    data: TreeNode,
    sendPatch: NonNullable<TreeSaverOptions["sendPatch"]>,
  ): Promise<{ version: number }> {
    const operations = structurePatch(this.saved, data);
    if (operations) {
      try {
        return await sendPatch(operations, this.version);
      } catch (error) {
        if (!this.options.isRefusedPatch?.(error)) throw error;
      }
    }
    return this.options.send(storedForm(data), this.version);
  }

  /** After a save: run a queued manual save, or autosave changes made meanwhile. */
  private afterFlight(): Promise<void> | void {
    if (this.inFlight || this.stopped || this.current === "conflict") return;
    if (this.manualQueued) {
      this.manualQueued = false;
      // After a failure a retry (or the next change) sends it.
      if (this.current === "error" || (this.keptMode && this.timer)) return;
      if (!this.dirty) {
        // The save that was running already sent everything Save would have.
        this.options.onManualSave?.();
        return;
      }
      return this.save(true);
    }
    if (this.dirty && this.current !== "error" && !this.timer) this.update(this.latest);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private setStatus(status: SaveStatus): void {
    if (status === this.current) return;
    this.current = status;
    this.options.onStatus?.(status);
  }
}
