import "server-only";
import { objectId } from "@/lib/schemas/common";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/errors";
import { PUBLISHED_JSON_SQL } from "@/lib/server/sql/reads";
import { NOT_PUBLISHED, type PublishStatus, serializePublishStatus } from "./get-publish-status";

export interface PublishedTreeView extends PublishStatus {
  tree: Omit<Tree, "version">;
  people: Person[];
}

/** The public copy of a tree, for anyone; 404 "This tree is not published" when there is none. */
export async function getPublishedTree(treeId: string): Promise<PublishedTreeView> {
  if (!objectId.safeParse(treeId).success) throw notFound(NOT_PUBLISHED);
  const row = await db.publishedTree.findUnique({
    where: { treeId },
    select: { treeId: true, tree: true, people: true, publishedAt: true, viewCount: true },
  });
  if (!row) throw notFound(NOT_PUBLISHED);
  // written by publishTree from validated rows
  const { title, description, cover, data } = row.tree as unknown as Omit<Tree, "_id" | "version">;
  return {
    ...serializePublishStatus(row),
    tree: { _id: row.treeId, title, description, cover, data },
    people: row.people as unknown as Person[],
  };
}

/**
 * getPublishedTree's answer as JSON text, written by PostgreSQL (same keys in the same order):
 * the snapshot's JSONB is never parsed into objects and stringified again in Node. `publishedAt`
 * is UTC without a zone, so the pattern gives toISOString's form. 404 as getPublishedTree.
 */
export async function getPublishedTreeJson(treeId: string): Promise<string> {
  if (!objectId.safeParse(treeId).success) throw notFound(NOT_PUBLISHED);
  const rows = await db.$queryRawUnsafe<{ json: string }[]>(PUBLISHED_JSON_SQL, treeId);
  const row = rows[0];
  if (!row) throw notFound(NOT_PUBLISHED);
  return row.json;
}
