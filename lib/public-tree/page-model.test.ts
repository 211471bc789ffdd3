import { describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";
import { node, partners, person } from "@/lib/tree/test-trees";
import { FIRST_GENERATIONS, MAX_FAMILIES, firstGenerationsCut } from "./first-generations";
import { listPage } from "./list-pages";
import { publicPageModel, publicPageModelOfJson } from "./page-model";

/** A wide, deep legacy: each Sim of generation g has `wide` children, down `deep` generations. */
function legacy(wide: number, deep: number) {
  const people: Person[] = [];
  let count = 0;
  const make = (depth: number): TreeNode => {
    const id = `s${(count += 1)}`;
    const spouse = `w${count}`;
    people.push(
      { ...person(id, `Sim ${count}`, "Legacy"), bio: "<p>A long story.</p>" },
      person(spouse, `Spouse ${count}`, "Married-In"),
    );
    const children = depth < deep ? Array.from({ length: wide }, () => make(depth + 1)) : [];
    return node(id, children, { partners: partners(["MARRIED", spouse]) });
  };
  const data = make(1);
  return { _id: "tree", data, people, lastPublishDate: "2026-11-25T00:00:00.000Z" };
}

/** Every node of a tree, depth first. */
const nodesOf = (root: TreeNode): TreeNode[] => [root, ...root.children.flatMap(nodesOf)];

describe("publicPageModel", () => {
  it("pages the list as listPage does", () => {
    const view = legacy(4, 5);
    for (const page of [1, 2, 99]) {
      const model = publicPageModel(view, { kind: "list", page });
      expect(model).toEqual({ kind: "list", list: listPage(view.data, view.people, page) });
    }
  });

  it("cuts the canvas page's first generations to the families it names, with their names only", () => {
    const view = legacy(8, 5);
    const model = publicPageModel(view, { kind: "canvas" });
    if (model.kind !== "canvas") throw new Error("not the canvas page");
    const kept = nodesOf(model.first.data);
    expect(kept.length).toBe(MAX_FAMILIES);
    // generation by generation: the root, its 8 children, then their children until the bound
    expect(model.first.data.children).toHaveLength(8);
    const depthOf = (root: TreeNode, depth = 1): number =>
      Math.max(depth, ...root.children.map((child) => depthOf(child, depth + 1)));
    expect(depthOf(model.first.data)).toBe(FIRST_GENERATIONS);
    // each named Sim and partner once, without bios
    const named = new Set(
      kept.flatMap((kept) => [
        kept.person!._id,
        ...kept.partners.flatMap((row) => row.people.map((ref) => ref._id)),
      ]),
    );
    expect(new Set(model.first.people.map((person) => person._id))).toEqual(named);
    expect(Object.keys(model.first.people[0]!).sort()).toEqual(["_id", "firstName", "lastName"]);
  });

  it("leaves hidden families out of the first generations", () => {
    const view = legacy(3, 3);
    view.data.children[1]!.hidden = true;
    const cut = firstGenerationsCut(view.data, new Map(view.people.map((p) => [p._id, p])));
    expect(cut.data.children.map((child) => child.person?._id)).toEqual([
      view.data.children[0]!.person?._id,
      view.data.children[2]!.person?._id,
    ]);
  });

  it("reads the publication's JSON text as the pages receive it", () => {
    const view = legacy(3, 4);
    const json = JSON.stringify({ ...view, title: "T", description: "", cover: null, heirs: [] });
    expect(publicPageModelOfJson(json, { kind: "list", page: 1 })).toEqual(
      publicPageModel(view, { kind: "list", page: 1 }),
    );
  });
});
