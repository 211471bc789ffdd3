import { z } from "zod";
import "./zod-config";
import type { Person } from "./person";
import type { Tree } from "./tree";

/** An owner's view of a publication. */
export interface PublishStatus {
  /** ISO 8601. */
  lastPublishDate: string;
  /** Views of the public page; a bare counter, nothing is kept about the viewers. */
  viewCount: number;
  /** Listed in the Gallery (the owner's choice; an operator's hide does not change it). */
  publishToGallery: boolean;
}

/**
 * GET /api/published/{id}: the published tree itself, as the original client reads it
 * (`answer.data`, `answer.title`), with its people, publish date and view count.
 */
export type PublishedTreeView = Omit<Tree, "version"> & { people: Person[] } & PublishStatus;

/** The immutable snapshot the public page loads: the same shape without the moving view count
 * and Gallery flag. */
export type PublishedSnapshot = Omit<PublishedTreeView, "viewCount" | "publishToGallery">;

/** The Gallery's budgets: what one listing request may ask for (ADR 028). */
export const GALLERY_LIMITS = {
  /** Tiles per page. */
  pageSize: 24,
  /** The highest page number accepted; a later page answers an empty page. */
  maxPage: 10_000,
  /** A search shorter than this (after trimming) is no search, as in the original client. */
  minSearch: 2,
  /** Characters of a search kept; the rest is ignored. */
  maxSearch: 100,
  /** Words of a search used; each must match a word of the tree (by its beginning). */
  maxWords: 5,
  /** Distinct words kept per publication (title, names, description, in that order). */
  maxTerms: 2_000,
  /** Characters of one word kept in the index (a longer word is found by its beginning). */
  maxTermLength: 40,
} as const;

export const GALLERY_SORTS = ["newest", "views"] as const;
export type GallerySort = (typeof GALLERY_SORTS)[number];

/** One tile of GET /api/published: the original client reads `_id`, `title`, `description`
 * (sanitized HTML) and `cover`; the rest is ours. */
export interface GalleryItem {
  _id: string;
  title: string;
  description: string;
  cover: string | null;
  sims: number;
  generations: number;
  viewCount: number;
  lastPublishDate: string;
  /** The publishing account's username (issue 36: a tile names its author). */
  author: string;
  /** Only in a search: a Sim of the tree whose name a word of the search begins, or null. */
  match?: GalleryMatch | null;
}

/** The Sim a Gallery search found in a tree: its name and its avatar's upload name. */
export interface GalleryMatch {
  name: string;
  avatar: string | null;
}

export interface GalleryPage {
  data: GalleryItem[];
  meta: { totalPages: number; total: number; page: number; pageSize: number };
}

/** PUT /api/published/{id}: an empty body publishes without listing, as before the Gallery. */
export const publishBody = z.object({
  publishToGallery: z.boolean({ error: "publishToGallery must be true or false" }).optional(),
});
