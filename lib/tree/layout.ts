import { hierarchy, tree, type HierarchyPointNode } from "d3-hierarchy";
import type { Person } from "@/lib/schemas/person";
import type { PartnerType, TreeNode } from "@/lib/schemas/tree";
import { textWidth } from "./text-width";

/** Layout constants of SPEC.md section 9, plus the drawing details they imply. */
export const LAYOUT = {
  nodeSpacing: [200, 80] as const,
  siblingSeparation: 1,
  cousinSeparation: 1.2,
  generationDepth: 170,
  nodeWidth: 160,
  nodeHeight: 80,
  buttonRadius: 14,
  avatarRadius: 30,
  smallAvatarRadius: 20,
  partnerPadding: 10,
  /** The widest a name column gets; a longer name is shortened, whole in its tooltip. */
  nameMaxWidth: 132,
  /** Room between two people's names. */
  nameGap: 10,
  /** The partner-type mark sits on the gap before a partner row's first person. */
  markRadius: 9,
  /** Room under a node's box for the names. */
  nameSpace: 34,
  linkListWidth: 198,
  linkItemHeight: 48,
} as const;

/** One person's place inside a node, relative to the node's centre. */
export interface LayoutSlot {
  /** null for the placeholder of a node without a (known) person. */
  personId: string | null;
  dx: number;
  r: number;
  /** -1 for the node's own person, otherwise the partner row it belongs to. */
  row: number;
  /** On the first person of a partner row: the row's type and where its mark is drawn. */
  partnerType?: PartnerType;
  markDx?: number;
  /** The width the slot's names may take. */
  nameWidth: number;
}

export interface NodeGeometry {
  width: number;
  slots: LayoutSlot[];
}

export interface LayoutNode {
  /** Position in `TreeLayout.nodes` (breadth first, so each generation is a contiguous run). */
  index: number;
  /** The node's path joined with "." ("" for the root): stable across relayouts, a React key. */
  key: string;
  depth: number;
  /** Index of the parent, -1 for the root. */
  parent: number;
  /** Centre of the node's box. */
  x: number;
  y: number;
  width: number;
  node: TreeNode;
}

/** The connector from one node down to all of its (not hidden) children, as one SVG path. */
export interface FamilyLink {
  parent: number;
  /** The parent's key: stable across relayouts. */
  parentKey: string;
  depth: number;
  /** The SVG path, made when first read: only the links on screen (or exported) need one. */
  readonly d: string;
  /** The drops to adopted children, drawn dashed (issue 15); "" when there are none. */
  readonly adoptedD: string;
  /** Horizontal extent of the children, used to find the links in view. */
  minX: number;
  maxX: number;
}

export interface Bounds {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

interface Row {
  start: number;
  end: number;
  maxHalfWidth: number;
}

export interface TreeLayout {
  nodes: LayoutNode[];
  links: FamilyLink[];
  /** Per generation: the run of `nodes`, and the run of `links` whose parent is there. */
  nodeRows: Row[];
  linkRows: { start: number; end: number }[];
  bounds: Bounds;
}

/**
 * The name column of a person: as wide as their longer name line, within nameMaxWidth. textWidth
 * measures each distinct name once.
 */
export function nameColumn(person: Person | undefined): number {
  if (!person) return 0;
  return Math.min(
    LAYOUT.nameMaxWidth,
    Math.ceil(Math.max(textWidth(person.firstName, true), textWidth(person.lastName))),
  );
}

interface Column {
  personId: string | null;
  r: number;
  /** Half the room the slot needs: its avatar or its names, whichever is wider. */
  half: number;
  row: number;
  partnerType?: PartnerType;
}

/** The node's people in order, each with its avatar radius and the room its names need. */
function columns(node: TreeNode, people: ReadonlyMap<string, Person>): Column[] {
  const { avatarRadius, smallAvatarRadius } = LAYOUT;
  let rows = 0;
  for (const entry of node.partners) {
    if (entry.people.some((ref) => people.has(ref._id))) rows += 1;
  }
  const radius = rows > 1 ? smallAvatarRadius : avatarRadius;
  const main = node.person ? people.get(node.person._id) : undefined;
  const result: Column[] = [
    {
      personId: main ? node.person!._id : null,
      r: radius,
      half: Math.max(radius, nameColumn(main) / 2),
      row: -1,
    },
  ];
  node.partners.forEach((entry, row) => {
    let first = true;
    for (const ref of entry.people) {
      const person = people.get(ref._id);
      if (!person) continue;
      const r = first ? radius : smallAvatarRadius;
      const column: Column = {
        personId: ref._id,
        r,
        half: Math.max(r, nameColumn(person) / 2),
        row,
      };
      if (first) column.partnerType = entry.type;
      result.push(column);
      first = false;
    }
  });
  return result;
}

/** Distance between the centres of two neighbouring people in a node. */
function step(a: Column, b: Column): number {
  const { partnerPadding, nameGap } = LAYOUT;
  return Math.max(a.r + partnerPadding + b.r, a.half + nameGap + b.half);
}

/**
 * The width of a node's box: its person and partner rows (partners unknown to `people` are left
 * out), each as wide as its avatar or its names, so no name is cut at 1× (issue 15). Only this
 * is needed for the layout; the slots are worked out for the nodes on screen.
 */
export function nodeWidth(node: TreeNode, people: ReadonlyMap<string, Person>): number {
  // The same sum as nodeGeometry's, without its arrays: this runs for every node of the tree.
  const { avatarRadius, smallAvatarRadius, partnerPadding, nameGap } = LAYOUT;
  let rows = 0;
  for (const entry of node.partners) {
    for (const ref of entry.people) {
      if (people.has(ref._id)) {
        rows += 1;
        break;
      }
    }
  }
  const radius = rows > 1 ? smallAvatarRadius : avatarRadius;
  const main = node.person ? people.get(node.person._id) : undefined;
  let r = radius;
  let half = Math.max(radius, nameColumn(main) / 2);
  let content = half;
  for (const entry of node.partners) {
    let first = true;
    for (const ref of entry.people) {
      const person = people.get(ref._id);
      if (!person) continue;
      const nextR = first ? radius : smallAvatarRadius;
      const nextHalf = Math.max(nextR, nameColumn(person) / 2);
      content += Math.max(r + partnerPadding + nextR, half + nameGap + nextHalf);
      r = nextR;
      half = nextHalf;
      first = false;
    }
  }
  content += half;
  return Math.max(LAYOUT.nodeWidth, content + 2 * partnerPadding);
}

/** Where the person and partners of a node go, relative to the node's centre. */
export function nodeGeometry(node: TreeNode, people: ReadonlyMap<string, Person>): NodeGeometry {
  const cols = columns(node, people);
  const centres = [0];
  for (let i = 1; i < cols.length; i += 1) {
    centres.push(centres[i - 1]! + step(cols[i - 1]!, cols[i]!));
  }
  const left = -cols[0]!.half;
  const right = centres[centres.length - 1]! + cols[cols.length - 1]!.half;
  const content = right - left;
  const width = Math.max(LAYOUT.nodeWidth, content + 2 * LAYOUT.partnerPadding);
  const shift = -(left + right) / 2;
  const slots = cols.map((col, i): LayoutSlot => {
    const slot: LayoutSlot = {
      personId: col.personId,
      dx: centres[i]! + shift,
      r: col.r,
      row: col.row,
      nameWidth: Math.max(2 * col.r, 2 * col.half),
    };
    if (col.partnerType && i > 0) {
      slot.partnerType = col.partnerType;
      // The mark sits halfway between the two avatars' rims.
      const previous = cols[i - 1]!;
      slot.markDx = (centres[i - 1]! + previous.r + centres[i]! - col.r) / 2 + shift;
    }
    return slot;
  });
  return { width, slots };
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * A family's connector. Its path is a string of a few dozen characters per child: making it for
 * every family of a 10,000-Sim tree on every relayout cost more than placing the nodes, so it is
 * made on first read. A node's children are a contiguous run of the breadth-first `nodes`.
 */
class Link implements FamilyLink {
  private path: string | undefined;
  private adoptedPath = "";

  constructor(
    private readonly nodes: readonly LayoutNode[],
    readonly parent: number,
    readonly parentKey: string,
    readonly depth: number,
    private readonly firstChild: number,
    private readonly childCount: number,
    readonly minX: number,
    readonly maxX: number,
  ) {}

  get d(): string {
    if (this.path === undefined) {
      const paths = familyPath(this.nodes, this.parent, this.firstChild, this.childCount);
      this.path = paths.d;
      this.adoptedPath = paths.adopted;
    }
    return this.path;
  }

  get adoptedD(): string {
    void this.d;
    return this.adoptedPath;
  }
}

/**
 * Whether a child hangs under its parent node by adoption: the node's Sim is among the child's
 * adoptive parents and not its biological ones, or the child has adoptive parents only.
 */
export function isAdopted(child: TreeNode, parent: TreeNode): boolean {
  if (child.adoptiveParents.length === 0) return false;
  const id = parent.person?._id;
  if (id !== undefined && child.adoptiveParents.some((ref) => ref._id === id)) {
    return !child.parents.some((ref) => ref._id === id);
  }
  return child.parents.length === 0;
}

/**
 * The path from a parent down to its children that are not hidden (there is at least one), and
 * apart from it the drops to adopted children.
 */
function familyPath(
  nodes: readonly LayoutNode[],
  parent: number,
  firstChild: number,
  childCount: number,
): { d: string; adopted: string } {
  const { generationDepth, nodeHeight, nameSpace } = LAYOUT;
  const parentNode = nodes[parent]!;
  const top = parentNode.y + nodeHeight / 2 + nameSpace;
  const childTop = parentNode.y + generationDepth - nodeHeight / 2;
  const middle = round((top + childTop) / 2);
  const xs: number[] = [];
  const adoptedXs: number[] = [];
  for (let i = firstChild; i < firstChild + childCount; i += 1) {
    const child = nodes[i]!;
    if (child.node.hidden) continue;
    const x = round(child.x);
    xs.push(x);
    if (isAdopted(child.node, parentNode.node)) adoptedXs.push(x);
  }
  const first = xs[0]!;
  const last = xs[xs.length - 1]!;
  const px = round(parentNode.x);
  let d = `M${px},${top}V${middle}`;
  if (first !== last || first !== px) {
    d += `M${Math.min(first, px)},${middle}H${Math.max(last, px)}`;
  }
  let adopted = "";
  for (const x of xs) {
    const drop = `M${x},${middle}V${childTop}`;
    if (adoptedXs.includes(x)) adopted += drop;
    else d += drop;
  }
  return { d, adopted };
}

/**
 * Node widths by node object, for one `people` map. The reducers copy only the nodes on the path
 * to an edit and share the rest (lib/tree/reducers.ts), so a relayout after adding a child works
 * out a handful of widths instead of every node's.
 */
let widthCache: { people: ReadonlyMap<string, Person>; widths: WeakMap<TreeNode, number> } | null =
  null;

function widthsFor(people: ReadonlyMap<string, Person>): WeakMap<TreeNode, number> {
  if (widthCache?.people !== people) widthCache = { people, widths: new WeakMap() };
  return widthCache.widths;
}

/** What centreOverLinkedChildren needs of d3's placed nodes. */
interface Placed {
  x: number;
  depth: number;
  width: number;
  data: TreeNode;
  parent: Placed | null;
  children?: Placed[];
}

/**
 * d3 centres a parent over all of its children, hidden ones included, so the connector to its
 * other children ran above the hidden ones as if it linked them too (issue 13: a GEDCOM root over
 * 217 unrelated families). A parent with hidden children is moved over the children it links,
 * as far as its neighbours in the generation leave room (the root always has room).
 */
function centreOverLinkedChildren(ordered: Placed[], siblingGap: number, cousinGap: number): void {
  const gap = (a: Placed, b: Placed) => (a.parent === b.parent ? siblingGap : cousinGap);
  for (let i = 0; i < ordered.length; i += 1) {
    const point = ordered[i]!;
    const children = point.children;
    if (!children?.some((child) => child.data.hidden)) continue;
    let first = Infinity;
    let last = -Infinity;
    for (const child of children) {
      if (child.data.hidden) continue;
      first = Math.min(first, child.x);
      last = Math.max(last, child.x);
    }
    if (first === Infinity) continue;
    let x = (first + last) / 2;
    const left = ordered[i - 1];
    if (left?.depth === point.depth)
      x = Math.max(x, left.x + (left.width + point.width) / 2 + gap(left, point));
    const right = ordered[i + 1];
    if (right?.depth === point.depth) {
      x = Math.min(x, right.x - (right.width + point.width) / 2 - gap(point, right));
    }
    // never past where d3 put it relative to the neighbours: rows stay sorted by x
    if ((x - point.x) * ((first + last) / 2 - point.x) >= 0) point.x = x;
  }
}

/**
 * Positions every node of a tree (d3-hierarchy's tidy tree), with node widths taken into account
 * so nodes widened by partners never overlap, and draws one connector per family.
 */
export function layoutTree(root: TreeNode, people: ReadonlyMap<string, Person>): TreeLayout {
  const { nodeSpacing, generationDepth, nodeHeight, nameSpace, buttonRadius } = LAYOUT;
  // Each node's width and index ride on d3's node objects: a Map or WeakMap lookup per
  // separation call costs more than the whole tidy-tree pass at 10,000 nodes.
  type Sized = HierarchyPointNode<TreeNode> & {
    width: number;
    index: number;
    childIndex: number;
  };
  const rootHierarchy = hierarchy(root, (node) =>
    node.children.length > 0 ? node.children : null,
  );
  const widths = widthsFor(people);
  rootHierarchy.each((node) => {
    let width = widths.get(node.data);
    if (width === undefined) {
      width = nodeWidth(node.data, people);
      widths.set(node.data, width);
    }
    (node as Sized).width = width;
  });

  const siblingGap = LAYOUT.siblingSeparation * nodeSpacing[0] - LAYOUT.nodeWidth;
  const cousinGap = LAYOUT.cousinSeparation * nodeSpacing[0] - LAYOUT.nodeWidth;
  const positioned = tree<TreeNode>()
    .nodeSize([nodeSpacing[0], nodeSpacing[1]])
    .separation(
      (a, b) =>
        ((a as Sized).width / 2 +
          (b as Sized).width / 2 +
          (a.parent === b.parent ? siblingGap : cousinGap)) /
        nodeSpacing[0],
    )(rootHierarchy);

  const ordered = positioned.descendants() as Sized[];
  centreOverLinkedChildren(ordered, siblingGap, cousinGap);
  const nodes: LayoutNode[] = new Array<LayoutNode>(ordered.length);
  const nodeRows: Row[] = [];
  let minX = Infinity;
  let maxX = -Infinity;

  for (let index = 0; index < ordered.length; index += 1) {
    const point = ordered[index]!;
    point.index = index;
    point.children?.forEach((child, childIndex) => {
      child.childIndex = childIndex;
    });
    const { width } = point;
    let parent = -1;
    let key = "";
    if (point.parent) {
      parent = point.parent.index;
      const parentKey = nodes[parent]!.key;
      key = parentKey === "" ? `${point.childIndex}` : `${parentKey}.${point.childIndex}`;
    }
    nodes[index] = {
      index,
      key,
      depth: point.depth,
      parent,
      x: point.x,
      y: point.depth * generationDepth,
      width,
      node: point.data,
    };

    const half = width / 2;
    if (point.x - half < minX) minX = point.x - half;
    if (point.x + half > maxX) maxX = point.x + half;
    const row = nodeRows[point.depth];
    if (row) {
      row.end = index + 1;
      if (half > row.maxHalfWidth) row.maxHalfWidth = half;
    } else {
      nodeRows[point.depth] = { start: index, end: index + 1, maxHalfWidth: half };
    }
  }

  const links: FamilyLink[] = [];
  const linkRows: { start: number; end: number }[] = nodeRows.map(() => ({ start: 0, end: 0 }));
  for (let index = 0; index < ordered.length; index += 1) {
    const children = ordered[index]!.children;
    if (!children) continue;
    if (!children.some((child) => !child.data.hidden)) continue;
    const parentNode = nodes[index]!;
    const firstChild = children[0]!;
    const row = linkRows[parentNode.depth]!;
    if (row.end === 0) row.start = links.length;
    links.push(
      new Link(
        nodes,
        index,
        parentNode.key,
        parentNode.depth,
        firstChild.index,
        children.length,
        firstChild.x,
        children[children.length - 1]!.x,
      ),
    );
    row.end = links.length;
  }

  return {
    nodes,
    links,
    nodeRows,
    linkRows,
    bounds: {
      minX: minX - buttonRadius,
      maxX: maxX + buttonRadius,
      minY: -nodeHeight / 2 - buttonRadius,
      maxY: (nodeRows.length - 1) * generationDepth + nodeHeight / 2 + nameSpace,
    },
  };
}

/** First index in [start, end) whose value is >= target, for values sorted ascending. */
function lowerBound(start: number, end: number, valueAt: (i: number) => number, target: number) {
  let low = start;
  let high = end;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (valueAt(mid) < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The nodes and links that intersect a rectangle of the canvas (in layout coordinates). Each
 * generation is sorted by x, so this costs a binary search per visible generation.
 */
export function itemsInRect(
  layout: TreeLayout,
  rect: Bounds,
): { nodes: LayoutNode[]; links: FamilyLink[] } {
  const { generationDepth, nodeHeight, nameSpace, buttonRadius } = LAYOUT;
  const nodes: LayoutNode[] = [];
  const links: FamilyLink[] = [];
  const below = nodeHeight / 2 + nameSpace;
  const above = nodeHeight / 2 + buttonRadius;
  const firstDepth = Math.max(0, Math.floor((rect.minY - below) / generationDepth));
  const lastDepth = Math.min(
    layout.nodeRows.length - 1,
    Math.ceil((rect.maxY + above) / generationDepth),
  );
  for (let depth = firstDepth; depth <= lastDepth; depth += 1) {
    const row = layout.nodeRows[depth]!;
    const y = depth * generationDepth;
    if (y + below >= rect.minY && y - above <= rect.maxY) {
      const reach = row.maxHalfWidth + buttonRadius;
      const from = lowerBound(row.start, row.end, (i) => layout.nodes[i]!.x + reach, rect.minX);
      for (let i = from; i < row.end; i += 1) {
        const node = layout.nodes[i]!;
        if (node.x - reach > rect.maxX) break;
        const half = node.width / 2 + buttonRadius;
        if (node.x + half >= rect.minX && node.x - half <= rect.maxX) nodes.push(node);
      }
    }
    const linkRow = layout.linkRows[depth];
    const linkTop = y + below;
    const linkBottom = y + generationDepth - nodeHeight / 2;
    if (linkRow && linkRow.end > linkRow.start && linkTop <= rect.maxY && linkBottom >= rect.minY) {
      const from = lowerBound(linkRow.start, linkRow.end, (i) => layout.links[i]!.maxX, rect.minX);
      for (let i = from; i < linkRow.end; i += 1) {
        const link = layout.links[i]!;
        if (link.minX > rect.maxX) break;
        links.push(link);
      }
    }
  }
  return { nodes, links };
}

/** The node showing a person: where they are the node's person if anywhere, else as a partner. */
export function findPersonNode(
  layout: TreeLayout,
  personId: string,
  { asPartner = true }: { asPartner?: boolean } = {},
): LayoutNode | undefined {
  let partnerMatch: LayoutNode | undefined;
  for (const node of layout.nodes) {
    if (node.node.person?._id === personId) return node;
    if (asPartner && !partnerMatch) {
      if (node.node.partners.some((row) => row.people.some((ref) => ref._id === personId))) {
        partnerMatch = node;
      }
    }
  }
  return partnerMatch;
}
