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
 * request is out; error: the last save failed (kept, retried on the next change or Save);
 * conflict: someone else saved first, so nothing more is sent until the page is reloaded.
 */
export type SaveStatus = "saved" | "pending" | "saving" | "error" | "conflict";

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

/**
 * The editor's saving, without React: changes are saved after a quiet `delay`, Save saves at
 * once, saves never overlap (each one carries the version the previous one returned), and a
 * 409 stops all saving so another tab's work is never overwritten.
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

  constructor(private readonly options: TreeSaverOptions) {
    this.saved = options.data;
    this.latest = options.data;
    this.version = options.version;
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
    this.latest = data;
    if (this.stopped || this.current === "conflict") return;
    this.clearTimer();
    if (this.inFlight) return;
    if (!this.dirty) {
      this.setStatus("saved");
      return;
    }
    this.setStatus("pending");
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

  /**
   * Leaving the editor: a change waiting for its autosave is sent right away. A failed save is
   * not retried here (after a 403 the user is already being logged out).
   */
  flush(): void {
    if (this.current === "pending" && this.timer) void this.save(false);
  }

  /** No more saving at all (the tree was deleted). */
  stop(): void {
    this.stopped = true;
    this.clearTimer();
    this.latest = this.saved;
    this.setStatus("saved");
  }

  private async run(manual: boolean): Promise<void> {
    const data = this.latest;
    this.setStatus("saving");
    try {
      const sent = this.options.sendPatch
        ? await this.sendChanges(data, this.options.sendPatch)
        : await this.options.send(data, this.version);
      this.version = sent.version;
      this.saved = data;
      if (manual) this.options.onManualSave?.();
      this.setStatus(this.dirty ? "pending" : "saved");
    } catch (error) {
      if (this.options.isConflict(error)) {
        this.setStatus("conflict");
        this.options.onConflict?.(error);
      } else {
        this.setStatus("error");
        this.options.onError?.(error);
      }
    }
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
      if (this.current === "error") return;
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
