import { PARTNER_TYPE_LABELS } from "@/lib/tree/labels";
import type { Person } from "@/lib/schemas/person";
import type { PartnerType } from "@/lib/schemas/tree";
import { LAYOUT, type Bounds, type TreeLayout } from "@/lib/tree/layout";
import {
  DEFAULT_AVATAR_KEY,
  dropNonXmlChars,
  sceneAvatarKeys,
  treeScene,
  type TreeScene,
} from "./tree-scene";

export { DEFAULT_AVATAR_KEY };

/** The colours of the editor's canvas (app/globals.css), written out: the file has no Tailwind. */
export const EXPORT_COLORS = {
  background: "#faf5fa",
  box: "#ffffff",
  boxStroke: "#e6cfe6",
  link: "#8e4a8e",
  mark: "#743b74",
  exMark: "#737373",
  firstName: "#171717",
  lastName: "#525252",
  placeholder: "#faf5fa",
  placeholderText: "#8e4a8e",
} as const;

/** The family name of the embedded font inside exported files. */
export const EXPORT_FONT_FAMILY = "Heirloom Export";
/** Layout units of empty space around the exported part of the tree. */
export const EXPORT_MARGIN = 24;

/** The corner radius of a node's box. */
export const EXPORT_BOX_RADIUS = 14;

export type ExportRegion = "whole" | "visible";

export interface TreeSvgInput {
  layout: TreeLayout;
  people: ReadonlyMap<string, Person>;
  /** The part of the tree to draw, in layout coordinates (margins already included). */
  rect: Bounds;
  /** Output pixels per layout unit. */
  scale: number;
  /** The accessible title of the image. */
  title: string;
  /** The font file as a data: URI, or null to fall back to the viewer's sans-serif. */
  fontDataUri: string | null;
  /** Avatar key (the stored file name, or DEFAULT_AVATAR_KEY) → data: URI. */
  avatars: ReadonlyMap<string, string>;
  /** The scene of `layout` in `rect`, when already worked out. */
  scene?: TreeScene;
}

export interface TreeSvg {
  svg: string;
  width: number;
  height: number;
}

/** The rectangle of the whole tree, with a margin. */
export function wholeTreeRect(layout: TreeLayout): Bounds {
  const { minX, maxX, minY, maxY } = layout.bounds;
  return {
    minX: minX - EXPORT_MARGIN,
    maxX: maxX + EXPORT_MARGIN,
    minY: minY - EXPORT_MARGIN,
    maxY: maxY + EXPORT_MARGIN,
  };
}

/** Output size in whole pixels (at least 1) of a rectangle at a scale. */
export function pixelSize(rect: Bounds, scale: number): { width: number; height: number } {
  return {
    width: Math.max(1, Math.round((rect.maxX - rect.minX) * scale)),
    height: Math.max(1, Math.round((rect.maxY - rect.minY) * scale)),
  };
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Text or an attribute value made safe to place inside an SVG (XML) document. */
export function escapeXml(text: string): string {
  return dropNonXmlChars(text).replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

const num = (value: number) => String(Math.round(value * 100) / 100);

/** The people the drawn nodes show, as avatar keys: the images a file must embed. */
export function avatarKeysInRect(
  layout: TreeLayout,
  people: ReadonlyMap<string, Person>,
  rect: Bounds,
): Set<string> {
  return sceneAvatarKeys(treeScene(layout, people, rect));
}

/** The "also in N other places" marker's colour (the canvas's sky-700). */
export const OTHER_PLACES_FILL = "#0369a1";

/** The partner-type marks of the canvas (components/tree-canvas/tree-node.tsx), as markup. */
function partnerMark(type: PartnerType, x: number): string {
  let glyph: string;
  switch (type) {
    case "PARTNER":
      glyph = `<path d="M-5,0H5M0,-5V5" stroke="${EXPORT_COLORS.mark}" stroke-width="2"/>`;
      break;
    case "EX_PARTNER":
      glyph = `<path d="M-5,0H5M0,-5V5" transform="rotate(45)" stroke="${EXPORT_COLORS.exMark}" stroke-width="2"/>`;
      break;
    case "MARRIED":
      glyph = `<path d="M-5.5,3.5V-3.5L-2.75,0L0,-4.5L2.75,0L5.5,-3.5V3.5Z" fill="#d4a017"/>`;
      break;
    case "ABDUCTION":
      glyph =
        `<path d="M0,-6C4.5,-6 5.5,-2 4,1.5C2.8,4.2 1.2,6 0,6C-1.2,6 -2.8,4.2 -4,1.5C-5.5,-2 -4.5,-6 0,-6Z" fill="#5fb760"/>` +
        `<ellipse cx="-2" cy="-0.5" rx="1.6" ry="1" transform="rotate(30 -2 -0.5)" fill="#1f2937"/>` +
        `<ellipse cx="2" cy="-0.5" rx="1.6" ry="1" transform="rotate(-30 2 -0.5)" fill="#1f2937"/>`;
      break;
  }
  return (
    `<g transform="translate(${num(x)},0)"><title>${PARTNER_TYPE_LABELS[type]}</title>` +
    `<circle r="${LAYOUT.markRadius}" fill="#fff" stroke="${EXPORT_COLORS.boxStroke}" stroke-width="1.5"/>${glyph}</g>`
  );
}

/**
 * The tree (or a part of it) as a standalone SVG document, drawn from the layout like the
 * editor's canvas (boxes, avatars, names, partner marks and connectors) without its buttons.
 * Each distinct avatar is embedded once, as a pattern every circle showing it fills with.
 */
export function buildTreeSvg(input: TreeSvgInput): TreeSvg {
  const { layout, people, rect, scale, avatars } = input;
  const { width, height } = pixelSize(rect, scale);
  const { nodeHeight } = LAYOUT;
  const out: string[] = [];

  const patternIds = new Map<string, string>();
  const patterns: string[] = [];
  const patternFor = (key: string): string | null => {
    let id = patternIds.get(key);
    if (id === undefined) {
      const uri = avatars.get(key) ?? avatars.get(DEFAULT_AVATAR_KEY);
      if (!uri) return null;
      id = `av${patternIds.size}`;
      patternIds.set(key, id);
      patterns.push(
        `<pattern id="${id}" width="1" height="1" patternContentUnits="objectBoundingBox">` +
          `<image href="${escapeXml(uri)}" width="1" height="1" preserveAspectRatio="xMidYMid slice"/></pattern>`,
      );
    }
    return id;
  };

  const scene = input.scene ?? treeScene(layout, people, rect);
  out.push(`<g fill="none" stroke="${EXPORT_COLORS.link}" stroke-width="2">`);
  for (const d of scene.links) out.push(`<path d="${d}"/>`);
  for (const d of scene.adoptedLinks ?? []) out.push(`<path d="${d}" stroke-dasharray="6 4"/>`);
  out.push("</g>");

  const nameY = nodeHeight / 2 + 14;
  for (const node of scene.nodes) {
    out.push(
      `<g transform="translate(${num(node.x)},${num(node.y)})">`,
      `<rect x="${num(-node.width / 2)}" y="${-nodeHeight / 2}" width="${num(node.width)}" height="${nodeHeight}" rx="${EXPORT_BOX_RADIUS}" fill="${EXPORT_COLORS.box}" stroke="${EXPORT_COLORS.boxStroke}" stroke-width="1.5"/>`,
    );
    for (const { dx, r, person, others } of node.slots) {
      if (!person) {
        out.push(
          `<g transform="translate(${num(dx)},0)"><circle r="${r}" fill="${EXPORT_COLORS.placeholder}" stroke="${EXPORT_COLORS.boxStroke}" stroke-width="2" stroke-dasharray="4 3"/>`,
          `<text y="5" text-anchor="middle" font-size="15" font-weight="600" fill="${EXPORT_COLORS.placeholderText}">?</text></g>`,
        );
        continue;
      }
      const pattern = patternFor(person.avatarKey);
      out.push(
        `<g transform="translate(${num(dx)},0)">`,
        `<circle r="${r + 2}" fill="#fff" stroke="${EXPORT_COLORS.boxStroke}" stroke-width="2"/>`,
        pattern ? `<circle r="${r}" fill="url(#${pattern})"/>` : "",
        `<text y="${nameY}" text-anchor="middle" font-size="11" font-weight="600" fill="${EXPORT_COLORS.firstName}">${escapeXml(person.firstName)}</text>`,
        `<text y="${nameY + 13}" text-anchor="middle" font-size="11" fill="${EXPORT_COLORS.lastName}">${escapeXml(person.lastName)}</text>`,
        others
          ? `<g transform="translate(${num(r * 0.78)},${num(r * 0.62)})" data-other-places="${others}"><title>also in ${others} other ${others === 1 ? "place" : "places"}</title><rect x="-11" y="-8" width="22" height="16" rx="8" fill="${OTHER_PLACES_FILL}" stroke="#fff" stroke-width="1.5"/><text y="3.5" text-anchor="middle" font-size="10" font-weight="600" fill="#fff">+${others}</text></g>`
          : "",
        "</g>",
      );
    }
    for (const mark of node.marks) out.push(partnerMark(mark.type, mark.dx));
    out.push("</g>");
  }

  const font = input.fontDataUri
    ? `@font-face{font-family:"${EXPORT_FONT_FAMILY}";src:url(${input.fontDataUri}) format("truetype");font-weight:400;font-style:normal}`
    : "";
  const viewBox = `${num(rect.minX)} ${num(rect.minY)} ${num(rect.maxX - rect.minX)} ${num(rect.maxY - rect.minY)}`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${viewBox}" role="img">` +
    `<title>${escapeXml(input.title)}</title>` +
    `<style>${font}text{font-family:"${EXPORT_FONT_FAMILY}",system-ui,sans-serif}</style>` +
    `<defs>${patterns.join("")}</defs>` +
    `<rect x="${num(rect.minX)}" y="${num(rect.minY)}" width="${num(rect.maxX - rect.minX)}" height="${num(rect.maxY - rect.minY)}" fill="${EXPORT_COLORS.background}"/>` +
    out.join("") +
    "</svg>";
  return { svg, width, height };
}
