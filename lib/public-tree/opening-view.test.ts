import { describe, expect, it } from "vitest";
import { VIEWPORT } from "@/lib/tree/viewport";
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";
import { layoutTree } from "@/lib/tree/layout";
import { node, partners, person } from "@/lib/tree/test-trees";
import { openingView, PREVIEW_SCREEN } from "./opening-view";

/** A line of `generations` Sims, each with a partner, and a bio the drawing does not need. */
function line(generations: number) {
  const people = new Map<string, Person>();
  let data: TreeNode | null = null;
  for (let generation = generations; generation >= 1; generation -= 1) {
    for (const id of [`g${generation}`, `p${generation}`]) {
      people.set(id, { ...person(id), bio: "<p>A long story.</p>", traits: ["Genius"] });
    }
    data = node(`g${generation}`, data ? [data] : [], {
      partners: partners(["MARRIED", `p${generation}`]),
    });
  }
  return { data: data!, people };
}

let version = 0;
const fresh = () => `tree:${(version += 1)}`;

describe("openingView", () => {
  it("draws what the canvas opens on: the root at 1×, as far as the preview screen reaches", () => {
    const { data, people } = line(30);
    const view = openingView(fresh(), data, people)!;
    const layout = layoutTree(data, people);
    const root = layout.nodes[0]!;
    expect(view.rootX).toBe(root.x);
    expect(view.rootY).toBe(root.y);
    // Generations 170 px apart, from 120 px below the top of a 1080 px screen: about 6 of 30.
    const reach = PREVIEW_SCREEN.height - VIEWPORT.topPadding;
    expect(view.nodes.length).toBeGreaterThanOrEqual(Math.floor(reach / 170));
    expect(view.nodes.length).toBeLessThan(10);
    expect(view.nodes.map((laid) => laid.key)).toEqual(
      layout.nodes.slice(0, view.nodes.length).map((laid) => laid.key),
    );
    // Each node without its subtree; each Sim without what only the details panel shows.
    expect(view.nodes.every((laid) => laid.node.children.length === 0)).toBe(true);
    expect(view.people.map((shown) => shown._id)).toContain("p1");
    expect(view.people.length).toBe(2 * view.nodes.length);
    expect(view.people.every((shown) => shown.bio === "" && shown.traits.length === 0)).toBe(true);
    expect(view.links.length).toBe(view.nodes.length);
    expect(view.links[0]!.d).toMatch(/^M/);
  });

  it("draws nothing for a tree the canvas may open fitted (that view depends on the screen)", () => {
    const { data, people } = line(3);
    expect(openingView(fresh(), data, people)).toBeNull();
  });

  it("lays a publication out once", () => {
    const { data, people } = line(30);
    const key = fresh();
    const first = openingView(key, data, people);
    expect(openingView(key, line(2).data, people)).toBe(first);
  });
});
