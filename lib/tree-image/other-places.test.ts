import { describe, expect, it } from "vitest";
import { layoutTree } from "@/lib/tree/layout";
import { node, partners, peopleMap } from "@/lib/tree/test-trees";
import { treeScene } from "./tree-scene";
import { buildTreeSvg, wholeTreeRect } from "./tree-svg";

describe("the image export's other-places marker", () => {
  // g is the child of a and also drawn as c's partner
  const people = peopleMap("a", "b", "c", "g");
  const data = node("a", [node("g"), node("c", [], { partners: partners(["MARRIED", "g"]) })], {
    partners: partners(["MARRIED", "b"]),
  });
  const layout = layoutTree(data, people);

  it("counts the other nodes a Sim is drawn in, on each of their slots", () => {
    const scene = treeScene(layout, people, wholeTreeRect(layout));
    const marked = scene.nodes.flatMap((n) => n.slots.filter((s) => s.others));
    expect(marked.map((s) => [s.person?.firstName, s.others])).toEqual([
      ["g", 1],
      ["g", 1],
    ]);
  });

  it("draws the marker in the SVG", () => {
    const { svg } = buildTreeSvg({
      layout,
      people,
      rect: wholeTreeRect(layout),
      scale: 1,
      title: "Marker",
      fontDataUri: null,
      avatars: new Map(),
    });
    expect(svg.match(/data-other-places="1"/g)).toHaveLength(2);
    expect(svg).toContain("<title>also in 1 other place</title>");
  });
});
