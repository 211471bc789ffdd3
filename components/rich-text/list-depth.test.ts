import { getSchema, type JSONContent } from "@tiptap/core";
import { Node as ProseMirrorNode } from "@tiptap/pm/model";
import { sinkListItem } from "@tiptap/pm/schema-list";
import { EditorState, TextSelection } from "@tiptap/pm/state";
import { describe, expect, it } from "vitest";
import { richTextExtensions } from "./extensions";
import { canIndentListItem, listDepthPlugin, MAX_LIST_DEPTH, maxListDepth } from "./list-depth";

const schema = getSchema(richTextExtensions);

const paragraph = (text: string): JSONContent => ({
  type: "paragraph",
  content: [{ type: "text", text }],
});

/** A list nested `depth` levels deep; the innermost level holds items "a" then "b". */
function nestedList(depth: number, type = "bulletList"): JSONContent {
  let list: JSONContent = {
    type,
    content: [
      { type: "listItem", content: [paragraph("a")] },
      { type: "listItem", content: [paragraph("b")] },
    ],
  };
  for (let level = 1; level < depth; level++) {
    list = {
      type: level % 2 ? "orderedList" : "bulletList",
      content: [{ type: "listItem", content: [paragraph(`level ${level}`), list] }],
    };
  }
  return list;
}

function stateWith(content: JSONContent[]): EditorState {
  const doc = ProseMirrorNode.fromJSON(schema, { type: "doc", content });
  return EditorState.create({ schema, doc, plugins: [listDepthPlugin()] });
}

/** Puts the cursor in the text `text` (its first occurrence). */
function selectText(state: EditorState, text: string): EditorState {
  let at = -1;
  state.doc.descendants((node, pos) => {
    if (at < 0 && node.isText && node.text === text) at = pos + 1;
  });
  if (at < 0) throw new Error(`text ${text} not found`);
  return state.apply(state.tr.setSelection(TextSelection.create(state.doc, at)));
}

function run(
  state: EditorState,
  command: (s: EditorState, d: (tr: EditorState["tr"]) => void) => boolean,
) {
  let next = state;
  command(state, (tr) => {
    next = state.apply(tr);
  });
  return next;
}

describe("maxListDepth", () => {
  it("counts nested bullet and ordered lists", () => {
    expect(maxListDepth(stateWith([paragraph("x")]).doc)).toBe(0);
    for (const depth of [1, 2, 3, 4, 5]) {
      expect(maxListDepth(stateWith([nestedList(depth)]).doc)).toBe(depth);
    }
  });
});

describe("the list depth limit", () => {
  it("is four, as the spec says", () => {
    expect(MAX_LIST_DEPTH).toBe(4);
  });

  it("lets an item be indented up to the fourth level", () => {
    const state = selectText(stateWith([nestedList(3)]), "b");
    expect(canIndentListItem(state)).toBe(true);
    const indented = run(state, sinkListItem(schema.nodes.listItem!));
    expect(maxListDepth(indented.doc)).toBe(4);
  });

  it("refuses to indent an item to a fifth level", () => {
    const state = selectText(stateWith([nestedList(4)]), "b");
    expect(canIndentListItem(state)).toBe(false);
    const after = run(state, sinkListItem(schema.nodes.listItem!));
    expect(maxListDepth(after.doc)).toBe(4);
    expect(after.doc.eq(state.doc)).toBe(true);
  });

  it("refuses a list pasted inside a fourth-level item", () => {
    const state = selectText(stateWith([nestedList(4)]), "a");
    const list = ProseMirrorNode.fromJSON(schema, nestedList(1));
    // After the paragraph "a", inside its list item.
    const after = state.apply(state.tr.insert(state.selection.$from.after(), list));
    expect(after.doc.eq(state.doc)).toBe(true);
    const shallow = selectText(stateWith([nestedList(3)]), "a");
    const accepted = shallow.apply(shallow.tr.insert(shallow.selection.$from.after(), list));
    expect(maxListDepth(accepted.doc)).toBe(4);
  });

  it("refuses to insert (paste) a list deeper than four levels", () => {
    const state = stateWith([paragraph("x")]);
    const deep = ProseMirrorNode.fromJSON(schema, nestedList(5));
    const after = state.apply(state.tr.insert(state.doc.content.size, deep));
    expect(after.doc.eq(state.doc)).toBe(true);
    const fine = ProseMirrorNode.fromJSON(schema, nestedList(4));
    const accepted = state.apply(state.tr.insert(state.doc.content.size, fine));
    expect(maxListDepth(accepted.doc)).toBe(4);
  });

  it("keeps older, deeper content editable without letting it grow", () => {
    const state = selectText(stateWith([nestedList(5)]), "b");
    const typed = state.apply(state.tr.insertText("!"));
    expect(typed.doc.textContent).toContain("b!");
    const after = run(typed, sinkListItem(schema.nodes.listItem!));
    expect(maxListDepth(after.doc)).toBe(5);
  });

  it("is part of the editor's extensions", () => {
    expect(richTextExtensions.map((e) => e.name)).toContain("listDepthLimit");
  });
});
