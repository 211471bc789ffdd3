import "server-only";
import { LRUCache } from "lru-cache";
import type { TreeNode } from "@/lib/schemas/tree";
import type { ChunkState } from "./structure-json";
import type { StructureSize } from "./structure-size";

/** A tree's structure as committed at `version`, parsed and measured (issue 23, ADR 020). */
export interface HeldStructure {
  version: number;
  data: TreeNode;
  size: StructureSize;
  /** Its chunks as stored (ADR 037). */
  chunks: ChunkState;
}

/**
 * Stored bytes of structure kept parsed in memory, least recently saved first out. A parsed
 * structure takes about 4-6 times its JSON bytes of heap, and its kept texts (ADR 034, 037) about
 * once more, so this is some 300-450 MB at most. At 32 MB the long autosave storm's 55 trees of
 * 650 kB did not fit, each save read its tree again, and it managed 19.1 saves a second (p50 3.0 s,
 * p99 6.5 s); at 64 MB, 32.6 (p50 1.5 s, p99 5.0 s), same quiet machine.
 */
const BUDGET_BYTES = 64 * 1024 * 1024;

const held = new LRUCache<string, HeldStructure>({
  maxSize: BUDGET_BYTES,
  sizeCalculation: (entry) => Math.max(1, entry.size.bytes),
});

/**
 * The structure of `treeId` at `version` if this process holds it, taken out of the cache: the
 * caller changes it in place and gives it back with `holdStructure` only once its own write has
 * committed. Versions only grow and a version is held only after its commit, so a held version
 * is the stored one on every instance; another instance's save makes the held one stale, never
 * wrong (its version is lower than the row's, so it is not taken).
 */
export function takeStructure(treeId: string, version: number): HeldStructure | undefined {
  const entry = held.get(treeId);
  held.delete(treeId);
  return entry?.version === version ? entry : undefined;
}

/** Keeps a committed structure for the next save of the tree. */
export function holdStructure(treeId: string, entry: HeldStructure): void {
  if (entry.size.bytes > BUDGET_BYTES / 4) {
    held.delete(treeId);
    return;
  }
  held.set(treeId, entry);
}

/** Forgets what is held for a tree (a write that did not go through the save path). */
export function forgetStructure(treeId: string): void {
  held.delete(treeId);
}

/** The version of a tree's structure this process holds, if any (without taking it). */
export function heldVersion(treeId: string): number | undefined {
  return held.peek(treeId)?.version;
}
