import { describe, expect, it } from "vitest";
import { buildKinship } from "@/lib/tree/placements";
import { node, partners } from "@/lib/tree/test-trees";
import { heirLineChain } from "./heir-line";

const refs = (...ids: string[]) => ids.map((_id) => ({ _id }));
// f (married g) -> a -> c -> e, and f -> b -> d
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

describe("heirLineChain", () => {
  it("runs in order from the founder through each heir, through a generation without an heir", () => {
    const heirs = new Map([
      ["e", 4],
      ["a", 2],
    ]);
    expect(heirLineChain(kin, "f", heirs)).toEqual(["f", "a", "c", "e"]);
  });

  it("starts at the founder the owner picked, and is empty without heirs", () => {
    const founded = buildKinship(tree, "b");
    expect(heirLineChain(founded, "b", new Map([["d", 2]]))).toEqual(["b", "d"]);
    expect(heirLineChain(kin, "f", new Map())).toEqual([]);
  });

  it("jumps to an heir with no blood line to the one before", () => {
    // g married into generation 1: no blood line from the founder to her, nor from her to d
    const heirs = new Map([
      ["g", 1],
      ["d", 3],
    ]);
    expect(heirLineChain(kin, "f", heirs)).toEqual(["f", "g", "d"]);
  });
});
