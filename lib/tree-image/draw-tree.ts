import type { PartnerType } from "@/lib/schemas/tree";
import { LAYOUT, type Bounds } from "@/lib/tree/layout";
import { DEFAULT_AVATAR_KEY, type TreeScene } from "./tree-scene";
import {
  EXPORT_BOX_RADIUS,
  EXPORT_COLORS,
  EXPORT_FONT_FAMILY,
  OTHER_PLACES_FILL,
} from "./tree-svg";

/** An avatar ready to draw: a decoded bitmap, or an <img> (the default avatar is an SVG). */
export type AvatarImage = CanvasImageSource & { width: number; height: number };

/** The subset of the 2D context the painter uses (a canvas's, an OffscreenCanvas's, or a fake). */
export type PaintContext = Pick<
  CanvasRenderingContext2D,
  | "setTransform"
  | "translate"
  | "rotate"
  | "save"
  | "restore"
  | "beginPath"
  | "arc"
  | "ellipse"
  | "roundRect"
  | "rect"
  | "fill"
  | "stroke"
  | "clip"
  | "fillRect"
  | "fillText"
  | "drawImage"
  | "setLineDash"
  | "fillStyle"
  | "strokeStyle"
  | "lineWidth"
  | "font"
  | "textAlign"
  | "textBaseline"
>;

export interface PaintTreeInput {
  scene: TreeScene;
  /** The part of the tree drawn, in layout coordinates. */
  rect: Bounds;
  /** Output pixels per layout unit. */
  scale: number;
  /** Avatar key → image; a key without one shows the default avatar (if any). */
  images: ReadonlyMap<string, AvatarImage>;
  /** Builds a Path2D from SVG path data (injected so the painter runs without a DOM in tests). */
  path: (d: string) => Path2D;
}

const FONT_STACK = `"${EXPORT_FONT_FAMILY}",system-ui,sans-serif`;
/** The canvas font of the SVG's <text> elements of that size and weight. */
export const exportFont = (size: number, weight: 400 | 600 = 400) =>
  `${weight === 600 ? "600 " : ""}${size}px ${FONT_STACK}`;

function circle(context: PaintContext, x: number, y: number, r: number) {
  context.beginPath();
  context.arc(x, y, r, 0, 2 * Math.PI);
}

/** The image drawn to fill a circle, cropped to its centre (SVG's preserveAspectRatio slice). */
function drawAvatar(context: PaintContext, image: AvatarImage, x: number, y: number, r: number) {
  const side = 2 * r;
  const fit = Math.max(side / (image.width || side), side / (image.height || side));
  const w = (image.width || side) * fit;
  const h = (image.height || side) * fit;
  context.save();
  circle(context, x, y, r);
  context.clip();
  context.drawImage(image, x - w / 2, y - h / 2, w, h);
  context.restore();
}

/** The partner-type marks of tree-svg.ts's partnerMark, painted. */
function paintMark(
  context: PaintContext,
  type: PartnerType,
  x: number,
  y: number,
  input: PaintTreeInput,
) {
  context.save();
  context.translate(x, y);
  circle(context, 0, 0, LAYOUT.markRadius);
  context.fillStyle = "#fff";
  context.fill();
  context.strokeStyle = EXPORT_COLORS.boxStroke;
  context.lineWidth = 1.5;
  context.stroke();
  switch (type) {
    case "PARTNER":
    case "EX_PARTNER":
      if (type === "EX_PARTNER") context.rotate(Math.PI / 4);
      context.strokeStyle = type === "PARTNER" ? EXPORT_COLORS.mark : EXPORT_COLORS.exMark;
      context.lineWidth = 2;
      context.stroke(input.path("M-5,0H5M0,-5V5"));
      break;
    case "MARRIED":
      context.fillStyle = "#d4a017";
      context.fill(input.path("M-5.5,3.5V-3.5L-2.75,0L0,-4.5L2.75,0L5.5,-3.5V3.5Z"));
      break;
    case "ABDUCTION":
      context.fillStyle = "#5fb760";
      context.fill(
        input.path(
          "M0,-6C4.5,-6 5.5,-2 4,1.5C2.8,4.2 1.2,6 0,6C-1.2,6 -2.8,4.2 -4,1.5C-5.5,-2 -4.5,-6 0,-6Z",
        ),
      );
      context.fillStyle = "#1f2937";
      for (const side of [-1, 1]) {
        context.beginPath();
        context.ellipse(2 * side, -0.5, 1.6, 1, (-side * Math.PI) / 6, 0, 2 * Math.PI);
        context.fill();
      }
      break;
  }
  context.restore();
}

/**
 * Paints a scene on a 2D canvas exactly as tree-svg.ts writes it (same colours, sizes, font and
 * order), so a PNG is made without rasterising a whole SVG document.
 */
export function paintTree(context: PaintContext, input: PaintTreeInput): void {
  const { scene, rect, scale, images } = input;
  const { nodeHeight } = LAYOUT;
  context.setTransform(scale, 0, 0, scale, -rect.minX * scale, -rect.minY * scale);
  context.fillStyle = EXPORT_COLORS.background;
  context.fillRect(rect.minX, rect.minY, rect.maxX - rect.minX, rect.maxY - rect.minY);

  if (scene.links.length > 0) {
    context.strokeStyle = EXPORT_COLORS.link;
    context.lineWidth = 2;
    context.stroke(input.path(scene.links.join("")));
    if (scene.adoptedLinks?.length) {
      context.setLineDash([6, 4]);
      context.stroke(input.path(scene.adoptedLinks.join("")));
      context.setLineDash([]);
    }
  }

  context.textAlign = "center";
  context.textBaseline = "alphabetic";
  const nameY = nodeHeight / 2 + 14;
  const fallback = images.get(DEFAULT_AVATAR_KEY);
  for (const node of scene.nodes) {
    context.beginPath();
    context.roundRect(
      node.x - node.width / 2,
      node.y - nodeHeight / 2,
      node.width,
      nodeHeight,
      EXPORT_BOX_RADIUS,
    );
    context.fillStyle = EXPORT_COLORS.box;
    context.fill();
    context.strokeStyle = EXPORT_COLORS.boxStroke;
    context.lineWidth = 1.5;
    context.stroke();

    for (const { dx, r, person, others } of node.slots) {
      const x = node.x + dx;
      const y = node.y;
      context.lineWidth = 2;
      context.strokeStyle = EXPORT_COLORS.boxStroke;
      if (!person) {
        circle(context, x, y, r);
        context.fillStyle = EXPORT_COLORS.placeholder;
        context.fill();
        context.setLineDash([4, 3]);
        context.stroke();
        context.setLineDash([]);
        context.font = exportFont(15, 600);
        context.fillStyle = EXPORT_COLORS.placeholderText;
        context.fillText("?", x, y + 5);
        continue;
      }
      circle(context, x, y, r + 2);
      context.fillStyle = "#fff";
      context.fill();
      context.stroke();
      const image = images.get(person.avatarKey) ?? fallback;
      if (image) drawAvatar(context, image, x, y, r);
      context.font = exportFont(11, 600);
      context.fillStyle = EXPORT_COLORS.firstName;
      context.fillText(person.firstName, x, y + nameY);
      context.font = exportFont(11);
      context.fillStyle = EXPORT_COLORS.lastName;
      context.fillText(person.lastName, x, y + nameY + 13);
      if (others) {
        const mx = x + r * 0.78;
        const my = y + r * 0.62;
        context.beginPath();
        context.roundRect(mx - 11, my - 8, 22, 16, 8);
        context.fillStyle = OTHER_PLACES_FILL;
        context.fill();
        context.strokeStyle = "#fff";
        context.lineWidth = 1.5;
        context.stroke();
        context.font = exportFont(10, 600);
        context.fillStyle = "#fff";
        context.fillText(`+${others}`, mx, my + 3.5);
      }
    }
    for (const mark of node.marks) paintMark(context, mark.type, node.x + mark.dx, node.y, input);
  }
}
