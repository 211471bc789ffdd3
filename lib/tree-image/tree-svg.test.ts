import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { generateLegacy } from "@/bench/editor/generate";
import type { Person } from "@/lib/schemas/person";
import { layoutTree } from "@/lib/tree/layout";
import { node, partners, person } from "@/lib/tree/test-trees";
import { CANVAS_LIMITS, exportScale } from "./scale";
import {
  avatarKeysInRect,
  buildTreeSvg,
  DEFAULT_AVATAR_KEY,
  escapeXml,
  EXPORT_FONT_FAMILY,
  EXPORT_MARGIN,
  pixelSize,
  wholeTreeRect,
  type TreeSvgInput,
} from "./tree-svg";

const FONT = fs.readFileSync(
  path.join(import.meta.dirname, "../../public/fonts/Geist-Regular.ttf"),
);
const FONT_URI = `data:font/ttf;base64,${FONT.toString("base64")}`;

async function pngUri(color: { r: number; g: number; b: number }) {
  const png = await sharp({ create: { width: 100, height: 100, channels: 3, background: color } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}

function family() {
  const people = new Map<string, Person>([
    ["a", { ...person("a", "Bella", "Goth"), avatar: "avatar/bella.png" }],
    ["b", { ...person("b", "Mortimer", "Goth"), avatar: "avatar/mortimer.png" }],
    ["c", { ...person("c", "<script>alert(1)</script>", "Tom & Jerry \"Q\" 'x'") }],
    ["d", { ...person("d", "Cassandra\u0000\u0007", "Goth\uD800") }],
  ]);
  const data = node("a", [node("c"), node("d", [], { parents: [{ _id: "a" }] })], {
    partners: partners(["MARRIED", "b"]),
  });
  return { people, layout: layoutTree(data, people) };
}

async function input(overrides: Partial<TreeSvgInput> = {}): Promise<TreeSvgInput> {
  const { people, layout } = family();
  return {
    layout,
    people,
    rect: wholeTreeRect(layout),
    scale: 1,
    title: "The Goth Legacy",
    fontDataUri: FONT_URI,
    avatars: new Map([
      ["avatar/bella.png", await pngUri({ r: 200, g: 10, b: 10 })],
      ["avatar/mortimer.png", await pngUri({ r: 10, g: 10, b: 200 })],
      [DEFAULT_AVATAR_KEY, await pngUri({ r: 240, g: 230, b: 240 })],
    ]),
    ...overrides,
  };
}

describe("buildTreeSvg", () => {
  it("is as large as the tree times the scale, and an SVG reader agrees", async () => {
    const base = await input();
    const { layout } = base;
    const w = layout.bounds.maxX - layout.bounds.minX + 2 * EXPORT_MARGIN;
    const h = layout.bounds.maxY - layout.bounds.minY + 2 * EXPORT_MARGIN;
    for (const scale of [0.5, 1, 2.5, 4]) {
      const made = buildTreeSvg({ ...base, scale });
      expect(made.width).toBe(Math.round(w * scale));
      expect(made.height).toBe(Math.round(h * scale));
      expect(made.svg).toContain(`width="${made.width}" height="${made.height}"`);
      const meta = await sharp(Buffer.from(made.svg)).metadata();
      expect({ width: meta.width, height: meta.height }).toEqual({
        width: made.width,
        height: made.height,
      });
    }
  });

  it("escapes names, so markup in a name is text and the file still parses", async () => {
    const { svg } = buildTreeSvg(await input({ title: `Tom & Jerry "Q" 'x' <b>` }));
    expect(svg.includes("<script")).toBe(false);
    // Names are as wide as their node allows (lib/tree/layout.ts): this one is shortened.
    expect(svg).toContain(">&lt;script&gt;alert(1)&lt;/sc…</text>");
    expect(svg).toContain(">Tom &amp; Jerry &quot;Q&quot; &apos;x&apos;</text>");
    expect(svg).toContain("<title>Tom &amp; Jerry &quot;Q&quot; &apos;x&apos; &lt;b&gt;</title>");
    // Characters XML cannot hold at all are dropped, not written.
    expect(svg).toContain(">Cassandra</text>");
    expect(svg).toContain(">Goth</text>");
    expect(svg).not.toMatch(/[\u0000-\u0008]/);
    // A real SVG parser (librsvg through sharp) reads the whole file and draws it.
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    expect((await sharp(png).metadata()).format).toBe("png");
  });

  it("embeds the font as a base64 @font-face used by every name", async () => {
    const { svg } = buildTreeSvg(await input());
    expect(svg).toContain(`@font-face{font-family:"${EXPORT_FONT_FAMILY}";src:url(${FONT_URI})`);
    expect(svg).toContain(`text{font-family:"${EXPORT_FONT_FAMILY}"`);
    expect(svg).not.toMatch(/url\((?!data:|#)/);
  });

  it("embeds each distinct avatar once, and the default avatar for Sims without one", async () => {
    const base = await input();
    const { svg } = buildTreeSvg(base);
    for (const uri of base.avatars.values()) {
      expect(svg.split(uri).length - 1).toBe(1);
    }
    expect(svg.match(/<pattern /g)).toHaveLength(3);
    // Bella is drawn in her node: her pattern fills a circle of the avatar's radius.
    expect(svg).toMatch(/<circle r="\d+" fill="url\(#av\d\)"\/>/);
    // No address outside the file: every href is a data: URI.
    for (const [, href] of svg.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^data:/);
    // Drawn, the avatar's colour is there: the pixel at Bella's avatar centre is red.
    const { layout } = base;
    const root = layout.nodes[0]!;
    const rect = wholeTreeRect(layout);
    const png = sharp(Buffer.from(svg)).raw();
    const { data, info } = await png.toBuffer({ resolveWithObject: true });
    const slot = { x: root.x - rect.minX - 35, y: root.y - rect.minY };
    // Bella's slot is left of the centre; find her avatar by scanning that row for red.
    const row = Math.round(slot.y);
    let red = 0;
    for (let x = 0; x < info.width; x += 1) {
      const i = (row * info.width + x) * info.channels;
      if (data[i]! > 150 && data[i + 1]! < 60 && data[i + 2]! < 60) red += 1;
    }
    expect(red).toBeGreaterThan(20);
  });

  it("lists the avatars of the drawn part only", () => {
    const { people, layout } = family();
    expect(avatarKeysInRect(layout, people, wholeTreeRect(layout))).toEqual(
      new Set(["avatar/bella.png", "avatar/mortimer.png", DEFAULT_AVATAR_KEY]),
    );
    const children = layout.nodes.filter((n) => n.depth === 1);
    const child = children[0]!;
    const rect = { minX: child.x - 10, maxX: child.x + 10, minY: child.y - 10, maxY: child.y + 10 };
    expect(avatarKeysInRect(layout, people, rect)).toEqual(new Set([DEFAULT_AVATAR_KEY]));
  });

  it("draws only the nodes in a visible part, at that part's size", async () => {
    const base = await input();
    const child = base.layout.nodes.find((n) => n.depth === 1)!;
    const rect = {
      minX: child.x - 100,
      maxX: child.x + 100,
      minY: child.y - 60,
      maxY: child.y + 60,
    };
    const made = buildTreeSvg({ ...base, rect, scale: 2 });
    expect(made).toMatchObject({ width: 400, height: 240 });
    expect(made.svg).not.toContain(">Bella<");
    expect(made.svg.match(/<g transform="translate\([^)]*\)"><rect /g)).toHaveLength(1);
  });

  it("builds a 10,000-Sim legacy with every Sim's name", async () => {
    const legacy = generateLegacy({ sims: 10_000, seed: 7 });
    const people = new Map(legacy.people.map((p) => [p._id, p]));
    const layout = layoutTree(legacy.data, people);
    const { svg } = buildTreeSvg({
      ...(await input()),
      layout,
      people,
      rect: wholeTreeRect(layout),
    });
    expect(
      svg.match(/<text y="\d+" text-anchor="middle" font-size="11" font-weight="600"/g),
    ).toHaveLength(legacy.people.length);
  });
});

describe("escapeXml", () => {
  it.each([
    ["a & b", "a &amp; b"],
    ["<b>", "&lt;b&gt;"],
    [`"'`, "&quot;&apos;"],
    ["emoji 🌳 stays", "emoji 🌳 stays"],
    ["bell\u0007", "bell"],
  ])("%j → %j", (text, escaped) => expect(escapeXml(text)).toBe(escaped));
});

describe("exportScale", () => {
  const rect = (w: number, h: number) => ({ minX: 0, maxX: w, minY: 0, maxY: h });

  it("keeps the chosen scale when the PNG fits", () => {
    expect(exportScale(rect(2000, 1000), 2, "png")).toEqual({
      scale: 2,
      clamped: false,
      width: 4000,
      height: 2000,
    });
  });

  it("lowers a PNG's scale to fit the widest canvas Chromium makes, and says so", () => {
    const made = exportScale(rect(37_887, 3_528), 1, "png");
    expect(made.clamped).toBe(true);
    expect(made.width).toBeLessThanOrEqual(CANVAS_LIMITS.maxSide);
    expect(made.width).toBeGreaterThan(CANVAS_LIMITS.maxSide - 10);
  });

  it("lowers a PNG's scale to fit Chromium's canvas area", () => {
    const made = exportScale(rect(20_000, 20_000), 1, "png");
    expect(made.clamped).toBe(true);
    expect(made.width * made.height).toBeLessThanOrEqual(CANVAS_LIMITS.maxArea);
    expect(made.width * made.height).toBeGreaterThan(CANVAS_LIMITS.maxArea * 0.99);
  });

  it("never lowers an SVG's scale, and keeps scales within 0.5× to 4×", () => {
    expect(exportScale(rect(37_887, 3_528), 1, "svg")).toMatchObject({ scale: 1, clamped: false });
    expect(exportScale(rect(100, 100), 9, "svg").scale).toBe(4);
    expect(exportScale(rect(100, 100), 0.1, "png").scale).toBe(0.5);
  });

  it("rounds sizes to whole pixels", () => {
    expect(pixelSize(rect(100.4, 10.6), 1.5)).toEqual({ width: 151, height: 16 });
  });
});
