import { describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import { layoutTree } from "@/lib/tree/layout";
import { node, partners, person } from "@/lib/tree/test-trees";
import { exportFont, paintTree, type AvatarImage, type PaintContext } from "./draw-tree";
import { decodeDataUri } from "./embed";
import { DEFAULT_AVATAR_KEY, dropNonXmlChars, sceneAvatarKeys, treeScene } from "./tree-scene";
import { buildTreeSvg, EXPORT_COLORS, EXPORT_FONT_FAMILY, wholeTreeRect } from "./tree-svg";

function family() {
  const people = new Map<string, Person>([
    ["a", { ...person("a", "Bella", "Goth"), avatar: "avatar/bella.png" }],
    ["b", { ...person("b", "Mortimer", "Goth"), avatar: "avatar/mortimer.png" }],
    ["c", { ...person("c", "<Cassandra>", "Goth\u0007") }],
  ]);
  const data = node("a", [node("c"), node("ghost")], { partners: partners(["MARRIED", "b"]) });
  return { people, layout: layoutTree(data, people) };
}

interface Call {
  name: string;
  args: unknown[];
  /** The context's state when the call was made. */
  font: string;
  fillStyle: unknown;
}

/** A 2D context that records what is painted (Node has no canvas). */
function recorder() {
  const calls: Call[] = [];
  const state = {
    font: "",
    fillStyle: "" as unknown,
    strokeStyle: "" as unknown,
    lineWidth: 1,
    textAlign: "start",
    textBaseline: "alphabetic",
  };
  const context = new Proxy(state, {
    get(target, key: string) {
      if (key in target) return target[key as keyof typeof target];
      return (...args: unknown[]) => {
        calls.push({ name: key, args, font: target.font, fillStyle: target.fillStyle });
      };
    },
    set(target, key: string, value) {
      (target as Record<string, unknown>)[key] = value;
      return true;
    },
  }) as unknown as PaintContext;
  return { context, calls };
}

const image = (name: string) => ({ name, width: 100, height: 100 }) as unknown as AvatarImage;
/** Path2D stands in as its path data. */
const path = (d: string) => ({ d }) as unknown as Path2D;

describe("treeScene", () => {
  it("lists each drawn Sim's avatar, the default one for Sims without", () => {
    const { people, layout } = family();
    const scene = treeScene(layout, people, wholeTreeRect(layout));
    expect(scene.nodes).toHaveLength(3);
    expect(sceneAvatarKeys(scene)).toEqual(
      new Set(["avatar/bella.png", "avatar/mortimer.png", DEFAULT_AVATAR_KEY]),
    );
    // The unknown Sim's node keeps a placeholder slot.
    expect(scene.nodes.some((n) => n.slots.some((slot) => slot.person === null))).toBe(true);
    expect(scene.nodes[0]!.marks.map((mark) => mark.type)).toEqual(["MARRIED"]);
  });

  it("drops the characters an SVG cannot hold from names", () => {
    expect(dropNonXmlChars("Goth\u0007\uD800 🌳")).toBe("Goth 🌳");
    const { people, layout } = family();
    const names = treeScene(layout, people, wholeTreeRect(layout)).nodes.flatMap((n) =>
      n.slots.flatMap((slot) => (slot.person ? [slot.person.lastName] : [])),
    );
    expect(names).toContain("Goth");
    expect(names.join("")).not.toContain("\u0007");
  });
});

describe("paintTree", () => {
  function paint(scale = 2) {
    const { people, layout } = family();
    const rect = wholeTreeRect(layout);
    const scene = treeScene(layout, people, rect);
    const images = new Map([
      ["avatar/bella.png", image("bella")],
      [DEFAULT_AVATAR_KEY, image("default")],
    ]);
    const { context, calls } = recorder();
    paintTree(context, { scene, rect, scale, images, path });
    return { people, layout, rect, scene, calls };
  }

  it("maps layout units to pixels at the scale and fills the background", () => {
    const { rect, calls } = paint(2);
    expect(calls[0]).toMatchObject({
      name: "setTransform",
      args: [2, 0, 0, 2, -rect.minX * 2, -rect.minY * 2],
    });
    expect(calls[1]).toMatchObject({
      name: "fillRect",
      args: [rect.minX, rect.minY, rect.maxX - rect.minX, rect.maxY - rect.minY],
      fillStyle: EXPORT_COLORS.background,
    });
  });

  it("strokes every connector in one path", () => {
    const { scene, calls } = paint();
    const strokes = calls.filter((c) => c.name === "stroke" && c.args.length === 1);
    expect(strokes[0]!.args[0]).toEqual({ d: scene.links.join("") });
  });

  it("draws each Sim's avatar, the default one when theirs is missing", () => {
    const { calls } = paint();
    const drawn = calls
      .filter((c) => c.name === "drawImage")
      .map((c) => (c.args[0] as { name: string }).name);
    // Bella, then Mortimer (no image loaded: the default), then Cassandra (none set).
    expect(drawn).toEqual(["bella", "default", "default"]);
    // Each is clipped to its circle.
    expect(calls.filter((c) => c.name === "clip")).toHaveLength(3);
  });

  it("writes the same names as the SVG, in the same order, in the export font", () => {
    const { people, layout, rect, calls } = paint();
    const texts = calls.filter((c) => c.name === "fillText");
    const { svg } = buildTreeSvg({
      layout,
      people,
      rect,
      scale: 2,
      title: "t",
      fontDataUri: null,
      avatars: new Map(),
    });
    const svgTexts = [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) =>
      m[1]!.replaceAll("&lt;", "<").replaceAll("&gt;", ">"),
    );
    expect(texts.map((c) => c.args[0])).toEqual(svgTexts);
    expect(texts.map((c) => c.args[0])).toContain("<Cassandra>");
    for (const text of texts) expect(text.font).toContain(`"${EXPORT_FONT_FAMILY}"`);
    const bella = texts.find((c) => c.args[0] === "Bella")!;
    expect(bella.font).toBe(exportFont(11, 600));
    expect(bella.fillStyle).toBe(EXPORT_COLORS.firstName);
  });
});

describe("decodeDataUri", () => {
  it("reads a base64 data: URI's type and bytes", () => {
    const decoded = decodeDataUri("data:image/PNG;base64,AAEC/w==");
    expect(decoded?.type).toBe("image/png");
    expect([...decoded!.bytes]).toEqual([0, 1, 2, 255]);
  });

  it.each(["data:image/png,abc", "https://example.test/a.png", "data:image/png;base64,***"])(
    "refuses %j",
    (uri) => expect(decodeDataUri(uri)).toBeNull(),
  );
});

describe("hidden nodes in the exported image (issue 13)", () => {
  it("draws no connector to or above a hidden family, in the SVG and in the PNG", () => {
    const people = new Map<string, Person>(
      ["a", "b", "c", "x", "y", "z"].map((id) => [id, person(id, id.toUpperCase(), "Sim")]),
    );
    // an imported root with its own children, then unrelated families beside it
    const data = node("a", [
      node("b"),
      node("c"),
      node("x", [node("y")], { hidden: true }),
      node("z", [], { hidden: true }),
      node("y", [], { hidden: true }),
      node("z", [], { hidden: true }),
    ]);
    const layout = layoutTree(data, people);
    const rect = wholeTreeRect(layout);
    const scene = treeScene(layout, people, rect);
    const hidden = layout.nodes.filter((n) => n.node.hidden);
    const firstHiddenLeft = Math.min(...hidden.map((n) => n.x - n.width / 2));
    /** The x coordinates a connector reaches between the first two generations. */
    const rootRowXs = (d: string) =>
      [...d.matchAll(/M(-?[\d.]+),(-?[\d.]+)(?:H(-?[\d.]+))?/g)]
        .filter((m) => Number(m[2]) < 170)
        .flatMap((m) => (m[3] === undefined ? [Number(m[1])] : [Number(m[1]), Number(m[3])]));

    const { svg } = buildTreeSvg({
      layout,
      people,
      rect,
      scale: 1,
      title: "Imported",
      fontDataUri: null,
      avatars: new Map(),
      scene,
    });
    const svgPaths = [...svg.matchAll(/<path d="(M[^"]+)"\/>/g)].map((m) => m[1]!);
    const { context, calls } = recorder();
    paintTree(context, { scene, rect, scale: 1, images: new Map(), path });
    const stroked = calls.find((c) => c.name === "stroke" && c.args[0] !== undefined)!;
    const painted = (stroked.args[0] as { d: string }).d;

    for (const d of [svgPaths.join(""), painted]) {
      const xs = rootRowXs(d);
      expect(xs.length).toBeGreaterThan(0);
      for (const x of xs) expect(x).toBeLessThan(firstHiddenLeft);
    }
  });
});
