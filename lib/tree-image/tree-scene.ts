import type { Person } from "@/lib/schemas/person";
import type { PartnerType } from "@/lib/schemas/tree";
import {
  itemsInRect,
  nodeGeometry,
  type Bounds,
  type FamilyLink,
  type LayoutNode,
  type TreeLayout,
} from "@/lib/tree/layout";
import { buildKinship } from "@/lib/tree/placements";
import { fitText } from "@/lib/tree/text-width";

/** The avatar key of Sims without an avatar (the default avatar). */
export const DEFAULT_AVATAR_KEY = "";

/** A Sim drawn in a slot: the avatar to show and the names as written under it. */
export interface ScenePerson {
  avatarKey: string;
  firstName: string;
  lastName: string;
}

/** One avatar place of a node, relative to the node's centre; `person` null for a placeholder. */
export interface SceneSlot {
  dx: number;
  r: number;
  person: ScenePerson | null;
  /** How many other nodes the Sim is drawn in: the "also in N other places" marker. */
  others?: number;
}

export interface SceneNode {
  /** Centre of the node's box. */
  x: number;
  y: number;
  width: number;
  slots: SceneSlot[];
  /** The partner-type marks, relative to the node's centre. */
  marks: { type: PartnerType; dx: number }[];
}

/**
 * What an exported image shows, whatever it is written as: the connectors (SVG path data, in
 * layout coordinates) under the nodes. The SVG writer and the PNG painter both draw this, so the
 * two formats show the same picture.
 */
export interface TreeScene {
  links: string[];
  /** Drops to adopted children, drawn dashed. */
  adoptedLinks?: string[];
  nodes: SceneNode[];
}

// XML 1.0 refuses these code points even as character references; a name holding one would make
// an SVG unreadable, so they are dropped from both formats (lone surrogates included).
const NOT_XML_CHAR =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text without the characters XML cannot hold. */
export function dropNonXmlChars(text: string): string {
  return text.replace(NOT_XML_CHAR, "");
}

const containsBounds = (outer: Bounds, inner: Bounds) =>
  outer.minX <= inner.minX &&
  outer.maxX >= inner.maxX &&
  outer.minY <= inner.minY &&
  outer.maxY >= inner.maxY;

function nodesInRect(layout: TreeLayout, rect: Bounds): LayoutNode[] {
  return containsBounds(rect, layout.bounds) ? layout.nodes : itemsInRect(layout, rect).nodes;
}

function linksInRect(layout: TreeLayout, rect: Bounds): FamilyLink[] {
  return containsBounds(rect, layout.bounds) ? layout.links : itemsInRect(layout, rect).links;
}

/** The nodes and connectors inside `rect`, drawn like the editor's canvas without its buttons. */
export function treeScene(
  layout: TreeLayout,
  people: ReadonlyMap<string, Person>,
  rect: Bounds,
): TreeScene {
  const nodes: SceneNode[] = [];
  const root = layout.nodes[0];
  const placements = root ? buildKinship(root.node).placements : new Map<string, never[]>();
  const othersOf = (personId: string) =>
    new Set((placements.get(personId) ?? []).map((p) => p.nodeKey)).size - 1;
  for (const laid of nodesInRect(layout, rect)) {
    const { width, slots } = nodeGeometry(laid.node, people);
    const sceneSlots: SceneSlot[] = [];
    const marks: SceneNode["marks"] = [];
    for (const slot of slots) {
      const person = slot.personId ? people.get(slot.personId) : undefined;
      sceneSlots.push({
        dx: slot.dx,
        r: slot.r,
        person: person
          ? {
              avatarKey: person.avatar ?? DEFAULT_AVATAR_KEY,
              firstName: dropNonXmlChars(fitText(person.firstName, slot.nameWidth, true)),
              lastName: dropNonXmlChars(fitText(person.lastName, slot.nameWidth)),
            }
          : null,
        ...(person && slot.personId && othersOf(slot.personId) > 0
          ? { others: othersOf(slot.personId) }
          : {}),
      });
      if (slot.partnerType && slot.markDx !== undefined) {
        marks.push({ type: slot.partnerType, dx: slot.markDx });
      }
    }
    nodes.push({ x: laid.x, y: laid.y, width, slots: sceneSlots, marks });
  }
  const links = linksInRect(layout, rect);
  return {
    links: links.map((link) => link.d),
    adoptedLinks: links.map((link) => link.adoptedD).filter((d) => d !== ""),
    nodes,
  };
}

/** The avatar keys a scene shows: the images a file must embed. */
export function sceneAvatarKeys(scene: TreeScene): Set<string> {
  const keys = new Set<string>();
  for (const node of scene.nodes) {
    for (const slot of node.slots) if (slot.person) keys.add(slot.person.avatarKey);
  }
  return keys;
}
