import { fitTransform, VIEWPORT } from "@/lib/tree/viewport";
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";
import { itemsInRect, layoutTree, type LayoutNode } from "@/lib/tree/layout";

/**
 * The screen the server draws the opening view for (a laptop's); a larger one sees the drawing in
 * its middle until the canvas takes over.
 */
export const PREVIEW_SCREEN = { width: 1440, height: 900 } as const;
/**
 * At most this many nodes, generation by generation from the root: each is in the HTML twice (the
 * drawing, and its props for React), and the page stays under 30 KB gzipped (issue 14).
 */
export const PREVIEW_NODES = 40;
/** A screen this large or smaller opens a tree that cannot be read fitted on its root (see below). */
const LARGEST_SCREEN = { width: 2560, height: 1440 } as const;

/** What the server draws of a published tree's opening view: only what a reader sees first. */
export interface OpeningView {
  /** Where the root is drawn: the canvas opens with it centred, VIEWPORT.topPadding from the top. */
  rootX: number;
  rootY: number;
  nodes: LayoutNode[];
  links: { parentKey: string; d: string; adoptedD: string }[];
  people: Person[];
}

/** Kept per publication: a page rendered again (next dev, PGlite) does not lay out again. */
const made = new Map<string, OpeningView | null>();
const KEPT = 32;

/**
 * The nodes and links of the canvas's opening view (components/tree-canvas/viewport.ts,
 * openingTransform) around the root at 1×, as far as PREVIEW_SCREEN reaches. Null when the canvas
 * may open on the whole tree fitted instead (a tree small enough to be read fitted on some
 * screen): that view depends on the screen's size, which the server does not know, and such a
 * tree is drawn quickly by the canvas anyway.
 */
export function openingView(
  version: string,
  data: TreeNode,
  people: ReadonlyMap<string, Person>,
): OpeningView | null {
  const known = made.get(version);
  if (known !== undefined) return known;
  const view = makeOpeningView(data, people);
  if (made.size >= KEPT) made.delete(made.keys().next().value!);
  made.set(version, view);
  return view;
}

function makeOpeningView(data: TreeNode, people: ReadonlyMap<string, Person>): OpeningView | null {
  const layout = layoutTree(data, people);
  const root = layout.nodes[0];
  if (!root) return null;
  // Fitted scale grows with the screen: below the readable zoom on the largest screen, it is
  // below it on every screen, and the canvas opens on the root.
  const fitted = fitTransform(LARGEST_SCREEN, layout.bounds);
  if (fitted.scaleX >= VIEWPORT.readableScale) return null;
  const top = root.y - VIEWPORT.topPadding;
  const inView = itemsInRect(layout, {
    minX: root.x - PREVIEW_SCREEN.width / 2,
    maxX: root.x + PREVIEW_SCREEN.width / 2,
    minY: top,
    maxY: top + PREVIEW_SCREEN.height,
  });
  // Whole generations (itemsInRect goes row by row), and only the links down to drawn ones.
  const cut = inView.nodes[PREVIEW_NODES]?.depth;
  const nodes =
    cut === undefined || cut === root.depth
      ? inView.nodes.slice(0, PREVIEW_NODES)
      : inView.nodes.filter((laid) => laid.depth < cut);
  const lastDepth = nodes[nodes.length - 1]?.depth ?? root.depth;
  const links = inView.links.filter((link) => link.depth < lastDepth || cut === undefined);
  const shown = new Map<string, Person>();
  for (const laid of nodes) {
    for (const ref of [laid.node.person, ...laid.node.partners.flatMap((row) => row.people)]) {
      const person = ref ? people.get(ref._id) : undefined;
      // The drawing shows names, avatars and the links icon; the rest stays in the snapshot.
      if (person) {
        shown.set(person._id, {
          ...person,
          bio: "",
          traits: [],
          aspirations: [],
          lifeStates: [],
          custom: [],
        });
      }
    }
  }
  return {
    rootX: root.x,
    rootY: root.y,
    // The subtree under each node is the snapshot's business, not the drawing's.
    nodes: nodes.map((laid) => ({ ...laid, node: { ...laid.node, children: [] } })),
    links: links.map((link) => ({
      parentKey: link.parentKey,
      d: link.d,
      adoptedD: link.adoptedD,
    })),
    people: [...shown.values()],
  };
}
