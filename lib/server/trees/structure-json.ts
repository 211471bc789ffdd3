import "server-only";
import type { TreeNode } from "@/lib/schemas/tree";

// The stored JSON of a held structure, kept per node (ADR 034) and cut into chunks (ADR 037).
//
// A patch changes the nodes its paths walk through (`forgetNodeJson` each of them, before the op
// runs) and the nodes it puts in; every other node keeps the text it had, so the next save
// serializes only the changed path and joins the rest. Strings are joined with `+`, which V8 keeps
// as ropes that share their parts, so the held texts cost about the structure's bytes once.
//
// A large structure is stored in chunks: "Tree"."data" holds the top, and each chunk (a row of
// "TreeChunk") one subtree, with `{"$chunk":key}` in place of every chunk below it. A node's text
// here is its chunked text: a child that roots a chunk is written as its placeholder. A save
// writes the chunks whose text changed, so a one-child patch rewrites one chunk of at most some
// tens of kilobytes, whatever the size of the tree.
//
// Everything is keyed weakly by node object: a structure that is dropped (a failed save, a stale
// version) takes its texts and keys with it.

/** A child whose subtree's own text (its chunks below apart) reaches this becomes a chunk. */
export const CHUNK_MIN_BYTES = 8 * 1024;
/** A node whose text passes this even so (many small children) puts its largest children in chunks… */
export const CHUNK_MAX_BYTES = 24 * 1024;
/** …those of at least this many bytes: a smaller one is not worth a row of its own. */
export const CHUNK_SPLIT_BYTES = 128;

export interface ChunkSizes {
  minBytes: number;
  maxBytes: number;
  splitBytes: number;
}
const DEFAULT_SIZES: ChunkSizes = {
  minBytes: CHUNK_MIN_BYTES,
  maxBytes: CHUNK_MAX_BYTES,
  splitBytes: CHUNK_SPLIT_BYTES,
};

interface Entry {
  /** The node's JSON, with each child that roots a chunk written as its placeholder. */
  text: string;
  /** `JSON.stringify(node).length`: the text with every chunk below put in its place. */
  bytes: number;
  /** The chunk roots the text holds placeholders of, in text order. */
  inner: readonly TreeNode[];
}

const entries = new WeakMap<TreeNode, Entry>();
/** The key of each node that roots a chunk (the tree's root is in the tree's row, not a chunk). */
const chunkKeys = new WeakMap<TreeNode, number>();
/** A chunk root's (or the tree root's) text as last stored. */
const written = new WeakMap<TreeNode, string>();
const NONE: readonly TreeNode[] = [];

export const placeholder = (key: number) => `{"$chunk":${key}}`;

/** A node changed in place: its text (and, by the caller, its ancestors') must be made again. */
export function forgetNodeJson(node: TreeNode): void {
  entries.delete(node);
}

/** What a structure's chunks are as stored: kept with the held structure between saves. */
export interface ChunkState {
  /** The next key to give a new chunk (keys are never used twice for a tree while held). */
  nextKey: number;
  /** The keys of the chunks stored now. */
  stored: ReadonlySet<number>;
}

/** What one save of a structure writes. */
export interface ChunkedWrite {
  /** The text of "Tree"."data", or null when it is unchanged. */
  root: string | null;
  /** The chunks to insert or replace. */
  put: { key: number; text: string }[];
  /** The chunks no longer in the structure. */
  drop: number[];
  /** Every chunk stored first (a whole new structure): the save deletes all and puts all. */
  replaceAll: boolean;
  /** `JSON.stringify(root).length`, which the byte limit counts. */
  bytes: number;
  /** The chunk state once this write has committed. */
  state: ChunkState;
  /** Records the write as stored; call it once the transaction has committed. */
  commit(): void;
}

/**
 * The texts of every node of `root` that has none, children first (iterative: a structure may be
 * deeper than the stack). With `assign`, a child whose text reaches `minBytes` becomes a chunk, and
 * so do a node's largest children while its text passes `maxBytes`.
 */
function fill(
  root: TreeNode,
  assign: ((node: TreeNode) => void) | null,
  sizes: ChunkSizes,
): Entry {
  const known = entries.get(root);
  if (known) return known;
  const stack: { node: TreeNode; expanded: boolean }[] = [{ node: root, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (!top.expanded) {
      top.expanded = true;
      for (const child of top.node.children) {
        if (!entries.has(child)) stack.push({ node: child, expanded: false });
      }
      continue;
    }
    stack.pop();
    if (entries.has(top.node)) continue; // the same node listed twice: already written
    entries.set(top.node, build(top.node, assign, sizes));
  }
  return entries.get(root)!;
}

function build(node: TreeNode, assign: ((node: TreeNode) => void) | null, sizes: ChunkSizes) {
  const children = node.children;
  if (assign) {
    for (const child of children) {
      if (!chunkKeys.has(child) && entries.get(child)!.text.length >= sizes.minBytes) assign(child);
    }
  }
  let entry = nodeEntry(node);
  if (assign && entry.text.length > sizes.maxBytes) {
    // many small children: the largest go to chunks of their own until the node fits
    const inline = children
      .filter((child) => !chunkKeys.has(child))
      .sort((a, b) => entries.get(b)!.text.length - entries.get(a)!.text.length);
    let length = entry.text.length;
    for (const child of inline) {
      if (length <= sizes.maxBytes || entries.get(child)!.text.length < sizes.splitBytes) break;
      assign(child);
      length -= entries.get(child)!.text.length - placeholder(chunkKeys.get(child)!).length;
    }
    entry = nodeEntry(node);
  }
  return entry;
}

function nodeEntry(node: TreeNode): Entry {
  let text = "{";
  let bytes = 0;
  let inner: TreeNode[] | null = null;
  let first = true;
  for (const key of Object.keys(node)) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (value === undefined || typeof value === "function") continue;
    text += `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    if (key === "children") {
      const children = value as TreeNode[];
      text += "[";
      for (let i = 0; i < children.length; i += 1) {
        if (i > 0) text += ",";
        const child = children[i]!;
        const entry = entries.get(child)!;
        const key = chunkKeys.get(child);
        if (key === undefined) {
          text += entry.text;
          bytes += entry.bytes - entry.text.length;
          if (entry.inner.length > 0) (inner ??= []).push(...entry.inner);
        } else {
          const mark = placeholder(key);
          text += mark;
          bytes += entry.bytes - mark.length;
          (inner ??= []).push(child);
        }
      }
      text += "]";
    } else {
      text += JSON.stringify(value);
    }
  }
  text += "}";
  return { text, bytes: bytes + text.length, inner: inner ?? NONE };
}

/**
 * Exactly `JSON.stringify(root)` for a validated structure (plain objects, no toJSON; a field
 * holding undefined is left out as JSON.stringify leaves it out), joined from the kept texts of
 * its nodes and chunks.
 */
export function structureJson(root: TreeNode): string {
  const entry = fill(root, null, DEFAULT_SIZES);
  if (entry.inner.length === 0) return entry.text;
  let text = entry.text;
  for (const child of entry.inner) {
    text = text.replace(placeholder(chunkKeys.get(child)!), () => structureJson(child));
  }
  return text;
}

/** The chunk roots of `root`, top first, with their keys. */
function chunksOf(root: TreeNode): { node: TreeNode; key: number }[] {
  const found: { node: TreeNode; key: number }[] = [];
  const stack = [...entries.get(root)!.inner];
  for (let node = stack.pop(); node; node = stack.pop()) {
    found.push({ node, key: chunkKeys.get(node)! });
    stack.push(...entries.get(node)!.inner);
  }
  return found;
}

/**
 * What a save of `root` writes. With `state` (the structure as stored, held since its last save
 * or read with its chunks), only the chunks whose text changed; without, every chunk of a new
 * set, the stored ones deleted first (a whole new body, or a structure read without its chunks).
 */
export function chunkedWrite(
  root: TreeNode,
  state: ChunkState | null,
  sizes: ChunkSizes = DEFAULT_SIZES,
): ChunkedWrite {
  let nextKey = state?.nextKey ?? 1;
  const entry = fill(root, (node) => chunkKeys.set(node, nextKey++), sizes);
  const chunks = chunksOf(root);
  const replaceAll = state === null;
  const changed = (node: TreeNode) => replaceAll || written.get(node) !== entries.get(node)!.text;
  const live = new Set(chunks.map((chunk) => chunk.key));
  const put = chunks
    .filter((chunk) => changed(chunk.node))
    .map((chunk) => ({ key: chunk.key, text: entries.get(chunk.node)!.text }));
  const drop = state ? [...state.stored].filter((key) => !live.has(key)) : [];
  return {
    root: changed(root) ? entry.text : null,
    put,
    drop,
    replaceAll,
    bytes: entry.bytes,
    state: { nextKey, stored: live },
    commit() {
      written.set(root, entry.text);
      for (const chunk of chunks) written.set(chunk.node, entries.get(chunk.node)!.text);
    },
  };
}

/** The stored parts of a structure: "Tree"."data" and its chunks, as JSON texts. */
export interface StoredParts {
  root: string;
  chunks: { key: number; text: string }[];
}

const isPlaceholder = (value: unknown): value is { $chunk: number } =>
  typeof value === "object" &&
  value !== null &&
  Object.keys(value).length === 1 &&
  typeof (value as { $chunk?: unknown }).$chunk === "number";

/**
 * The structure of stored parts, each chunk's subtree put in its place, and its chunk state: the
 * chunks keep their keys and count as stored, so the next save writes only what it changes.
 */
export function readStoredParts(parts: StoredParts): { data: TreeNode; state: ChunkState } {
  const data = JSON.parse(parts.root) as TreeNode;
  const byKey = new Map<number, TreeNode>();
  let nextKey = 1;
  for (const chunk of parts.chunks) {
    byKey.set(chunk.key, JSON.parse(chunk.text) as TreeNode);
    nextKey = Math.max(nextKey, chunk.key + 1);
  }
  const used = new Set<number>();
  const stack: TreeNode[] = [data];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const children = node.children;
    for (let i = 0; i < children.length; i += 1) {
      const child: unknown = children[i];
      if (isPlaceholder(child)) {
        const key = child.$chunk;
        const part = byKey.get(key);
        if (!part || used.has(key)) throw new Error(`Tree chunk ${key} is missing or used twice`);
        used.add(key);
        chunkKeys.set(part, key);
        children[i] = part;
      }
      stack.push(children[i]!);
    }
  }
  // the texts as stored: nothing is changed until a patch touches it
  fill(data, null, DEFAULT_SIZES);
  written.set(data, entries.get(data)!.text);
  for (const chunk of chunksOf(data)) written.set(chunk.node, entries.get(chunk.node)!.text);
  // chunks no placeholder names (none should be) go with the next save
  return { data, state: { nextKey, stored: new Set(byKey.keys()) } };
}
