import type { Person } from "./person";
import type { Tree } from "./tree";

/** An owner's view of a publication. */
export interface PublishStatus {
  /** ISO 8601. */
  lastPublishDate: string;
  /** Views of the public page; a bare counter, nothing is kept about the viewers. */
  viewCount: number;
}

/**
 * GET /api/published/{id}: the published tree itself, as the original client reads it
 * (`answer.data`, `answer.title`), with its people, publish date and view count.
 */
export type PublishedTreeView = Omit<Tree, "version"> & { people: Person[] } & PublishStatus;

/** The immutable snapshot the public page loads: the same shape without the moving view count. */
export type PublishedSnapshot = Omit<PublishedTreeView, "viewCount">;
