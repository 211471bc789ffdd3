import "server-only";
import type { TreeNode } from "@/lib/schemas/tree";

/**
 * The stored JSON of a held structure, kept per node (ADR 034): a patch changes the nodes its
 * paths walk through (`forgetNodeJson` each of them, before the op runs) and the nodes it puts
 * in; every other node keeps the text it had, so the next save serializes only the changed path
 * and joins the rest. Strings are joined with `+`, which V8 keeps as ropes that share their
 * parts, so the held texts cost about the structure's bytes once, not once per generation.
 *
 * Keyed weakly by node object: a structure that is dropped (a failed save, a stale version)
 * takes its texts with it.
 */
const texts = new WeakMap<TreeNode, string>();

/** A node changed in place: its text (and, by the caller, its ancestors') must be made again. */
export function forgetNodeJson(node: TreeNode): void {
  texts.delete(node);
}

/**
 * Exactly `JSON.stringify(node)` for a validated structure (plain objects, no toJSON; a field
 * holding undefined is left out as JSON.stringify leaves it out), reusing each unchanged node's
 * text. Iterative: a structure may be deeper than the stack.
 */
export function structureJson(root: TreeNode): string {
  const known = texts.get(root);
  if (known !== undefined) return known;
  // post-order: a node is written once all its children have texts
  const stack: { node: TreeNode; expanded: boolean }[] = [{ node: root, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (!top.expanded) {
      top.expanded = true;
      for (const child of top.node.children) {
        if (!texts.has(child)) stack.push({ node: child, expanded: false });
      }
      continue;
    }
    stack.pop();
    if (texts.has(top.node)) continue; // the same node listed twice: already written
    texts.set(top.node, nodeText(top.node));
  }
  return texts.get(root)!;
}

function nodeText(node: TreeNode): string {
  let text = "{";
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
        text += texts.get(children[i]!)!;
      }
      text += "]";
    } else {
      text += JSON.stringify(value);
    }
  }
  return `${text}}`;
}
