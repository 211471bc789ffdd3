import { describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";
import {
  LIST_PAGE_BYTES,
  LIST_PAGE_ITEMS,
  listPage,
  PARENTS_SHOWN,
  PARTNERS_SHOWN,
  type ListNodeItem,
} from "./list-pages";

const person = (id: string, bio = ""): Person => ({
  _id: id,
  tree: "t",
  avatar: null,
  firstName: `First ${id}`,
  lastName: "Sim",
  bio,
  traits: [],
  aspirations: [],
  lifeStates: [],
  custom: [],
  links: [],
});

const node = (
  id: string | null,
  children: TreeNode[] = [],
  extra: Partial<TreeNode> = {},
): TreeNode => ({
  person: id ? { _id: id } : null,
  partners: [],
  children,
  parentType: "NONE",
  parents: [],
  adoptiveParents: [],
  hidden: false,
  ...extra,
});

describe("listPage", () => {
  it("lists a small tree on one page, depth first, then the Sims placed nowhere", () => {
    const people = ["a", "b", "c", "d", "e"].map((id) => person(id));
    const data = node("a", [node("b", [node("c")]), node("d")]);
    const page = listPage(data, people, 1);
    expect(page.count).toBe(1);
    expect(page.number).toBe(1);
    expect(
      page.items.map((item) => (item.kind === "node" ? item.person : `+${item.person}`)),
    ).toEqual(["a", "b", "c", "d", "+e"]);
    expect(page.items.map((item) => (item.kind === "node" ? item.depth : -1))).toEqual([
      0, 1, 2, 1, -1,
    ]);
    expect(page.people.map((p) => p._id).sort()).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("bounds what the hostile tree of issue 22 puts on a page: 256 nodes of 100 × 100 partner references", () => {
    const people = [person("p")];
    const heavy = (): TreeNode =>
      node("p", [], {
        partners: Array.from({ length: 100 }, () => ({
          type: "PARTNER" as const,
          people: Array.from({ length: 100 }, () => ({ _id: "p" })),
        })),
        parents: Array.from({ length: 100 }, () => ({ _id: "p" })),
        adoptiveParents: Array.from({ length: 100 }, () => ({ _id: "p" })),
      });
    // 1 + 255 nodes: a root with 255 children, each as heavy as the stored tree's.
    const data = { ...heavy(), children: Array.from({ length: 255 }, heavy) };
    const first = listPage(data, people, 1);
    expect(first.count).toBe(2);
    expect(first.items).toHaveLength(LIST_PAGE_ITEMS);
    const item = first.items[0] as ListNodeItem;
    expect(item.partners.flatMap((entry) => entry.people)).toHaveLength(PARTNERS_SHOWN);
    expect(item.hiddenPartners).toBe(100 * 100 - PARTNERS_SHOWN);
    expect(item.parents).toHaveLength(PARENTS_SHOWN);
    expect(item.adoptiveParents).toHaveLength(PARENTS_SHOWN);
    expect(item.hiddenParents).toBe(200 - 2 * PARENTS_SHOWN);
    const second = listPage(data, people, 2);
    expect(second.items).toHaveLength(256 - LIST_PAGE_ITEMS);
    // What a page hands to the browser stays small: about 200 entries of a dozen ids each.
    expect(JSON.stringify(first).length).toBeLessThan(200_000);
  });

  it("cuts a page before its people pass LIST_PAGE_BYTES, keeping at least one entry", () => {
    const bio = "x".repeat(60_000);
    const people = Array.from({ length: 20 }, (_, index) => person(`p${index}`, bio));
    const data = node(
      null,
      people.map((p) => node(p._id)),
    );
    const pages = [];
    for (let number = 1; ; number += 1) {
      const page = listPage(data, people, number);
      pages.push(page);
      if (page.number === page.count) break;
    }
    expect(pages.length).toBeGreaterThan(4);
    for (const page of pages) {
      expect(JSON.stringify(page.people).length).toBeLessThanOrEqual(LIST_PAGE_BYTES);
      expect(page.items.length).toBeGreaterThan(0);
    }
    const huge = [person("h", "y".repeat(LIST_PAGE_BYTES * 2))];
    const alone = listPage(node("h"), huge, 1);
    expect(alone.items).toHaveLength(1);
    expect(alone.count).toBe(1);
  });

  it("answers the last page for a number past it", () => {
    const people = Array.from({ length: 450 }, (_, index) => person(`p${index}`));
    const data = node(
      null,
      people.map((p) => node(p._id)),
    );
    const page = listPage(data, people, 99);
    expect(page.count).toBe(3);
    expect(page.number).toBe(3);
    expect(page.items).toHaveLength(451 - 2 * LIST_PAGE_ITEMS);
  });

  it("walks a 100,000-deep tree without recursion", () => {
    let data = node("p");
    for (let depth = 0; depth < 100_000; depth += 1) data = node("p", [data]);
    const page = listPage(data, [person("p")], 1);
    expect(page.count).toBe(Math.ceil(100_001 / LIST_PAGE_ITEMS));
  });
});
