import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PartnerType, TreeNode } from "@/lib/schemas/tree";
import { computeGenerations } from "./generations";
import { buildKinship } from "./placements";
import { node, partners } from "./test-trees";

const refs = (...ids: string[]) => ids.map((_id) => ({ _id }));
const generationsOf = (tree: TreeNode, founder?: string) =>
  Object.fromEntries(buildKinship(tree, founder).generation);

describe("the generation rule", () => {
  it("counts the founder as 1 and each child one after their parents", () => {
    const tree = node("f", [node("a", [node("c")]), node("b")], {
      partners: partners(["MARRIED", "g"]),
    });
    expect(generationsOf(tree)).toEqual({ f: 1, g: 1, a: 2, b: 2, c: 3 });
  });

  it("gives a Sim who married in their spouse's generation, and the in-law's parents the one before", () => {
    // Dennis Kim's shape (issue 33): Alice's father hangs in a hidden node under the founder, and
    // Alice and Eric are drawn a second time under him.
    const tree = node("vivian", [
      node("eric", [node("olivia", [], { parents: refs("alice", "eric") })], {
        parents: refs("vivian"),
        partners: partners(["MARRIED", "alice"]),
      }),
      node(
        "dennis",
        [node("alice", [], { parents: refs("dennis"), partners: partners(["MARRIED", "eric"]) })],
        { hidden: true },
      ),
    ]);
    const kin = buildKinship(tree);
    expect(kin.placements.get("alice")).toHaveLength(2);
    expect(Object.fromEntries(kin.generation)).toEqual({
      vivian: 1,
      eric: 2,
      alice: 2,
      dennis: 1,
      olivia: 3,
    });
    expect(kin.generations).toBe(3);
  });

  it("counts from a founder the owner picks, their ancestors before 1", () => {
    const tree = node("f", [node("a", [node("c")])]);
    expect(generationsOf(tree, "a")).toEqual({ f: 0, a: 1, c: 2 });
    expect(generationsOf(tree, "nobody")).toEqual({ f: 1, a: 2, c: 3 });
  });

  it("puts the child of an uncle and his niece after both", () => {
    // g's children u and s; s's daughter n marries her uncle u; their child k
    const tree = node("g", [
      node("u", [node("k", [], { parents: refs("u", "n") })], {
        partners: partners(["MARRIED", "n"]),
      }),
      node("s", [node("n", [], { partners: partners(["MARRIED", "u"]) })]),
    ]);
    const g = generationsOf(tree);
    expect(g.k).toBeGreaterThan(g.u!);
    expect(g.k).toBeGreaterThan(g.n!);
    expect(g.u).toBe(g.n); // they share, the uncle moved to his niece's generation
    expect(g.n).toBeGreaterThan(g.s!);
  });

  it("counts apart a Sim partnered with their own grandchild, so every parent link still holds", () => {
    const tree = node("a", [node("b", [node("c", [], { partners: partners(["PARTNER", "a"]) })])], {
      partners: partners(["PARTNER", "c"]),
    });
    expect(generationsOf(tree)).toEqual({ a: 1, b: 2, c: 3 });
  });

  it("ends on a Sim who is their own ancestor (bad data), with a number for everyone", () => {
    const tree = node("a", [node("b", [node("c", [], { parents: refs("b") })])], {
      parents: refs("c"),
    });
    const g = generationsOf(tree);
    expect(Object.keys(g).sort()).toEqual(["a", "b", "c"]);
    for (const value of Object.values(g)) expect(Number.isInteger(value)).toBe(true);
    expect(g.a).toBe(1);
  });

  it("starts a family with no link to the founder at its first Sim's row", () => {
    const tree = node("f", [node("a"), node("x", [node("y")], { hidden: true })]);
    expect(generationsOf(tree)).toEqual({ f: 1, a: 2, x: 2, y: 3 });
  });

  it("counts once per structure: the same tree answers the same count, a new tree counts again", () => {
    const tree = node("f", [node("a")]);
    const kin = buildKinship(tree);
    expect(buildKinship(tree)).toBe(kin);
    expect(buildKinship(structuredClone(tree))).not.toBe(kin);
    expect(buildKinship(tree, "a")).not.toBe(kin);
    expect(buildKinship(tree, "a").generation.get("a")).toBe(1);
  });

  it("is empty for an empty tree", () => {
    const none = computeGenerations(buildKinship(node(null)));
    expect([none.generation.size, none.count, none.founder]).toEqual([0, 0, null]);
  });

  it("counts a line of 10,000 generations without recursion", () => {
    let deep = node("s9999");
    for (let i = 9998; i >= 0; i -= 1) deep = node(`s${i}`, [deep]);
    const kin = buildKinship(deep);
    expect(kin.generation.get("s9999")).toBe(10_000);
    expect(kin.generations).toBe(10_000);
  });
});

// Random trees. People are numbered; every parent link goes from a lower number to a higher one,
// so no Sim is their own ancestor and "the child comes later" can always hold. Sims are drawn
// from a small pool, so many stand in several places; partners are any two Sims (cousins, in-laws,
// across generations).
interface Shape {
  nodes: {
    person: number;
    partners: [PartnerType, number][];
    parents: number[];
    hidden: boolean;
  }[];
  parentOf: number[]; // node i > 0 hangs under node parentOf[i] < i
}

const PARTNER: PartnerType[] = ["MARRIED", "PARTNER", "EX_PARTNER", "ABDUCTION"];

const shapes = (layered: boolean) =>
  fc
    .record({ people: fc.integer({ min: 2, max: 14 }), size: fc.integer({ min: 1, max: 40 }) })
    .chain(({ people, size }) =>
      fc.record({
        layer: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: people, maxLength: people }),
        raw: fc.array(
          fc.record({
            person: fc.nat(people - 1),
            partners: fc.array(fc.tuple(fc.constantFrom(...PARTNER), fc.nat(people - 1)), {
              maxLength: 3,
            }),
            parents: fc.array(fc.nat(people - 1), { maxLength: 2 }),
            hidden: fc.boolean(),
            under: fc.nat(),
          }),
          { minLength: size, maxLength: size },
        ),
      }),
    )
    .map(({ layer, raw }): Shape => {
      // layered: a person's layer is their generation by construction; partners in one layer
      const rank = (p: number) => (layered ? layer[p]! : p);
      const nodes = raw.map((n) => ({
        person: n.person,
        partners: n.partners.filter(
          ([, q]) => q !== n.person && (!layered || rank(q) === rank(n.person)),
        ),
        parents: n.parents.filter((q) => rank(q) < rank(n.person)),
        hidden: n.hidden,
      }));
      const parentOf = raw.map((n, i) => (i === 0 ? -1 : n.under % i));
      // a node with no parents of its own is its parent node's Sim's child: keep that link downward
      for (let i = 1; i < nodes.length; i += 1) {
        const up = nodes[parentOf[i]!]!;
        if (nodes[i]!.parents.length === 0 && rank(up.person) >= rank(nodes[i]!.person)) {
          nodes[i]!.hidden = true;
        }
      }
      return { nodes, parentOf };
    });

function treeOf(shape: Shape): TreeNode {
  const built = shape.nodes.map((n) =>
    node(`p${n.person}`, [], {
      partners: n.partners.map(([type, q]) => ({ type, people: [{ _id: `p${q}` }] })),
      parents: refs(...n.parents.map((q) => `p${q}`)),
      hidden: n.hidden,
    }),
  );
  for (let i = 1; i < built.length; i += 1) built[shape.parentOf[i]!]!.children.push(built[i]!);
  return built[0]!;
}

describe("the generation rule on random trees", () => {
  it("holds every parent link to 'the child comes later', whoever is placed twice or marries whom", () => {
    fc.assert(
      fc.property(shapes(false), (shape) => {
        const kin = buildKinship(treeOf(shape));
        for (const [child, parents] of kin.parents) {
          for (const parent of parents.keys()) {
            const c = kin.generation.get(child);
            const p = kin.generation.get(parent);
            if (c !== undefined && p !== undefined) expect(c).toBeGreaterThan(p);
          }
        }
        expect(kin.generation.get(`p${shape.nodes[0]!.person}`)).toBe(1);
      }),
      { numRuns: 400 },
    );
  });

  it("gives partners one generation where partners marry within their generation (cousins included)", () => {
    fc.assert(
      fc.property(shapes(true), (shape) => {
        const kin = buildKinship(treeOf(shape));
        for (const [a, list] of kin.partners) {
          for (const b of list.keys()) {
            if (kin.generation.has(a) && kin.generation.has(b)) {
              expect(kin.generation.get(a)).toBe(kin.generation.get(b));
            }
          }
        }
        for (const [child, parents] of kin.parents) {
          for (const parent of parents.keys()) {
            if (!kin.generation.has(parent)) continue; // named as a parent, drawn nowhere
            expect(kin.generation.get(child)).toBeGreaterThan(kin.generation.get(parent)!);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it("counts any placed Sim the owner picks as the founder as 1, and is deterministic", () => {
    fc.assert(
      fc.property(shapes(false), fc.nat(), (shape, pick) => {
        const tree = treeOf(shape);
        const placed = [...buildKinship(tree).placements.keys()];
        const founder = placed[pick % placed.length]!;
        const first = buildKinship(tree, founder);
        expect(first.generation.get(founder)).toBe(1);
        const again = buildKinship(structuredClone(tree), founder);
        expect([...again.generation]).toEqual([...first.generation]);
      }),
      { numRuns: 200 },
    );
  });

  it("ends with a whole number for every placed Sim, even where parents go round in rings", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(9), fc.array(fc.nat(9), { maxLength: 3 })), {
          minLength: 1,
          maxLength: 20,
        }),
        (rows) => {
          const tree = node(
            "p0",
            rows.map(([p, parents]) =>
              node(`p${p}`, [], { parents: refs(...parents.map((q) => `p${q}`)) }),
            ),
          );
          const kin = buildKinship(tree);
          for (const id of kin.placements.keys()) {
            expect(Number.isInteger(kin.generation.get(id))).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("buildKinship's memo (issue 33: the editor counts from a picked founder twice a change)", () => {
  it("answers the same count for the same structure and founder, and keeps the root's", () => {
    const tree = node("f", [node("a", [node("c")]), node("b")]);
    const root = buildKinship(tree);
    const picked = buildKinship(tree, "a");
    expect(buildKinship(tree, "a")).toBe(picked);
    expect(picked).not.toBe(root);
    expect(picked.generation.get("a")).toBe(1);
    expect(buildKinship(tree)).toBe(root);
    // another founder replaces the picked one, never the root's
    const other = buildKinship(tree, "b");
    expect(other.generation.get("b")).toBe(1);
    expect(buildKinship(tree)).toBe(root);
    expect(buildKinship(tree, "a")).not.toBe(picked);
  });
});
