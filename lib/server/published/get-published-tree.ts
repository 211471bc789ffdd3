import "server-only";
import { objectId } from "@/lib/schemas/common";
import type { Person } from "@/lib/schemas/person";
import type { PublishedTreeView } from "@/lib/schemas/published";
import type { Tree } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/http/errors";
import {
  PUBLISHED_JSON_SQL,
  PUBLISHED_SNAPSHOT_SQL,
  PUBLISHED_VERSION_SQL,
  publishedJsonTail,
} from "@/lib/server/sql/reads";
import { NOT_PUBLISHED, serializePublishStatus } from "./get-publish-status";
import { PUBLISHED_PARTS_SQL } from "./published-json-parts";
import { snapshotVersionMs } from "./snapshot-url";

/** The public copy of a tree, for anyone; 404 "This tree is not published" when there is none. */
export async function getPublishedTree(treeId: string): Promise<PublishedTreeView> {
  if (!objectId.safeParse(treeId).success) throw notFound(NOT_PUBLISHED);
  const row = await db.publishedTree.findUnique({
    where: { treeId },
    select: {
      treeId: true,
      tree: true,
      people: true,
      publishedAt: true,
      viewCount: true,
      listed: true,
    },
  });
  if (!row) throw notFound(NOT_PUBLISHED);
  // written by publishTree from validated rows
  const { title, description, cover, data, heirs } = row.tree as unknown as Omit<
    Tree,
    "_id" | "version"
  >;
  const { lastPublishDate, viewCount, publishToGallery } = serializePublishStatus(row);
  return {
    _id: row.treeId,
    title,
    description,
    cover,
    data,
    heirs: heirs ?? [],
    people: row.people as unknown as Person[],
    lastPublishDate,
    viewCount,
    publishToGallery,
  };
}

/**
 * getPublishedTree's answer as JSON text, written by PostgreSQL (same keys in the same order):
 * the snapshot's JSONB is never parsed into objects and stringified again in Node. 404 as
 * getPublishedTree.
 */
export async function getPublishedTreeJson(treeId: string): Promise<string> {
  if (!objectId.safeParse(treeId).success) throw notFound(NOT_PUBLISHED);
  const rows = await db.$queryRawUnsafe<{ json: string }[]>(PUBLISHED_JSON_SQL, treeId);
  const row = rows[0];
  if (!row) throw notFound(NOT_PUBLISHED);
  return row.json;
}

/**
 * getPublishedTreeJson's text in parts of at most 1 MiB (published-json-parts.ts), for
 * GET /api/published/{id}: the request thread decodes one part at a time and the route sends them
 * one at a time, never the whole text (100 MB at 100,000 Sims) as one string. The publication is
 * read as the current one, then its parts at that very version with the view count as the last
 * part's ending; a publish in between is read again. 404 as getPublishedTree.
 */
export async function getPublishedTreeJsonParts(treeId: string): Promise<string[]> {
  if (!objectId.safeParse(treeId).success) throw notFound(NOT_PUBLISHED);
  for (let attempt = 0; attempt < 3; attempt++) {
    const [current] = await db.$queryRawUnsafe<
      { publishedAt: string; viewCount: number; listed: boolean }[]
    >(PUBLISHED_VERSION_SQL, treeId);
    if (!current) break;
    const rows = await db.$queryRawUnsafe<{ part: string }[]>(
      PUBLISHED_PARTS_SQL,
      treeId,
      current.publishedAt,
    );
    const parts = rows.map((row) => row.part);
    const last = parts.pop();
    if (last === undefined) continue;
    // The snapshot's text without its closing brace, then the view count (publishedJsonTail).
    parts.push(last.slice(0, -1) + publishedJsonTail(Number(current.viewCount), current.listed));
    return parts;
  }
  throw notFound(NOT_PUBLISHED);
}

/**
 * The snapshot of one publication as JSON text; 404 when the tree is not published, or was
 * published again since (its version is gone for good).
 */
export async function getPublishedSnapshotJson(treeId: string, version: string): Promise<string> {
  const ms = snapshotVersionMs(version);
  if (!objectId.safeParse(treeId).success || ms === null) throw notFound(NOT_PUBLISHED);
  const rows = await db.$queryRawUnsafe<{ json: string }[]>(
    PUBLISHED_SNAPSHOT_SQL,
    treeId,
    String(ms),
  );
  const row = rows[0];
  if (!row) throw notFound(NOT_PUBLISHED);
  return row.json;
}
