import { describe, expect, it } from "vitest";
import { emptyNode } from "@/lib/tree/empty-node";
import { addChild, deleteNode } from "@/lib/tree/reducers";
import { HISTORY_LIMIT, historyKey, record, redo, startHistory, undo } from "./history";

const key = (
  k: string,
  mods: Partial<Record<"ctrlKey" | "metaKey" | "shiftKey" | "altKey", boolean>> = {},
) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe("editor history", () => {
  it("undoes a deleted subtree and redoes it, keeping the very same trees", () => {
    const start = addChild(addChild(emptyNode(), []), [0]);
    const deleted = deleteNode(start, [0]);
    let history = record(startHistory(start), deleted);
    expect(history.present.children).toHaveLength(0);
    history = undo(history);
    expect(history.present).toBe(start);
    expect(history.present.children[0]!.children).toHaveLength(1);
    history = redo(history);
    expect(history.present).toBe(deleted);
    expect(redo(history)).toBe(history);
  });

  it("forgets what was undone once a new edit is made", () => {
    const a = emptyNode();
    const b = addChild(a, []);
    const c = addChild(b, []);
    let history = record(record(startHistory(a), b), c);
    history = undo(history);
    history = record(history, addChild(b, [0]));
    expect(history.future).toEqual([]);
    expect(undo(history).present).toBe(b);
  });

  it("ignores an edit that changes nothing, and an undo with nothing to undo", () => {
    const a = emptyNode();
    const history = startHistory(a);
    expect(record(history, a)).toBe(history);
    expect(undo(history)).toBe(history);
  });

  it(`keeps the last ${HISTORY_LIMIT} steps`, () => {
    let history = startHistory(emptyNode());
    for (let i = 0; i < HISTORY_LIMIT + 20; i += 1) {
      history = record(history, addChild(history.present, []));
    }
    expect(history.past).toHaveLength(HISTORY_LIMIT);
  });

  it("reads Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y and Cmd+Z", () => {
    expect(historyKey(key("z", { ctrlKey: true }))).toBe("undo");
    expect(historyKey(key("Z", { ctrlKey: true, shiftKey: true }))).toBe("redo");
    expect(historyKey(key("y", { ctrlKey: true }))).toBe("redo");
    expect(historyKey(key("z", { metaKey: true }))).toBe("undo");
    expect(historyKey(key("z"))).toBeNull();
    expect(historyKey(key("z", { ctrlKey: true, altKey: true }))).toBeNull();
  });
});
