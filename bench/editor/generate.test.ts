import { describe, expect, it } from "vitest";
import { createPersonBody } from "@/lib/schemas/person";
import { TREE_LIMITS, treeData, type TreeNode } from "@/lib/schemas/tree";
import { generateLegacy, legacyStats } from "./generate";

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
