import { describe, expect, it } from "vitest";
import { heirLine, toggleHeir } from "./heirs";
import { buildKinship } from "./placements";
import { node, partners } from "./test-trees";

const refs = (...ids: string[]) => ids.map((_id) => ({ _id }));
const tree = node(
  "f",
  [
    node("a", [node("c", [node("e", [], { parents: refs("c") })], { parents: refs("a") })], {
      parents: refs("f"),
    }),
    node("b", [node("d", [], { parents: refs("b") })], { parents: refs("f") }),
  ],
  { partners: partners(["MARRIED", "g"]) },
);
const kin = buildKinship(tree);
const generationOf = (id: string) => kin.generation.get(id);

describe("toggleHeir", () => {
  it("marks, moves the mark within a generation, unmarks, and drops Sims no longer placed", () => {
    expect(toggleHeir([], "a", generationOf)).toEqual(["a"]);
    expect(toggleHeir(["a"], "b", generationOf)).toEqual(["b"]);
    expect(toggleHeir(["a", "c"], "d", generationOf)).toEqual(["a", "d"]);
    expect(toggleHeir(["a", "c"], "c", generationOf)).toEqual(["a"]);
    expect(toggleHeir(["gone", "a"], "e", generationOf)).toEqual(["a", "e"]);
    expect(toggleHeir(["a"], "gone", generationOf)).toEqual(["a"]);
  });
});

describe("heirLine", () => {
  it("runs from the founder through every heir to the latest, filling skipped generations", () => {
    const heirs = new Map([
      ["a", 2],
      ["e", 4],
    ]);
    expect(heirLine(kin, "f", heirs).sort()).toEqual(["a", "c", "e", "f"]);
    expect(heirLine(kin, "f", new Map())).toEqual([]);
  });
});
