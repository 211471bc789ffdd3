import { describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import { buildKinship } from "@/lib/tree/placements";
import { node, person } from "@/lib/tree/test-trees";
import { founderOf, nextHeir } from "./next-heir";

const refs = (...ids: string[]) => ids.map((_id) => ({ _id }));
const gendered = (id: string, gender: string): Person => ({
  ...person(id, id.toUpperCase()),
  custom: [{ title: "Gender", value: gender }],
});
// f -> a (girl), b (boy, adopted), c (boy); a -> d
const tree = node("f", [
  node("a", [node("d", [], { parents: refs("a") })], { parents: refs("f") }),
  node("b", [], { adoptiveParents: refs("f") }),
  node("c", [], { parents: refs("f") }),
]);
const people = new Map(
  [
    gendered("f", "Female"),
    gendered("a", "Female"),
    gendered("b", "Male"),
    gendered("c", "Male"),
    gendered("d", "Male"),
  ].map((p) => [p._id, p]),
);

describe("nextHeir", () => {
  const kin = buildKinship(tree);

  it("opens the founder's children before any heir, and asks nothing without laws", () => {
    const open = nextHeir(kin, null, [], people, null)!;
    expect(open).toMatchObject({ current: "f", generation: 2, result: null });
    expect(open.candidates.map((c) => [c.id, c.adopted])).toEqual([
      ["a", false],
      ["b", true],
      ["c", false],
    ]);
  });

  it("follows the latest heir, and answers by the laws", () => {
    const laws = { gender: "patriarchy", bloodline: "traditional", heir: "firstBorn" } as const;
    const first = nextHeir(kin, null, [], people, laws)!;
    expect(first.result?.suggested).toBe("c");
    const next = nextHeir(kin, null, ["a"], people, laws)!;
    expect(next).toMatchObject({ current: "a", generation: 3 });
    expect(next.result?.suggested).toBe("d");
  });

  it("Strict Equality alternates from the founder's gender before any heir", () => {
    const laws = { gender: "strictEquality", bloodline: "modern", heir: "firstBorn" } as const;
    // the founder is a woman: a boy follows her
    expect(nextHeir(kin, null, [], people, laws)!.result?.suggested).toBe("b");
  });

  it("counts from a founder the owner picked, and falls back to the root's Sim", () => {
    const picked = buildKinship(tree, "a");
    expect(founderOf(picked, "a")).toBe("a");
    expect(founderOf(picked, "nobody")).toBe("f");
    expect(nextHeir(picked, "a", [], people, null)).toMatchObject({ current: "a", generation: 2 });
  });

  it("of two heirs stored in one generation, follows the later in the list", () => {
    expect(nextHeir(kin, null, ["a", "c"], people, null)!.current).toBe("c");
    expect(nextHeir(kin, null, ["c", "a"], people, null)!.current).toBe("a");
  });
});
