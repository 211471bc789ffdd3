import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { generateLegacy } from "@/bench/editor/generate";
import type { Person } from "@/lib/schemas/person";
import { layoutTree, nodeGeometry } from "@/lib/tree/layout";
import { node, partners, person } from "@/lib/tree/test-trees";
import { NO_DECOR, type CanvasDecor } from "./decor";
import { SizedTreeCanvas } from "./tree-canvas";
import { fitTransform, toSvgTransform } from "./viewport";
import { TreeNodeView, type NodeActions } from "./tree-node";

const noop = () => undefined;
const actions: NodeActions = {
  selectPerson: noop,
  editNode: noop,
  addChild: noop,
  hoverSim: noop,
  openLinks: noop,
};

function withLinks(p: Person): Person {
  return { ...p, links: [{ title: "Other legacy", treeId: "t2", personId: "p9" }] };
}

const people = new Map<string, Person>(
  [
    withLinks(person("a", "Bella", "Goth")),
    person("m", "Mortimer", "Goth"),
    person("x", "Pollination", "Technician"),
    person("y", "Don", "Lothario"),
    person("z", "Nina", "Caliente"),
    person("c", "Cassandra", "Goth"),
  ].map((p) => [p._id, p]),
);

const root = node("a", [node("c", [], { parents: [{ _id: "a" }, { _id: "m" }] }), node(null)], {
  partners: partners(["MARRIED", "m"], ["EX_PARTNER", "y"], ["ABDUCTION", "x"], ["PARTNER", "z"]),
});
const layout = layoutTree(root, people);

function renderNode(props: Partial<Parameters<typeof TreeNodeView>[0]> = {}) {
  return renderToStaticMarkup(
    <svg>
      <TreeNodeView
        laid={layout.nodes[0]!}
        people={people}
        preview={false}
        detailed
        highlight={null}
        actions={actions}
        clipId="clip"
        {...props}
      />
    </svg>,
  );
}

const count = (html: string, text: string) => html.split(text).length - 1;

describe("TreeNodeView", () => {
  it("names each Sim and each button for assistive technology", () => {
    const html = renderNode();
    for (const name of [
      "Bella Goth",
      "Mortimer Goth",
      "Don Lothario",
      "Pollination Technician",
      "Nina Caliente",
    ]) {
      expect(html).toContain(`role="button" tabindex="0" aria-label="${name}"`);
    }
    expect(html).toContain('aria-label="Links of Bella Goth"');
    expect(count(html, 'aria-label="Links of')).toBe(1);
    expect(html).toContain('aria-label="Edit node"');
    expect(html).toContain('aria-label="Add child"');
    expect(html).toContain('role="group" aria-label="Node of Bella Goth"');
  });

  it("marks each partner row with its type and a title", () => {
    const html = renderNode();
    for (const [type, title] of [
      ["MARRIED", "Married"],
      ["EX_PARTNER", "Ex-Partner"],
      ["ABDUCTION", "Alien Abduction"],
      ["PARTNER", "Partner"],
    ]) {
      expect(html).toContain(
        `aria-label="${title}" data-partner-type="${type}"><title>${title}</title>`,
      );
    }
  });

  it("uses the small avatar radius with more than one partner row", () => {
    const html = renderNode();
    expect(html).toContain('width="40" height="40"');
    expect(html).not.toContain('width="60" height="60"');
  });

  it("hides the buttons and the background in preview", () => {
    const html = renderNode({ preview: true });
    expect(html).not.toContain("Edit node");
    expect(html).not.toContain("Add child");
    expect(html).not.toContain("data-node-background");
    expect(html).toContain('aria-label="Bella Goth"');
    expect(renderNode()).toContain("data-node-background");
  });

  it("highlights the hovered child's parents and dims the others", () => {
    const html = renderNode({ highlight: new Set(["a", "m"]) });
    expect(count(html, 'data-highlight="parent"')).toBe(2);
    expect(count(html, 'data-highlight="dimmed"')).toBe(3);
    expect(renderNode()).not.toContain("data-highlight");
  });

  it("draws only shapes when zoomed far out", () => {
    const html = renderNode({ detailed: false });
    expect(html).not.toContain("<image");
    expect(html).not.toContain("<text");
    expect(html).not.toContain("Edit node");
    expect(html).not.toContain("Links of");
  });

  it("shows an empty node as a placeholder that opens its editor", () => {
    const html = renderNode({ laid: layout.nodes.find((n) => n.key === "1")! });
    expect(html).toContain('aria-label="Empty node"');
    expect(html).toContain('role="button" tabindex="0" aria-label="Choose a Sim for this node"');
    expect(html).toContain('aria-label="Edit node"');
  });

  it("shows an empty node as a plain placeholder in preview", () => {
    const html = renderNode({ laid: layout.nodes.find((n) => n.key === "1")!, preview: true });
    expect(html).toContain('aria-label="Empty node"');
    expect(html).toContain('aria-hidden="true"');
    expect(html).not.toContain("Choose a Sim for this node");
  });

  it("uses the person's avatar at 200x200, or the default one", () => {
    const withAvatar = new Map(people);
    withAvatar.set("a", { ...people.get("a")!, avatar: "avatar/abc.png" });
    expect(renderNode({ people: withAvatar })).toContain(
      'href="/api/upload/200x200/avatar/abc.png"',
    );
    expect(renderNode()).toContain('href="/assets/default-avatar.svg"');
  });
});

describe("SizedTreeCanvas", () => {
  it("is a focusable canvas with an accessible name, and opens with a small tree fitted", () => {
    const html = renderToStaticMarkup(
      <SizedTreeCanvas
        size={{ width: 1000, height: 600 }}
        layout={layout}
        people={people}
        preview={false}
        label="Family tree: Goth"
        onSelectPerson={noop}
      />,
    );
    expect(html).toContain('role="application" aria-label="Family tree: Goth"');
    expect(html).toContain('tabindex="0"');
    // Small enough to read whole: fitted at 1× (never blown up), in the middle of the view.
    const fitted = fitTransform({ width: 1000, height: 600 }, layout.bounds);
    expect(fitted.scaleX).toBe(1);
    expect(html).toContain(`transform="${toSvgTransform(fitted)}"`);
    expect(html).toContain('aria-label="Cassandra Goth"');
    for (const control of ["Zoom in", "Zoom out", "Fit tree to view", "Centre on root"]) {
      expect(html).toContain(`aria-label="${control}"`);
    }
  });

  it("centres the root at 1× when the tree is too large to read fitted", () => {
    const legacy = generateLegacy({ sims: 1_000 });
    const big = layoutTree(legacy.data, new Map(legacy.people.map((p) => [p._id, p])));
    const html = renderToStaticMarkup(
      <SizedTreeCanvas
        size={{ width: 1000, height: 600 }}
        layout={big}
        people={new Map(legacy.people.map((p) => [p._id, p]))}
        preview={false}
        onSelectPerson={noop}
      />,
    );
    const rootX = big.nodes[0]!.x;
    expect(html).toContain(`transform="matrix(1,0,0,1,${500 - rootX},120)"`);
  });

  it("renders only the nodes near the view of a large legacy", () => {
    const legacy = generateLegacy({ sims: 10_000 });
    const legacyPeople = new Map(legacy.people.map((p) => [p._id, p]));
    const big = layoutTree(legacy.data, legacyPeople);
    const html = renderToStaticMarkup(
      <SizedTreeCanvas
        size={{ width: 1280, height: 720 }}
        layout={big}
        people={legacyPeople}
        preview={false}
        onSelectPerson={noop}
      />,
    );
    const rendered = count(html, "data-node-key=");
    expect(big.nodes.length).toBeGreaterThan(4000);
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(200);
  });

  it("opens centred on a focused Sim", () => {
    const html = renderToStaticMarkup(
      <SizedTreeCanvas
        size={{ width: 1000, height: 600 }}
        layout={layout}
        people={people}
        preview
        focusPersonId="c"
        onSelectPerson={noop}
      />,
    );
    const child = layout.nodes.find((n) => n.key === "0")!;
    expect(html).toContain(`transform="matrix(1,0,0,1,${500 - child.x},${300 - child.y})"`);
  });
});

describe("the heir's marks (issue 33)", () => {
  const decor = (extra: Partial<CanvasDecor> = {}): CanvasDecor => ({ ...NO_DECOR, ...extra });

  it("crowns the heir, and marks a marriage with rings, not a crown", () => {
    const html = renderNode({ decor: decor({ heirs: new Map([["a", 1]]) }) });
    expect(count(html, "data-crown")).toBe(1);
    expect(html).toMatch(/aria-label="Heir of generation 1"[^>]*data-heir=""/);
    // the married row's mark is two rings; before, it was the crown's shape
    const married = /data-partner-type="MARRIED">[\s\S]*?<\/g><\/g>/.exec(html)![0];
    expect(married).toContain("data-married-rings");
    expect(married).not.toContain("data-crown");
    expect(count(renderNode(), "data-crown")).toBe(0);
  });

  it("draws the heir line as one line through the founder and each heir, not as rings", () => {
    const html = renderToStaticMarkup(
      <SizedTreeCanvas
        size={{ width: 1000, height: 600 }}
        layout={layout}
        people={people}
        preview={false}
        decor={decor({ heirs: new Map([["c", 2]]), heirLine: ["a", "c"] })}
        onSelectPerson={noop}
      />,
    );
    const child = layout.nodes.find((n) => n.key === "0")!;
    const rootSlot = nodeGeometry(layout.nodes[0]!.node, people).slots.find(
      (s) => s.personId === "a",
    )!;
    expect(html).toContain(
      `points="${layout.nodes[0]!.x + rootSlot.dx},${layout.nodes[0]!.y} ${child.x},${child.y}"`,
    );
    expect(html).toContain('data-heir-line="2"');
    expect(html).not.toContain("data-on-path");
    expect(html).toContain("stroke-emerald-600");
  });
});
