import { describe, expect, it } from "vitest";
import { type CutText, cutAtChunks, joinChunks } from "./chunk-text";

const parts = (entries: [number, string][]) =>
  new Map<number, CutText>(entries.map(([key, text]) => [key, cutAtChunks(text)]));

describe("cutAtChunks and joinChunks (heirloom_tree_text in JavaScript)", () => {
  it("cuts a text at jsonb's placeholders, keys between the texts", () => {
    expect(cutAtChunks('{"a": [{"$chunk": 3}, {"$chunk": 17}]}')).toEqual([
      '{"a": [',
      3,
      ", ",
      17,
      "]}",
    ]);
    expect(cutAtChunks('{"a": 1}')).toEqual(['{"a": 1}']);
    expect(cutAtChunks('{"$chunk": 5}')).toEqual(["", 5, ""]);
  });

  it("leaves a placeholder's text inside a string alone (its quotes are escaped there)", () => {
    const text = '{"name": "{\\"$chunk\\": 3}", "children": []}';
    expect(cutAtChunks(text)).toEqual([text]);
  });

  it("puts every chunk in its place, to any depth, as the whole text was", () => {
    const whole = JSON.stringify(
      { a: [{ b: [{ c: 1 }, { d: "x" }] }, { e: [] }] },
      null,
      1,
    ).replace(/\n\s*/g, " ");
    const top = cutAtChunks('{ "a": [ {"$chunk": 1}, {"$chunk": 2} ] }');
    const chunks = parts([
      [1, '{ "b": [ {"$chunk": 7}, { "d": "x" } ] }'],
      [7, '{ "c": 1 }'],
      [2, '{ "e": [] }'],
      // nothing reaches it: left out, as the SQL function leaves it
      [9, '{ "orphan": true }'],
    ]);
    expect(joinChunks(top, chunks)).toBe(whole);
    expect(JSON.parse(joinChunks(top, chunks)!)).toEqual(JSON.parse(whole));
  });

  it("answers null for parts that are not one stored structure", () => {
    // a placeholder whose chunk is missing (read across a save that dropped it)
    expect(joinChunks(cutAtChunks('[{"$chunk": 1}]'), parts([]))).toBeNull();
    // a chunk reached twice, or a chunk that holds itself
    expect(
      joinChunks(cutAtChunks('[{"$chunk": 1}, {"$chunk": 1}]'), parts([[1, "{}"]])),
    ).toBeNull();
    expect(joinChunks(cutAtChunks('[{"$chunk": 1}]'), parts([[1, '[{"$chunk": 1}]']]))).toBeNull();
    expect(
      joinChunks(
        cutAtChunks('[{"$chunk": 1}]'),
        parts([
          [1, '[{"$chunk": 2}]'],
          [2, '[{"$chunk": 1}]'],
        ]),
      ),
    ).toBeNull();
  });

  it("joins a chain of chunks deeper than the stack", () => {
    const depth = 50_000;
    const chunks = new Map<number, CutText>();
    for (let key = 1; key < depth; key += 1)
      chunks.set(key, cutAtChunks(`[${key},{"$chunk": ${key + 1}}]`));
    chunks.set(depth, cutAtChunks(`[${depth}]`));
    const joined = joinChunks(cutAtChunks('{"$chunk": 1}'), chunks)!;
    expect(joined.startsWith("[1,[2,[3,")).toBe(true);
    expect(joined.endsWith(`[${depth}]${"]".repeat(depth - 1)}`)).toBe(true);
  });
});

