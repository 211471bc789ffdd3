import { describe, expect, it } from "vitest";
import { layoutTree } from "@/lib/tree/layout";
import { buildKinship } from "@/lib/tree/placements";
import { node, partners, peopleMap } from "@/lib/tree/test-trees";
import { centreOn, generationRows, glideStart } from "./decor";
import { transform } from "./viewport";

const size = { width: 1440, height: 900 };
/** The tree's point at the screen's centre. */
const centreOf = (m: ReturnType<typeof transform>) => ({
  x: (size.width / 2 - m.translateX) / m.scaleX,
  y: (size.height / 2 - m.translateY) / m.scaleY,
});

describe("glideStart", () => {
  it("glides from the view itself to a target within a screen", () => {
    const from = transform(1, 0, 0);
    const to = centreOn({ x: 1500, y: 800 }, size, from);
    expect(glideStart(from, to, size)).toBe(from);
  });

  it("cuts to a screen from a far target, on the side the view was, at the view's zoom", () => {
    const from = transform(1, 0, 0); // centred on (720, 450)
    const to = centreOn({ x: 40_720, y: 450 }, size, from);
    const start = glideStart(from, to, size);
    expect(start.scaleX).toBe(1);
    const at = centreOf(start);
    // one screen (1440 px at zoom 1) short of the target, to its left where the view was
    expect(at.x).toBeCloseTo(40_720 - 1440, 6);
    expect(at.y).toBeCloseTo(450, 6);
  });

  it("measures the distance at the view's zoom: a zoomed-out view keeps its glide", () => {
    // at zoom 0.02 the target is 800 px away on screen: in view, so no cut
    const from = transform(0.02, 0, 0);
    const to = centreOn({ x: 720 / 0.02 + 40_000, y: 450 / 0.02 }, size, from);
    expect(glideStart(from, to, size)).toBe(from);
  });

  it("keeps the direction of a diagonal jump", () => {
    const from = transform(1.5, 0, 0);
    const to = centreOn({ x: -30_000, y: 60_000 }, size, from);
    const a = centreOf(from);
    const b = centreOf(to);
    const at = centreOf(glideStart(from, to, size));
    const along = (at.x - b.x) * (a.y - b.y) - (at.y - b.y) * (a.x - b.x);
    expect(Math.abs(along)).toBeLessThan(1e-3);
    expect(Math.hypot(at.x - b.x, at.y - b.y) * 1.5).toBeCloseTo(1440, 6);
  });
});

describe("generationRows", () => {
  it("labels each row with its Sims' generations from the one rule, a range where they differ", () => {
    // Dennis Kim's shape (issue 33): row 2 holds Eric (generation 2) and, in a hidden node, Alice's
    // father Dennis (generation 1); row 3 holds Eric's daughter and Alice drawn again under Dennis.
    const refs = (...ids: string[]) => ids.map((_id) => ({ _id }));
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
    const layout = layoutTree(tree, peopleMap("vivian", "eric", "alice", "dennis", "olivia"));
    const rows = generationRows(layout, buildKinship(tree).generation);
    expect(rows.map((r) => r.label)).toEqual(["Gen 1", "Gen 1–2", "Gen 2–3"]);
    expect(rows.map((r) => r.y)).toEqual(layout.nodeRows.map((row) => layout.nodes[row.start]!.y));
  });
});
