import { Extension } from "@tiptap/core";
import type { Node as ProseMirrorNode } from "@tiptap/pm/model";
import { Plugin, PluginKey, type EditorState } from "@tiptap/pm/state";
import { sinkListItem } from "@tiptap/pm/schema-list";

/** How deep lists may nest (SPEC.md section 9). */
export const MAX_LIST_DEPTH = 4;

const LIST_NODES = new Set(["bulletList", "orderedList"]);

/** The deepest nesting of bullet and ordered lists in a document (0 when it has no list). */
export function maxListDepth(node: ProseMirrorNode, depth = 0): number {
  const here = LIST_NODES.has(node.type.name) ? depth + 1 : depth;
  let deepest = here;
  node.forEach((child) => {
    deepest = Math.max(deepest, maxListDepth(child, here));
  });
  return deepest;
}

/**
 * Rejects any change that would nest lists deeper than `maxDepth`: indenting, toggling a list
 * inside a deep item, pasting. A document that is already deeper (older content) stays editable,
 * but no change may make it deeper still.
 */
export function listDepthPlugin(maxDepth: number = MAX_LIST_DEPTH): Plugin {
  return new Plugin({
    key: new PluginKey("listDepthLimit"),
    filterTransaction(tr, state) {
      if (!tr.docChanged) return true;
      const after = maxListDepth(tr.doc);
      return after <= maxDepth || after <= maxListDepth(state.doc);
    },
  });
}

/** Whether the list item at the selection can be indented without breaking the depth limit. */
export function canIndentListItem(state: EditorState, maxDepth: number = MAX_LIST_DEPTH): boolean {
  const listItem = state.schema.nodes.listItem;
  if (!listItem) return false;
  let result: EditorState["doc"] | null = null;
  const applied = sinkListItem(listItem)(state, (tr) => {
    result = tr.doc;
  });
  return applied && result !== null && maxListDepth(result) <= maxDepth;
}

export const ListDepthLimit = Extension.create<{ maxDepth: number }>({
  name: "listDepthLimit",
  addOptions() {
    return { maxDepth: MAX_LIST_DEPTH };
  },
  addProseMirrorPlugins() {
    return [listDepthPlugin(this.options.maxDepth)];
  },
});
