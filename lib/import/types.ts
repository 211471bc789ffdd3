// The shape every importer produces and every exporter reads: one tree with its people and
// images, before it has ids in Heirloom's database. Importers (Plum Tree ZIP, PruneTree bundle,
// Heirloom ZIP, GEDCOM) turn a file into an ImportedTree; lib/server/import turns an
// ImportedTree into rows, all or nothing.
import type { TreeNode } from "@/lib/schemas/tree";

/** A person before import. `key` is the id the file used; tree data refers to people by it. */
export interface ImportedPerson {
  key: string;
  firstName: string;
  lastName: string;
  /** HTML; sanitized on the server before it is stored. */
  bio: string;
  traits: string[];
  aspirations: string[];
  lifeStates: string[];
  custom: { title: string; value: string }[];
  /** A key of ImportedTree.images, or null. */
  avatar: string | null;
  /**
   * Links as the file wrote them (optional: GEDCOM has none). A link whose treeId is the file's own
   * tree (`ImportedTree.sourceTreeId`) is remapped to the new ids on import; others are kept only
   * when they target a tree published on this server.
   */
  links?: ImportedLink[];
  /** The game's Sim id (The Sims 4 import), as a decimal string. */
  gameId?: string;
}

/** A person's link to a person in another tree, with the ids the file used. */
export interface ImportedLink {
  title: string;
  treeId: string;
  personId: string;
}

/** Image bytes, keyed by the name the file used (e.g. "images/abc.jpg" or "abc.jpg"). */
export type ImportedImages = Map<string, Uint8Array>;

export interface ImportedTree {
  /** What the file was, for messages and logs. */
  source: "plumtree" | "prunetree" | "heirloom" | "gedcom" | "sims4";
  title: string;
  /** HTML; sanitized on the server before it is stored. */
  description: string;
  /** A key of `images`, or null. */
  cover: string | null;
  /** The structure; every PersonRef `_id` is an ImportedPerson `key`, remapped on import. */
  data: TreeNode;
  people: ImportedPerson[];
  images: ImportedImages;
  /** The tree's id in the file, if it had one (links to it are links within the tree). */
  sourceTreeId?: string | null;
  /** Things the importer left out or read past, for the player (e.g. an image missing from the
   * archive, 622 pointers to missing families). */
  notes?: string[];
  /** The heirs, as person keys (an Heirloom backup's heirloom.json, issue 26). */
  heirs?: string[];
  /** How many unconnected families the file holds (GEDCOM); otherwise counted from the tree. */
  families?: number;
}

/**
 * A file that cannot be imported. The message is shown to the player as the error's detail.
 * Recognised by a registered brand, not by class identity: the worker pool is one per process,
 * made by whichever module graph asked first (Next's instrumentation warms it at start, issue 32),
 * and the ImportError it throws must still be one to a route handler's `instanceof`.
 */
const BRAND = Symbol.for("heirloom.ImportError");

export class ImportError extends Error {
  override name = "ImportError";
  readonly [BRAND] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && BRAND in value;
  }
}
