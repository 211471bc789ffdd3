import { describe, expect, it } from "vitest";
import { LIMIT_TEXT, TREE_LIMITS, type TreeNode, treeData } from "@/lib/schemas/tree";
import { describeZodError } from "@/lib/validation-message";
import { referencedPeople } from "./save-tree-data";
import { chunkedWrite } from "./structure-json";
import {
  OFF_THREAD_CHARS,
  StructureRefusal,
  answerOf,
  orderHeirs,
  prepareStructure,
  prepareTreeBody,
} from "./structure-work";

/** A tree of `count` nodes, breadth first, three children each, with references. */
function legacy(count: number): TreeNode {
  const all: TreeNode[] = [];
  for (let i = 0; i < count; i++) {
    all.push({
      person: { _id: `p${i}` },
      partners: i % 3 ? [{ type: "MARRIED", people: [{ _id: `q${i}` }] }] : [],
      children: [],
      parentType: "NONE",
      parents: i % 2 ? [{ _id: `p${i + 1}` }] : [],
      adoptiveParents: [],
      hidden: false,
    });
    if (i > 0) all[Math.floor((i - 1) / 3)]!.children.push(all[i]!);
  }
  return all[0]!;
}

describe("prepareTreeBody (the worker's half of a large whole-tree save, issue 32)", () => {
  it("stores exactly what the request thread's chunkedWrite stores, and names every Sim", () => {
    const data = legacy(3_000);
    const text = JSON.stringify({ data });
    expect(text.length).toBeGreaterThan(OFF_THREAD_CHARS);
    const prepared = prepareTreeBody(text)!;
    const here = chunkedWrite(treeData.parse(data), null);
    expect(here.put.length).toBeGreaterThan(10);
    expect(prepared.root).toBe(here.root);
    expect(prepared.put).toEqual(here.put);
    expect(prepared.bytes).toBe(here.bytes);
    expect(new Set(prepared.people)).toEqual(referencedPeople(treeData.parse(data)));
  });

  it("answers null for every body it does not own, so the request thread reads it as before", () => {
    const data = legacy(10);
    for (const body of [
      JSON.stringify({ title: "Details" }),
      JSON.stringify({ data, title: "Both" }),
      JSON.stringify([data]),
      "null",
      '{"data": ',
      JSON.stringify({ data: { ...data, person: { _id: "nul\u0000" } } }),
    ]) {
      expect(prepareTreeBody(body), body.slice(0, 40)).toBeNull();
    }
  });

  it("refuses an invalid structure with the schema's sentence, as a 400 across threads", () => {
    const body = JSON.stringify({ data: { ...legacy(5), parentType: "STORK" } });
    const answer = answerOf(() => prepareTreeBody(body));
    const expected = treeData.safeParse({ ...legacy(5), parentType: "STORK" });
    expect(answer).toEqual({ ok: false, status: 400, detail: describeZodError(expected.error!) });
  });

  it("refuses a structure past the stored-bytes limit with 422", () => {
    const wide: TreeNode = { ...legacy(1), children: [] };
    const name = "x".repeat(60);
    const child = (i: number): TreeNode => ({ ...legacy(1), person: { _id: `${name}${i}` } });
    // each child's text is about 140 bytes: enough of them pass 16 MB
    const count = Math.ceil(TREE_LIMITS.maxBytes / 120);
    wide.children = Array.from({ length: count }, (_, i) => child(i));
    expect(() => prepareStructure(wide)).toThrow(new StructureRefusal(422, LIMIT_TEXT.bytes));
  });
});

describe("orderHeirs", () => {
  it("orders heirs oldest generation first and refuses unknown Sims and two of one generation", () => {
    const node = (id: string, children: TreeNode[] = []): TreeNode => ({
      ...legacy(1),
      person: { _id: id },
      children,
    });
    // p0, then p1 and p2, then p4 (p1's child)
    const data = node("p0", [node("p1", [node("p4")]), node("p2")]);
    expect(orderHeirs(data, ["p4", "p0", "p1"])).toEqual(["p0", "p1", "p4"]);
    expect(answerOf(() => orderHeirs(data, ["nobody"]))).toEqual({
      ok: false,
      status: 422,
      detail: "The heir nobody is not placed in this tree",
    });
    const twice = answerOf(() => orderHeirs(data, ["p1", "p2"]));
    expect(twice).toMatchObject({ ok: false, status: 422 });
  });
});
