import { nameChars, PARTNER_TYPE_LABELS, truncate } from "@/components/tree-canvas/labels";
import type { Person } from "@/lib/schemas/person";
import type { PartnerType } from "@/lib/schemas/tree";
import {
  itemsInRect,
  LAYOUT,
  nodeGeometry,
  type Bounds,
  type FamilyLink,
  type LayoutNode,
  type TreeLayout,
} from "@/lib/tree/layout";

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
/** The avatar key of Sims without an avatar (the default avatar). */
export const DEFAULT_AVATAR_KEY = "";

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

// XML 1.0 refuses these code points even as character references; a name holding one would make
// the whole file unreadable, so they are dropped (lone surrogates included).
const NOT_XML_CHAR =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Text or an attribute value made safe to place inside an SVG (XML) document. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML_CHAR, "").replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

const num = (value: number) => String(Math.round(value * 100) / 100);

/** The people the drawn nodes show, as avatar keys: the images a file must embed. */
export function avatarKeysInRect(
  layout: TreeLayout,
  people: ReadonlyMap<string, Person>,
  rect: Bounds,
): Set<string> {
  const keys = new Set<string>();
  for (const laid of nodesInRect(layout, rect)) {
    for (const slot of nodeGeometry(laid.node, people).slots) {
      const person = slot.personId ? people.get(slot.personId) : undefined;
      if (person) keys.add(person.avatar ?? DEFAULT_AVATAR_KEY);
    }
  }
  return keys;
}

function nodesInRect(layout: TreeLayout, rect: Bounds): LayoutNode[] {
  return containsBounds(rect, layout.bounds) ? layout.nodes : itemsInRect(layout, rect).nodes;
}

function linksInRect(layout: TreeLayout, rect: Bounds): FamilyLink[] {
  return containsBounds(rect, layout.bounds) ? layout.links : itemsInRect(layout, rect).links;
}

const containsBounds = (outer: Bounds, inner: Bounds) =>
  outer.minX <= inner.minX &&
  outer.maxX >= inner.maxX &&
  outer.minY <= inner.minY &&
  outer.maxY >= inner.maxY;

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

  out.push(`<g fill="none" stroke="${EXPORT_COLORS.link}" stroke-width="2">`);
  for (const link of linksInRect(layout, rect)) out.push(`<path d="${link.d}"/>`);
  out.push("</g>");

  for (const laid of nodesInRect(layout, rect)) {
    const { width: boxWidth, slots } = nodeGeometry(laid.node, people);
    out.push(
      `<g transform="translate(${num(laid.x)},${num(laid.y)})">`,
      `<rect x="${num(-boxWidth / 2)}" y="${-nodeHeight / 2}" width="${num(boxWidth)}" height="${nodeHeight}" rx="14" fill="${EXPORT_COLORS.box}" stroke="${EXPORT_COLORS.boxStroke}" stroke-width="1.5"/>`,
    );
    const nameY = nodeHeight / 2 + 14;
    for (const slot of slots) {
      const person = slot.personId ? people.get(slot.personId) : undefined;
      const { r, dx } = slot;
      if (!person) {
        out.push(
          `<g transform="translate(${num(dx)},0)"><circle r="${r}" fill="${EXPORT_COLORS.placeholder}" stroke="${EXPORT_COLORS.boxStroke}" stroke-width="2" stroke-dasharray="4 3"/>`,
          `<text y="5" text-anchor="middle" font-size="15" font-weight="600" fill="${EXPORT_COLORS.placeholderText}">?</text></g>`,
        );
        continue;
      }
      const pattern = patternFor(person.avatar ?? DEFAULT_AVATAR_KEY);
      const chars = nameChars(r);
      out.push(
        `<g transform="translate(${num(dx)},0)">`,
        `<circle r="${r + 2}" fill="#fff" stroke="${EXPORT_COLORS.boxStroke}" stroke-width="2"/>`,
        pattern ? `<circle r="${r}" fill="url(#${pattern})"/>` : "",
        `<text y="${nameY}" text-anchor="middle" font-size="11" font-weight="600" fill="${EXPORT_COLORS.firstName}">${escapeXml(truncate(person.firstName, chars))}</text>`,
        `<text y="${nameY + 13}" text-anchor="middle" font-size="11" fill="${EXPORT_COLORS.lastName}">${escapeXml(truncate(person.lastName, chars))}</text>`,
        "</g>",
      );
    }
    for (const slot of slots) {
      if (slot.partnerType && slot.markDx !== undefined) {
        out.push(partnerMark(slot.partnerType, slot.markDx));
      }
    }
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
