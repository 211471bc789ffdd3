import { describe, expect, it } from "vitest";
import { createPersonBody } from "@/lib/schemas/person";
import { TREE_LIMITS, treeData, type TreeNode } from "@/lib/schemas/tree";
import { parseGedcom } from "@/lib/gedcom/import";
import { generateGenealogy } from "./gedcom";
import { generateLegacy, generateWideLegacy, legacyStats } from "./generate";

function placements(data: TreeNode): string[] {
  const ids: string[] = [];
  const stack = [data];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.person) ids.push(node.person._id);
    for (const row of node.partners) for (const ref of row.people) ids.push(ref._id);
    stack.push(...node.children);
  }
  return ids;
}

describe("generateLegacy", () => {
  it.each([100, 1_000, 10_000])("places each of %i Sims exactly once", (sims) => {
    const { data, people } = generateLegacy({ sims });
    expect(people).toHaveLength(sims);
    const placed = placements(data);
    expect(placed).toHaveLength(sims);
    expect(new Set(placed)).toEqual(new Set(people.map((p) => p._id)));
  });

  it.each([100, 1_000, 10_000])("gives %i Sims 12 or more generations", (sims) => {
    const stats = legacyStats(generateLegacy({ sims }).data);
    expect(stats.generations).toBeGreaterThanOrEqual(12);
    expect(stats.placements).toBe(sims);
  });

  it("reaches the generations asked for, even with few Sims", () => {
    expect(legacyStats(generateLegacy({ sims: 20, generations: 20 }).data).generations).toBe(20);
    expect(legacyStats(generateLegacy({ sims: 12 }).data).generations).toBe(12);
    expect(() => generateLegacy({ sims: 11 })).toThrow(/needs 12 Sims/);
  });

  it("has partners of every type, adoptions, clones and abductions", () => {
    const stats = legacyStats(generateLegacy({ sims: 1_000 }).data);
    for (const count of Object.values(stats.partnerRows)) expect(count).toBeGreaterThan(0);
    expect(stats.adoptions).toBeGreaterThan(0);
    expect(stats.clones).toBeGreaterThan(0);
    expect(stats.abductions).toBeGreaterThan(0);
  });

  it("only names parents placed in the parent node", () => {
    const { data } = generateLegacy({ sims: 1_000 });
    const stack = [data];
    while (stack.length > 0) {
      const node = stack.pop()!;
      const here = new Set([
        node.person!._id,
        ...node.partners.flatMap((row) => row.people.map((ref) => ref._id)),
      ]);
      for (const child of node.children) {
        for (const ref of [...child.parents, ...child.adoptiveParents]) {
          expect(here.has(ref._id)).toBe(true);
        }
        stack.push(child);
      }
    }
  });

  it("is deterministic for a seed and differs between seeds", () => {
    expect(generateLegacy({ sims: 500, seed: 1 })).toEqual(generateLegacy({ sims: 500, seed: 1 }));
    expect(generateLegacy({ sims: 500, seed: 1 }).data).not.toEqual(
      generateLegacy({ sims: 500, seed: 2 }).data,
    );
  });

  it("produces data the API accepts", () => {
    const { data, people, treeId } = generateLegacy({
      sims: 10_000,
      treeId: "tree42",
      personId: (i) => `p${i}`,
    });
    const parsed = treeData.safeParse(data);
    expect(parsed.success).toBe(true);
    expect(legacyStats(data).nodes).toBeLessThanOrEqual(TREE_LIMITS.maxNodes);
    expect(people[0]!._id).toBe("p0");
    for (const person of people.slice(0, 200)) {
      expect(person.tree).toBe(treeId);
      expect(createPersonBody.safeParse(person).success).toBe(true);
    }
    expect(people.some((person) => person.links.length > 0)).toBe(true);
  });
});

describe("generateWideLegacy", () => {
  it("places 10,000 Sims in 3-4 children per node, every other child married", () => {
    const { data, people } = generateWideLegacy({ sims: 10_000 });
    expect(people).toHaveLength(10_000);
    expect(new Set(placements(data))).toEqual(new Set(people.map((p) => p._id)));
    const stats = legacyStats(data);
    expect(stats.generations).toBeGreaterThanOrEqual(8);
    expect(stats.generations).toBeLessThanOrEqual(10);
    // Every node of the full generations has 3 or 4 children; the first of them is married.
    const fullDepth = stats.generations - 2;
    const visit = (node: TreeNode, depth: number) => {
      if (depth < fullDepth) {
        expect(node.children.length).toBeGreaterThanOrEqual(3);
        expect(node.children.length).toBeLessThanOrEqual(4);
        expect(node.children[0]!.partners[0]?.type).toBe("MARRIED");
        expect(node.children[1]!.partners).toEqual([]);
      }
      for (const child of node.children) visit(child, depth + 1);
    };
    visit(data, 1);
    expect(treeData.safeParse(data).success).toBe(true);
  });
});

describe("generateGenealogy", () => {
  it("writes a GEDCOM that imports as hundreds of unrelated, hidden branches", () => {
    const { text, people } = generateGenealogy({ people: 3_000 });
    expect(people).toBeGreaterThanOrEqual(3_000);
    const imported = parseGedcom(new TextEncoder().encode(text));
    expect(imported.people).toHaveLength(people);
    const hidden = imported.data.children.filter((child) => child.hidden).length;
    expect(hidden).toBeGreaterThan(100);
    expect(legacyStats(imported.data).adoptions).toBeGreaterThan(0);
  });
});
