import { describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { PartnerType, TreeNode } from "@/lib/schemas/tree";
import { buildKinship, otherPlacements } from "./placements";
import {
  compareRelations,
  describeRelationship,
  relationCandidates,
  type RelationKey,
} from "./relationship";
import { node, partners, person } from "./test-trees";

const refs = (...ids: string[]) => ids.map((_id) => ({ _id }));

/** A legacy covering every kind of relation the module names. */
const legacy: TreeNode = node(
  "F",
  [
    node(
      "A1",
      [
        node(
          "B1",
          [
            node(
              "C1",
              [
                node("D1", [node("E1", [], { parents: refs("D1", "D1p") })], {
                  parents: refs("C1", "C1p"),
                  partners: partners(["PARTNER", "D1p"]),
                }),
              ],
              { parents: refs("B1", "B1p"), partners: partners(["MARRIED", "C1p"]) },
            ),
          ],
          { parents: refs("A1", "A1p"), partners: partners(["MARRIED", "B1p"]) },
        ),
        node("B2", [node("M", [], { parents: refs("B2", "B5") })], {
          parents: refs("A1", "A1p"),
          partners: partners(["MARRIED", "B5"]),
        }),
      ],
      { parents: refs("F", "G"), partners: partners(["MARRIED", "A1p"]) },
    ),
    node(
      "A2",
      [
        node(
          "B3",
          [
            node(
              "C3",
              [
                node(
                  "D3",
                  [
                    node("E3", [node("F3", [], { parents: refs("E3", "E3p") })], {
                      parents: refs("D3", "D3p"),
                      partners: partners(["MARRIED", "E3p"]),
                    }),
                  ],
                  { parents: refs("C3", "C3p"), partners: partners(["MARRIED", "D3p"]) },
                ),
              ],
              { parents: refs("B3", "B3p"), partners: partners(["MARRIED", "C3p"]) },
            ),
            node("Ab", [], { parents: refs("B3"), parentType: "ABDUCTION" }),
          ],
          { parents: refs("A2", "A2p"), partners: partners(["MARRIED", "B3p"]) },
        ),
        node("B5", [], { parents: refs("A2", "A2p") }),
      ],
      { parents: refs("F", "G"), partners: partners(["MARRIED", "A2p"]) },
    ),
    node(
      "A3",
      [
        node("B4", [node("Cl", [], { parents: refs("B4"), parentType: "CLONE" })], {
          parents: refs("A3", "A3p"),
        }),
        node("Ad", [], { adoptiveParents: refs("A3", "A3p") }),
      ],
      { parents: refs("F", "G"), partners: partners(["MARRIED", "A3p"]) },
    ),
    node("H", [node("HC", [], { parents: refs("H", "Hp") })], {
      parents: refs("F", "X"),
      partners: partners(["PARTNER", "Hp"]),
    }),
    node("K", [], { parents: refs("G", "GP") }),
    node("U", [], { hidden: true }),
  ],
  { partners: partners(["MARRIED", "G"], ["EX_PARTNER", "X"]) },
);

const GENDERS: Record<string, string> = {
  G: "Female",
  A2: "Male",
  A3: "Female",
  B1: "female",
  C1: "Male",
  B1p: "Male",
};

function peopleOf(tree: TreeNode): Map<string, Person> {
  const ids = new Set<string>();
  const stack = [tree];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.person) ids.add(n.person._id);
    for (const e of n.partners) for (const r of e.people) ids.add(r._id);
    for (const r of [...n.parents, ...n.adoptiveParents]) ids.add(r._id);
    stack.push(...n.children);
  }
  return new Map(
    [...ids].map((id) => {
      const p = person(id);
      if (GENDERS[id]) p.custom = [{ title: "Gender", value: GENDERS[id] }];
      return [id, p];
    }),
  );
}

// ---- the independent computation: every simple path of the tree's graph, classified by shape ----

type Step =
  | { to: string; dir: "up" | "down"; kind: string }
  | { to: string; dir: "partner"; types: PartnerType[] };

/** The graph read straight from the nodes, recursively (test trees are small). */
function graphOf(tree: TreeNode): Map<string, Step[]> {
  const edges = new Map<string, Step[]>();
  const add = (from: string, step: Step) => {
    if (from === step.to) return;
    const list = edges.get(from) ?? [];
    const same = list.find((s) => s.to === step.to && s.dir === step.dir);
    if (same && same.dir === "partner" && step.dir === "partner") {
      for (const t of step.types) if (!same.types.includes(t)) same.types.push(t);
    } else if (!same) list.push(step);
    edges.set(from, list);
  };
  const parentLink = (child: string, parent: string, kind: string) => {
    add(child, { to: parent, dir: "up", kind });
    add(parent, { to: child, dir: "down", kind });
  };
  const walk = (n: TreeNode, parentSim: string | null) => {
    const self = n.person?._id;
    if (self) {
      const conception =
        n.parentType === "CLONE" ? "clone" : n.parentType === "ABDUCTION" ? "abduction" : "birth";
      for (const r of n.parents) parentLink(self, r._id, conception);
      for (const r of n.adoptiveParents)
        if (!n.parents.some((p) => p._id === r._id)) parentLink(self, r._id, "adoptive");
      if (!n.parents.length && !n.adoptiveParents.length && parentSim && !n.hidden)
        parentLink(self, parentSim, conception);
      for (const e of n.partners)
        for (const r of e.people) {
          add(self, { to: r._id, dir: "partner", types: [e.type] });
          add(r._id, { to: self, dir: "partner", types: [e.type] });
        }
    }
    for (const c of n.children) walk(c, self ?? null);
  };
  walk(tree, null);
  return edges;
}

const ACTIVE = (types: PartnerType[]) => types.some((t) => t !== "EX_PARTNER");

function bruteRelation(graph: Map<string, Step[]>, a: string, b: string): RelationKey | null {
  if (a === b) return { kind: "self" };
  const found: { key: RelationKey; length: number }[] = [];
  const allParents = (id: string) =>
    (graph.get(id) ?? []).filter((s) => s.dir === "up").map((s) => s.to);
  const classify = (path: string[], steps: Step[]): RelationKey | null => {
    const dirs = steps.map((s) => s.dir).join(",");
    const partnerStep = steps.find((s) => s.dir === "partner");
    if (dirs === "partner" && partnerStep?.dir === "partner") {
      const order: PartnerType[] = ["MARRIED", "PARTNER", "ABDUCTION", "EX_PARTNER"];
      return { kind: "partner", partnerType: order.find((t) => partnerStep.types.includes(t))! };
    }
    if (partnerStep) {
      if (partnerStep.dir !== "partner" || !ACTIVE(partnerStep.types)) return null;
      const affinal: Record<string, Extract<RelationKey, { kind: "affinal" }>["relation"]> = {
        "down,partner": "parent-in-law",
        "partner,up": "child-in-law",
        "up,partner": "step-child",
        "partner,down": "step-parent",
        "up,down,partner": "sibling-in-law",
        "partner,up,down": "sibling-in-law",
        "up,partner,down": "step-sibling",
      };
      const relation = affinal[dirs];
      return relation ? { kind: "affinal", relation } : null;
    }
    const up = steps.findIndex((s) => s.dir === "down");
    const ups = up < 0 ? steps.length : up;
    if (steps.slice(ups).some((s) => s.dir !== "down")) return null;
    const downs = steps.length - ups;
    let half = false;
    if (ups > 0 && downs > 0) {
      const top = path[ups]!;
      const pa = allParents(path[ups - 1]!);
      const pb = allParents(path[ups + 1]!);
      const shared = pa.filter((p) => pb.includes(p));
      half = shared.length <= 1 && new Set([...pa, ...pb, top]).size > 1;
    }
    const kinds = steps.map((s) => (s.dir === "partner" ? "" : s.kind));
    const one = steps.length === 1 ? kinds[0] : undefined;
    return {
      kind: "blood",
      up: ups,
      down: downs,
      half,
      adoptive: kinds.includes("adoptive"),
      conception: one === "clone" || one === "abduction" ? one : null,
    };
  };
  const path = [a];
  const steps: Step[] = [];
  const visit = (at: string) => {
    if (at === b) {
      const key = classify(path, steps);
      if (key) found.push({ key, length: steps.length });
      return;
    }
    if (steps.length >= 11) return;
    for (const step of graph.get(at) ?? []) {
      if (path.includes(step.to)) continue;
      // no shape the module names goes up after going down, or has a partner in a long chain
      if (step.dir === "up" && steps.some((s) => s.dir === "down")) continue;
      const partnered = step.dir === "partner" || steps.some((s) => s.dir === "partner");
      if (step.dir === "partner" && steps.some((s) => s.dir === "partner")) continue;
      if (partnered && steps.length >= 3) continue;
      path.push(step.to);
      steps.push(step);
      visit(step.to);
      path.pop();
      steps.pop();
    }
  };
  visit(a);
  if (found.length === 0) return null;
  const shortest = Math.min(...found.map((f) => f.length));
  const best = found.filter((f) => f.length === shortest).map((f) => f.key);
  // several paths of one shape: full when any is full, biological when any is
  const merged = best.map((key) => {
    if (key.kind !== "blood") return key;
    const same = best.filter(
      (k): k is Extract<RelationKey, { kind: "blood" }> =>
        k.kind === "blood" && k.up === key.up && k.down === key.down,
    );
    return { ...key, half: same.every((k) => k.half), adoptive: same.every((k) => k.adoptive) };
  });
  return merged.sort(compareRelations)[0]!;
}

// ---- the table ----

const CASES: [string, string, string][] = [
  ["A1", "F", "A1 is F's child."],
  ["F", "A1", "F is A1's parent."],
  ["F", "B1", "F is B1's grandparent."],
  ["F", "C1", "F is C1's great-grandparent."],
  ["F", "D1", "F is D1's great-great-grandparent."],
  ["F", "E1", "F is E1's great-great-great-grandparent."],
  ["F", "F3", "F is F3's 4th great-grandparent."],
  ["E1", "F", "E1 is F's great-great-great-grandchild."],
  ["G", "B1", "G is B1's grandmother."],
  ["A1", "A2", "A1 is A2's sibling."],
  ["A2", "A1", "A2 is A1's brother."],
  ["H", "A1", "H is A1's half-sibling."],
  ["K", "A1", "K is A1's half-sibling."],
  ["Ab", "C3", "Ab is C3's half-sibling."],
  ["A1", "B3", "A1 is B3's parent's sibling."],
  ["A2", "B1", "A2 is B1's uncle."],
  ["A2", "C1", "A2 is C1's great-uncle."],
  ["A2", "D1", "A2 is D1's great-great-uncle."],
  ["A1", "C3", "A1 is C3's grandparent's sibling."],
  ["B3", "A1", "B3 is A1's sibling's child."],
  ["C3", "A1", "C3 is A1's sibling's grandchild."],
  ["B1", "A2", "B1 is A2's niece."],
  ["C1", "A2", "C1 is A2's great-nephew."],
  ["H", "B1", "H is B1's parent's half-sibling."],
  ["B1", "H", "B1 is H's half-niece."],
  ["B1", "B3", "B1 is B3's first cousin."],
  ["HC", "B1", "HC is B1's half first cousin."],
  ["B1", "C3", "B1 is C3's first cousin once removed."],
  ["C3", "B1", "C3 is B1's first cousin once removed."],
  ["B1", "D3", "B1 is D3's first cousin twice removed."],
  ["C1", "C3", "C1 is C3's second cousin."],
  ["C1", "D3", "C1 is D3's second cousin once removed."],
  ["D1", "D3", "D1 is D3's third cousin."],
  ["D1", "F3", "D1 is F3's third cousin twice removed."],
  ["F3", "D1", "F3 is D1's third cousin twice removed."],
  ["E1", "E3", "E1 is E3's fourth cousin."],
  ["G", "F", "G is F's wife."],
  ["F", "G", "F is G's spouse."],
  ["X", "F", "X is F's ex-partner."],
  ["Hp", "H", "Hp is H's partner."],
  ["A1p", "F", "A1p is F's child-in-law."],
  ["F", "A1p", "F is A1p's parent-in-law."],
  ["G", "A1p", "G is A1p's mother-in-law."],
  ["A1p", "A2", "A1p is A2's sibling-in-law."],
  ["A2", "A1p", "A2 is A1p's brother-in-law."],
  ["B1p", "B2", "B1p is B2's brother-in-law."],
  ["G", "H", "G is H's stepmother."],
  ["H", "G", "H is G's step-child."],
  ["K", "H", "K is H's step-sibling."],
  ["A3", "Ad", "A3 is Ad's adoptive mother."],
  ["A3p", "Ad", "A3p is Ad's adoptive parent."],
  ["Ad", "A3", "Ad is A3's adoptive child."],
  ["F", "Ad", "F is Ad's adoptive grandparent."],
  ["B4", "Ad", "B4 is Ad's adoptive sibling."],
  ["Cl", "B4", "Cl is B4's clone."],
  ["B4", "Cl", "B4 is Cl's original (the Sim they were cloned from)."],
  ["A3", "Cl", "A3 is Cl's grandmother."],
  ["B3", "Ab", "B3 is Ab's parent (alien abduction)."],
  ["Ab", "B3", "Ab is B3's child (alien abduction)."],
  ["B2", "B5", "B2 is B5's spouse, and also B5's first cousin."],
  ["B5", "B2", "B5 is B2's spouse, and also B2's first cousin."],
  ["M", "B5", "M is B5's child, and also B5's first cousin once removed."],
  ["A2", "M", "A2 is M's grandfather, and also M's great-uncle."],
  ["X", "A1", "X is not related to A1."],
  ["U", "F", "U is not related to F."],
  ["F", "F", "F and F are the same Sim."],
];

describe("describeRelationship", () => {
  const kin = buildKinship(legacy);
  const people = peopleOf(legacy);
  const graph = graphOf(legacy);

  it("has a table of at least 40 cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES)("%s to %s: %s", (a, b, sentence) => {
    const answer = describeRelationship(kin, people, a, b);
    expect(answer.sentence).toBe(sentence);
    // the independent computation finds the same closest relation
    expect(answer.key).toEqual(bruteRelation(graph, a, b));
  });

  it("walks the path between the two Sims, each step a parent, child or partner link", () => {
    const answer = describeRelationship(kin, people, "D1", "F3");
    expect(answer.path[0]).toBe("D1");
    expect(answer.path.at(-1)).toBe("F3");
    expect(answer.path).toHaveLength(4 + 6 + 1);
    expect(answer.path).toContain("F");
    expect(describeRelationship(kin, people, "A1p", "A2").path).toEqual(["A1p", "A1", "F", "A2"]);
  });

  it("uses gender words only for a Gender row it understands", () => {
    const p = new Map(people);
    p.set("A2", { ...p.get("A2")!, custom: [{ title: "Gender", value: "Nonbinary" }] });
    expect(describeRelationship(kin, p, "A2", "B1").sentence).toBe("A2 is B1's parent's sibling.");
  });
});

describe("relations on random legacies agree with the brute-force search", () => {
  /** A deterministic pseudo-random legacy: couples, half-siblings, adoptions, partners in two places. */
  function randomLegacy(seed: number): TreeNode {
    let state = seed;
    const rand = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    let next = 0;
    const id = () => `p${(next += 1)}`;
    const sims: string[] = [];
    const grow = (depth: number, parents: string[]): TreeNode => {
      const self = id();
      sims.push(self);
      const mates = rand() < 0.7 ? [id()] : [];
      if (rand() < 0.25 && sims.length > 3) mates.push(sims[Math.floor(rand() * sims.length)]!);
      const children: TreeNode[] = [];
      if (depth < 5) {
        const count = Math.floor(rand() * 3);
        for (let i = 0; i < count; i += 1) {
          const other =
            mates.length && rand() < 0.8 ? [mates[Math.floor(rand() * mates.length)]!] : [];
          const child = grow(depth + 1, [self, ...other]);
          if (rand() < 0.15) {
            child.adoptiveParents = child.parents;
            child.parents = [];
          }
          children.push(child);
        }
      }
      return node(self, children, {
        parents: refs(...parents),
        partners: mates.map((m, i) => ({
          type: (["MARRIED", "PARTNER", "EX_PARTNER"] as const)[i % 3]!,
          people: refs(m),
        })),
      });
    };
    return grow(0, []);
  }

  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])("seed %i", (seed) => {
    const tree = randomLegacy(seed);
    const kin = buildKinship(tree);
    const graph = graphOf(tree);
    const ids = [...kin.placements.keys()].slice(0, 24);
    let compared = 0;
    for (const a of ids) {
      for (const b of ids) {
        const first = relationCandidates(kin, a, b)[0]?.key ?? null;
        expect([a, b, first]).toEqual([a, b, bruteRelation(graph, a, b)]);
        compared += 1;
      }
    }
    expect(compared).toBe(ids.length ** 2);
  });
});

describe("placements", () => {
  it("lists every node a Sim is drawn in, breadth first, and the next ones after a given node", () => {
    const kin = buildKinship(legacy);
    expect(kin.placements.get("B5")!.map((p) => p.nodeKey)).toEqual(["1.1", "0.1"].sort());
    expect(otherPlacements(kin, "B5", "0.1").map((p) => p.nodeKey)).toEqual(["1.1"]);
    expect(kin.generation.get("F")).toBe(1);
    expect(kin.generation.get("B5")).toBe(3);
    expect(kin.generation.get("F3")).toBe(7);
    expect(kin.generations).toBe(7);
  });
});
