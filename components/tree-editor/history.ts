import type { TreeNode } from "@/lib/schemas/tree";

/**
 * The editor's structure history (ADR 016): whole trees, not edits. The reducers share every
 * untouched subtree, so each entry costs only the nodes copied on the way to its edit, and undo
 * is a plain swap that the autosave then sends like any other change. It lives in memory only:
 * a reload starts a fresh history from the saved tree.
 */
export interface History {
  past: readonly TreeNode[];
  present: TreeNode;
  future: readonly TreeNode[];
}

/** How many steps back are kept. */
export const HISTORY_LIMIT = 100;

export function startHistory(present: TreeNode): History {
  return { past: [], present, future: [] };
}

/** A new state after an edit: it can be undone, and whatever was undone can no longer be redone. */
export function record(history: History, next: TreeNode): History {
  if (next === history.present) return history;
  const past = [...history.past, history.present];
  if (past.length > HISTORY_LIMIT) past.splice(0, past.length - HISTORY_LIMIT);
  return { past, present: next, future: [] };
}

export function undo(history: History): History {
  const previous = history.past[history.past.length - 1];
  if (!previous) return history;
  return {
    past: history.past.slice(0, -1),
    present: previous,
    future: [history.present, ...history.future],
  };
}

export function redo(history: History): History {
  const [next, ...future] = history.future;
  if (!next) return history;
  return { past: [...history.past, history.present], present: next, future };
}

/** What a key press asks of the history: Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo. */
export function historyKey(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): "undo" | "redo" | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (key === "z") return event.shiftKey ? "redo" : "undo";
  if (key === "y" && !event.shiftKey) return "redo";
  return null;
}
