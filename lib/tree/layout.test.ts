import { describe, expect, it } from "vitest";
import { generateLegacy } from "@/bench/editor/generate";
import { findNode, pathFromKey } from "./reducers";
import {
  findPersonNode,
  itemsInRect,
  layoutTree,
  LAYOUT,
  nodeGeometry,
  nodeWidth,
  type Bounds,
  type TreeLayout,
} from "./layout";
import { node, partners, peopleMap, person } from "./test-trees";
import { fitText, textWidth } from "./text-width";

const everyone = peopleMap("a", "b", "c", "d", "e", "f", "m", "x", "y", "z");

function positions(layout: TreeLayout) {
  return layout.nodes.map((n) => ({ key: n.key, x: n.x, y: n.y }));
}

describe("layoutTree positions", () => {
  it("puts a lone root at the origin", () => {
    const layout = layoutTree(node("a"), everyone);
    expect(positions(layout)).toEqual([{ key: "", x: 0, y: 0 }]);
    expect(layout.nodes[0]!.width).toBe(160);
    expect(layout.links).toEqual([]);
    expect(layout.bounds).toEqual({ minX: -94, maxX: 94, minY: -54, maxY: 74 });
  });

  it("spaces siblings 200 apart, 170 below their parent, with one connector", () => {
    const layout = layoutTree(node("a", [node("b"), node("c")]), everyone);
    expect(positions(layout)).toEqual([
      { key: "", x: 0, y: 0 },
      { key: "0", x: -100, y: 170 },
      { key: "1", x: 100, y: 170 },
    ]);
    expect(layout.links).toHaveLength(1);
    expect(layout.links[0]!.d).toBe("M0,74V102M-100,102H100M-100,102V130M100,102V130");
  });

  it("spaces cousins by 1.2 × 200", () => {
    const layout = layoutTree(
      node("a", [node("b", [node("d")]), node("c", [node("e")])]),
      everyone,
    );
    expect(positions(layout)).toEqual([
      { key: "", x: 0, y: 0 },
      { key: "0", x: -120, y: 170 },
      { key: "1", x: 120, y: 170 },
      { key: "0.0", x: -120, y: 340 },
      { key: "1.0", x: 120, y: 340 },
    ]);
  });

  it("centres a parent over its children and stacks generations", () => {
    const layout = layoutTree(node("a", [node("b", [node("d"), node("e"), node("f")])]), everyone);
    expect(positions(layout)).toEqual([
      { key: "", x: 0, y: 0 },
      { key: "0", x: 0, y: 170 },
      { key: "0.0", x: -200, y: 340 },
      { key: "0.1", x: 0, y: 340 },
      { key: "0.2", x: 200, y: 340 },
    ]);
    expect(layout.nodeRows.map((row) => [row.start, row.end])).toEqual([
      [0, 1],
      [1, 2],
      [2, 5],
    ]);
    expect(layout.links[0]!.d).toBe("M0,74V102M0,102V130");
  });

  it("widens the spacing for nodes widened by partners", () => {
    // Three partner rows: 2×20 + 3×(10 + 2×20) + 2×10 = 210 wide.
    const wide = node("b", [], {
      partners: partners(["MARRIED", "x"], ["PARTNER", "y"], ["EX_PARTNER", "z"]),
    });
    const layout = layoutTree(node("a", [wide, node("c")]), everyone);
    expect(layout.nodes[1]!.width).toBe(210);
    // (210 / 2 + 160 / 2 + 40 gap) = 225 between centres.
    expect(layout.nodes[2]!.x - layout.nodes[1]!.x).toBe(225);
    expect(layout.nodes[1]!.x).toBe(-112.5);
  });

  it("works widths out again for other people, and for edited nodes only", () => {
    const wide = node("b", [], {
      partners: partners(["MARRIED", "x"], ["PARTNER", "y"], ["EX_PARTNER", "z"]),
    });
    const root = node("a", [wide, node("c")]);
    expect(layoutTree(root, everyone).nodes[1]!.width).toBe(210);
    // The same node objects with people who do not include the partners: a plain 160 box.
    expect(layoutTree(root, peopleMap("a", "b", "c")).nodes[1]!.width).toBe(160);
    expect(layoutTree(root, everyone).nodes[1]!.width).toBe(210);
    // An edited node is a new object (the reducers copy what they change).
    const edited = node("a", [{ ...wide, partners: wide.partners.slice(0, 1) }, node("c")]);
    expect(layoutTree(edited, everyone).nodes[1]!.width).toBe(160);
  });

  it("draws the drops to adopted children apart, to be dashed (issue 15)", () => {
    const layout = layoutTree(
      node("a", [
        node("b", [], { parents: [{ _id: "a" }] }),
        node("c", [], { adoptiveParents: [{ _id: "a" }] }),
        node("d", [], { parents: [{ _id: "x" }], adoptiveParents: [{ _id: "a" }] }),
      ]),
      everyone,
    );
    const [link] = layout.links;
    const drop = (x: number) => `M${x},102V130`;
    expect(link!.d).toContain(drop(-200));
    expect(link!.d).not.toContain(drop(0));
    expect(link!.adoptedD).toBe(`${drop(0)}${drop(200)}`);
    expect(layoutTree(node("a", [node("b")]), everyone).links[0]!.adoptedD).toBe("");
  });

  it("leaves hidden children out of the connector", () => {
    const layout = layoutTree(
      node("a", [node("b"), node("c", [], { hidden: true }), node("d")]),
      everyone,
    );
    expect(layout.links[0]!.d).toBe("M0,74V102M-200,102H200M-200,102V130M200,102V130");
    expect(layoutTree(node("a", [node("b", [], { hidden: true })]), everyone).links).toEqual([]);
  });

  it("centres a parent over the children it links, so no connector runs above a hidden child", () => {
    // an imported root: its own family, then two unrelated families beside it (issue 13)
    const layout = layoutTree(
      node("a", [
        node("b"),
        node("c"),
        node("x", [node("y")], { hidden: true }),
        node("z", [], { hidden: true }),
      ]),
      everyone,
    );
    const at = (key: string) => layout.nodes.find((n) => n.key === key)!;
    expect(at("").x).toBe((at("0").x + at("1").x) / 2);
    expect(layout.links).toHaveLength(2);
    const rootLink = layout.links.find((l) => l.parentKey === "")!;
    const xs = [...rootLink.d.matchAll(/[MH](-?[\d.]+)/g)].map((m) => Number(m[1]));
    // every x the connector reaches lies between the linked children, clear of the hidden ones
    for (const x of xs) expect(x).toBeLessThanOrEqual(at("1").x);
    expect(at("2").x - at("2").width / 2).toBeGreaterThan(Math.max(...xs));
    // the hidden family keeps its own connector
    expect(layout.links.find((l) => l.parentKey === "2")!.d).toBe(
      `M${at("2").x},244V272M${at("2").x},272V300`,
    );
  });

  it("moves a parent with hidden children only as far as its neighbours leave room", () => {
    const layout = layoutTree(
      node("a", [
        node("b", [node("d"), node("e", [], { hidden: true }), node("f", [], { hidden: true })]),
        node("c", [node("m"), node("x")]),
      ]),
      everyone,
    );
    for (const row of layout.nodeRows) {
      for (let i = row.start + 1; i < row.end; i += 1) {
        const left = layout.nodes[i - 1]!;
        const right = layout.nodes[i]!;
        expect(right.x - right.width / 2 - (left.x + left.width / 2)).toBeGreaterThanOrEqual(
          40 - 1e-6,
        );
      }
    }
    const b = layout.nodes.find((n) => n.key === "0")!;
    const d = layout.nodes.find((n) => n.key === "0.0")!;
    expect(b.x).toBe(d.x);
  });

  it("gives every node the key of its path", () => {
    const { data, people } = generateLegacy({ sims: 300, seed: 3 });
    const layout = layoutTree(data, new Map(people.map((p) => [p._id, p])));
    for (const laid of layout.nodes) {
      expect(findNode(data, pathFromKey(laid.key))).toBe(laid.node);
      if (laid.parent >= 0) {
        expect(layout.nodes[laid.parent]!.depth).toBe(laid.depth - 1);
        expect(laid.y).toBe(laid.depth * 170);
      }
    }
  });

  it("never overlaps nodes of a generation, whatever their width", () => {
    const { data, people } = generateLegacy({ sims: 2000, seed: 11 });
    const layout = layoutTree(data, new Map(people.map((p) => [p._id, p])));
    let wideNodes = 0;
    for (const row of layout.nodeRows) {
      for (let i = row.start + 1; i < row.end; i += 1) {
        const left = layout.nodes[i - 1]!;
        const right = layout.nodes[i]!;
        if (left.width > 160) wideNodes += 1;
        const gap = right.x - right.width / 2 - (left.x + left.width / 2);
        expect(gap).toBeGreaterThanOrEqual(40 - 1e-6);
      }
    }
    expect(wideNodes).toBeGreaterThan(10);
  });
});

describe("nodeGeometry", () => {
  it("centres a lone person in a 160 box", () => {
    expect(nodeGeometry(node("a"), everyone)).toEqual({
      width: 160,
      slots: [{ personId: "a", dx: 0, r: 30, nameWidth: 60, row: -1 }],
    });
  });

  it("puts one partner to the right with the row's mark between them", () => {
    const geometry = nodeGeometry(
      node("a", [], { partners: partners(["MARRIED", "m"]) }),
      everyone,
    );
    expect(geometry).toEqual({
      width: 160,
      slots: [
        { personId: "a", dx: -35, r: 30, nameWidth: 60, row: -1 },
        { personId: "m", dx: 35, r: 30, nameWidth: 60, row: 0, partnerType: "MARRIED", markDx: 0 },
      ],
    });
  });

  it("uses the small radius when there is more than one partner row", () => {
    const geometry = nodeGeometry(
      node("a", [], { partners: partners(["PARTNER", "m"], ["ABDUCTION", "x"]) }),
      everyone,
    );
    expect(geometry).toEqual({
      width: 160,
      slots: [
        { personId: "a", dx: -50, r: 20, nameWidth: 40, row: -1 },
        { personId: "m", dx: 0, r: 20, nameWidth: 40, row: 0, partnerType: "PARTNER", markDx: -25 },
        {
          personId: "x",
          dx: 50,
          r: 20,
          nameWidth: 40,
          row: 1,
          partnerType: "ABDUCTION",
          markDx: 25,
        },
      ],
    });
  });

  it("uses the small radius for a second person in a row", () => {
    const geometry = nodeGeometry(
      node("a", [], { partners: partners(["EX_PARTNER", "m", "x"]) }),
      everyone,
    );
    expect(geometry).toEqual({
      width: 200,
      slots: [
        { personId: "a", dx: -60, r: 30, nameWidth: 60, row: -1 },
        {
          personId: "m",
          dx: 10,
          r: 30,
          nameWidth: 60,
          row: 0,
          partnerType: "EX_PARTNER",
          markDx: -25,
        },
        { personId: "x", dx: 70, r: 20, nameWidth: 40, row: 0 },
      ],
    });
  });

  it("leaves out unknown partners and marks an unknown person as empty", () => {
    const geometry = nodeGeometry(
      node("ghost", [], { partners: partners(["MARRIED", "nobody"], ["PARTNER", "m"]) }),
      everyone,
    );
    expect(geometry.slots).toEqual([
      { personId: null, dx: -35, r: 30, nameWidth: 60, row: -1 },
      { personId: "m", dx: 35, r: 30, nameWidth: 60, row: 1, partnerType: "PARTNER", markDx: 0 },
    ]);
    expect(nodeGeometry(node(null), everyone).slots[0]!.personId).toBeNull();
  });

  it("grows a node to its partners' names, so none is cut at 1× (issue 15)", () => {
    const goths = new Map([
      ["c", person("c", "Cassandra", "Goth")],
      ["m", person("m", "Mortimer", "Goth")],
      ["d", person("d", "Don", "Lothario")],
    ]);
    const geometry = nodeGeometry(
      node("c", [], { partners: partners(["MARRIED", "m"], ["EX_PARTNER", "d"]) }),
      goths,
    );
    expect(geometry.width).toBeGreaterThan(160);
    geometry.slots.forEach((slot, i) => {
      const someone = goths.get(slot.personId!)!;
      expect(fitText(someone.firstName, slot.nameWidth, true)).toBe(someone.firstName);
      expect(fitText(someone.lastName, slot.nameWidth)).toBe(someone.lastName);
      // Neighbouring name columns never overlap, and the box holds them all.
      const next = geometry.slots[i + 1];
      if (next) expect(slot.dx + slot.nameWidth / 2).toBeLessThan(next.dx - next.nameWidth / 2);
      expect(Math.abs(slot.dx) + slot.nameWidth / 2).toBeLessThanOrEqual(geometry.width / 2);
    });
    expect(
      nodeWidth(
        node("c", [], { partners: partners(["MARRIED", "m"], ["EX_PARTNER", "d"]) }),
        goths,
      ),
    ).toBe(geometry.width);
  });

  it("shortens a very long name to the widest column, with an ellipsis", () => {
    const long = new Map([
      ["l", person("l", "Bartholomew Maximilian Augustus", "Fitzgerald-Montgomery-Smythe")],
    ]);
    const geometry = nodeGeometry(node("l"), long);
    expect(geometry.slots[0]!.nameWidth).toBe(LAYOUT.nameMaxWidth);
    const shown = fitText("Bartholomew Maximilian Augustus", geometry.slots[0]!.nameWidth, true);
    expect(shown.endsWith("…")).toBe(true);
    expect(textWidth(shown, true)).toBeLessThanOrEqual(LAYOUT.nameMaxWidth);
  });

  it("agrees with nodeWidth on every node of a legacy", () => {
    const { data, people } = generateLegacy({ sims: 1000, seed: 5 });
    const map = new Map(people.map((p) => [p._id, p]));
    for (const laid of layoutTree(data, map).nodes) {
      expect(nodeWidth(laid.node, map)).toBe(nodeGeometry(laid.node, map).width);
    }
  });
});

describe("itemsInRect", () => {
  const { data, people } = generateLegacy({ sims: 3000, seed: 9 });
  const layout = layoutTree(data, new Map(people.map((p) => [p._id, p])));

  function bruteForce(rect: Bounds) {
    const nodes = layout.nodes.filter(
      (n) =>
        n.x + n.width / 2 + 14 >= rect.minX &&
        n.x - n.width / 2 - 14 <= rect.maxX &&
        n.y + 40 + 34 >= rect.minY &&
        n.y - 40 - 14 <= rect.maxY,
    );
    const links = layout.links.filter(
      (l) =>
        l.maxX >= rect.minX &&
        l.minX <= rect.maxX &&
        l.depth * 170 + 74 <= rect.maxY &&
        l.depth * 170 + 130 >= rect.minY,
    );
    return { nodes, links };
  }

  it.each<[string, Bounds]>([
    ["around the root", { minX: -800, maxX: 800, minY: -100, maxY: 600 }],
    ["a deep strip", { minX: 3000, maxX: 6000, minY: 1500, maxY: 2500 }],
    ["between generations", { minX: -5000, maxX: 5000, minY: 80, maxY: 120 }],
    ["everything", layout.bounds],
    ["outside", { minX: 1e7, maxX: 1e7 + 100, minY: 0, maxY: 100 }],
  ])("finds exactly the nodes and links in view (%s)", (_, rect) => {
    const found = itemsInRect(layout, rect);
    const expected = bruteForce(rect);
    expect(found.nodes.map((n) => n.index)).toEqual(expected.nodes.map((n) => n.index));
    expect(found.links.map((l) => l.parent)).toEqual(expected.links.map((l) => l.parent));
  });

  it("returns everything for the layout's bounds", () => {
    const found = itemsInRect(layout, layout.bounds);
    expect(found.nodes).toHaveLength(layout.nodes.length);
    expect(found.links).toHaveLength(layout.links.length);
  });
});

describe("findPersonNode", () => {
  const root = node("a", [node("b", [], { partners: partners(["MARRIED", "m"]) }), node("m")]);
  const layout = layoutTree(root, everyone);

  it("prefers the node where the person is the node's person", () => {
    expect(findPersonNode(layout, "m")?.key).toBe("1");
    expect(findPersonNode(layout, "b")?.key).toBe("0");
  });

  it("falls back to a partner placement, unless asked not to", () => {
    const other = layoutTree(node("a", [], { partners: partners(["MARRIED", "m"]) }), everyone);
    expect(findPersonNode(other, "m")?.key).toBe("");
    expect(findPersonNode(other, "m", { asPartner: false })).toBeUndefined();
    expect(findPersonNode(other, "nobody")).toBeUndefined();
  });
});
