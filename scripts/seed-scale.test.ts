import { describe, expect, it } from "vitest";
import { username } from "@/lib/schemas/account";
import { treeData, type TreeNode } from "@/lib/schemas/tree";
import {
  bucketTreesPerUser,
  drawOwner,
  drawTreeSize,
  isPublished,
  plannedSizes,
  summarizeSizes,
} from "./lib/seed/distribution";
import { seedUsername } from "./lib/seed/meta";
import { createRandom, randomUuid } from "./lib/seed/random";
import { generateSeedTree, generateTreeWithNodes, generationsFor } from "./lib/seed/tree";

function placements(data: TreeNode): string[] {
  const ids: string[] = [];
  const stack = [data];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.person) ids.push(node.person._id);
    for (const row of node.partners) for (const ref of row.people) ids.push(ref._id);
    stack.push(...node.children);
  }
  return ids;
}

function references(data: TreeNode): string[] {
  const ids: string[] = [];
  const stack = [data];
  for (let node = stack.pop(); node; node = stack.pop()) {
    for (const ref of [...node.parents, ...node.adoptiveParents]) ids.push(ref._id);
    stack.push(...node.children);
  }
  return ids;
}

function depth(data: TreeNode): number {
  let deepest = 0;
  const stack: [TreeNode, number][] = [[data, 1]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    deepest = Math.max(deepest, item[1]);
    for (const child of item[0].children) stack.push([child, item[1] + 1]);
  }
  return deepest;
}

describe("tree sizes", () => {
  const sizes = plannedSizes(50_000, 1);
  const summary = summarizeSizes(sizes);

  it("are long-tailed: most trees 5-50 Sims, a few hundred to thousands", () => {
    expect(summary.min).toBeGreaterThanOrEqual(5);
    expect(summary.max).toBeLessThanOrEqual(10_000);
    expect(summary.p50).toBeGreaterThanOrEqual(10);
    expect(summary.p50).toBeLessThanOrEqual(20);
    expect(sizes.filter((s) => s <= 50).length / sizes.length).toBeGreaterThan(0.9);
    expect(sizes.filter((s) => s >= 300).length).toBeGreaterThan(50);
    expect(sizes.filter((s) => s >= 1_000).length).toBeGreaterThan(5);
    expect(summary.mean).toBeGreaterThan(summary.p50);
  });

  it("are the same for the same seed and differ for another", () => {
    expect(plannedSizes(1_000, 7)).toEqual(plannedSizes(1_000, 7));
    expect(plannedSizes(1_000, 8)).not.toEqual(plannedSizes(1_000, 7));
  });

  it("are summarized into buckets that add up", () => {
    const small = summarizeSizes([5, 9, 10, 49, 50, 300, 1_000, 4_000]);
    expect(small.buckets).toEqual({
      "5-9": 2,
      "10-19": 1,
      "20-49": 1,
      "50-99": 1,
      "100-299": 0,
      "300-999": 1,
      "1000-2999": 1,
      "3000+": 1,
    });
    expect(small.total).toBe(5 + 9 + 10 + 49 + 50 + 300 + 1_000 + 4_000);
    expect(small.p50).toBe(50);
  });

  it("stay within bounds whatever the draw", () => {
    const rand = createRandom(3);
    for (let i = 0; i < 10_000; i += 1) {
      const size = drawTreeSize(rand);
      expect(Number.isInteger(size) && size >= 5 && size <= 10_000).toBe(true);
    }
  });
});

describe("bucketTreesPerUser", () => {
  it("summarizes a full-scale count array (220,000 users) without overflowing the stack", () => {
    // The full-scale seed died here: Math.max(0, ...counts) over 220,000 arguments.
    const counts = Array.from({ length: 220_000 }, (_, i) => (i * 7919) % 13);
    counts[123_456] = 75;
    const buckets = bucketTreesPerUser(counts);
    expect(buckets.max).toBe(75);
    const users = ["0", "1", "2-3", "4-9", "10-49", "50+"].reduce((n, k) => n + (buckets[k] ?? 0), 0);
    expect(users).toBe(220_000);
    expect(buckets["50+"]).toBe(1);
  });

  it("gives max 0 for no users", () => {
    expect(bucketTreesPerUser([]).max).toBe(0);
  });
});

describe("owners and publication", () => {
  it("publishes 14% of trees, evenly: 70,000 of 500,000 and 7,000 of 50,000", () => {
    const count = (n: number) =>
      Array.from({ length: n }, (_, i) => isPublished(i)).filter(Boolean);
    expect(count(500_000)).toHaveLength(70_000);
    expect(count(50_000)).toHaveLength(7_000);
    expect(count(100)).toHaveLength(14);
  });

  it("gives some users many trees and leaves some with none", () => {
    const rand = createRandom(5);
    const users = 2_200;
    const perUser = new Array<number>(users).fill(0);
    for (let i = 0; i < 5_000; i += 1) {
      const owner = drawOwner(rand, users);
      expect(owner).toBeGreaterThanOrEqual(0);
      expect(owner).toBeLessThan(users);
      perUser[owner]! += 1;
    }
    expect(Math.max(...perUser)).toBeGreaterThan(10);
    expect(perUser.filter((n) => n === 0).length).toBeGreaterThan(users * 0.05);
  });

  it("names users validly and uniquely at full scale (220,000)", () => {
    const names = Array.from({ length: 220_000 }, (_, i) => seedUsername(i));
    expect(new Set(names).size).toBe(names.length);
    for (const name of [names[0]!, names[219_999]!, ...names.filter((_, i) => i % 9_973 === 0)]) {
      expect(username.safeParse(name).success).toBe(true);
    }
  });
});

describe("generateSeedTree", () => {
  it.each([1, 2, 5, 6, 14, 50, 300, 2_000])(
    "places each of %i Sims exactly once in a valid structure",
    (sims) => {
      const rand = createRandom(sims);
      const tree = generateSeedTree(rand, sims, () => randomUuid(rand));
      expect(tree.people).toHaveLength(sims);
      const placed = placements(tree.data);
      expect(placed).toHaveLength(sims);
      const ids = new Set(tree.people.map((p) => p.id));
      expect(new Set(placed)).toEqual(ids);
      for (const ref of references(tree.data)) expect(ids.has(ref)).toBe(true);
      expect(treeData.safeParse(tree.data).success).toBe(true);
      expect(depth(tree.data)).toBeGreaterThanOrEqual(tree.generations);
      for (const person of tree.people)
        expect(() => JSON.parse(person.custom) as unknown).not.toThrow();
    },
  );

  it("grows deeper with size: a small family is shallow, a big legacy has 12+ generations", () => {
    expect(generationsFor(6)).toBeLessThanOrEqual(3);
    expect(generationsFor(1_000)).toBeGreaterThanOrEqual(11);
    expect(generationsFor(10_000)).toBeLessThanOrEqual(16);
  });

  it("is deterministic for a seed", () => {
    const make = () => {
      const rand = createRandom(11);
      return generateSeedTree(rand, 40, () => randomUuid(rand));
    };
    expect(make()).toEqual(make());
  });

  it("makes a tree of exactly 1,000 nodes for the autosave benchmark", () => {
    const ids = createRandom(1);
    const tree = generateTreeWithNodes(createRandom(9_000), 1_000, () => randomUuid(ids));
    let nodes = 0;
    const stack = [tree.data];
    for (let node = stack.pop(); node; node = stack.pop()) {
      nodes += 1;
      stack.push(...node.children);
    }
    expect(nodes).toBe(1_000);
    expect(tree.nodes).toBe(1_000);
    expect(new Set(placements(tree.data))).toEqual(new Set(tree.people.map((p) => p.id)));
    expect(treeData.safeParse(tree.data).success).toBe(true);
  });
});
