import "server-only";
import { objectId } from "@/lib/schemas/common";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/http/errors";
import { PEOPLE_WORK_MEM, TREE_CANVAS_JSON_SQL, TREE_JSON_SQL } from "@/lib/server/sql/reads";
import { treeEtag } from "./etag";
import { withPersonIndexes, withPersonNames } from "./ref-names";

export const TREE_NOT_FOUND = "Tree not found";

/**
 * The owner's tree as the JSON text of the API's answer (serializeTree's shape, keys in its
 * order), every person reference with the person's current names, and its ETag; 404 "Tree not
 * found" for someone else's, a missing or a deleted tree. PostgreSQL writes the JSON: a 10,000-node `data` is never parsed into objects
 * and stringified again in Node.
 */
export async function getTreeJson(
  ownerId: string,
  treeId: string,
): Promise<{ json: string; etag: string }> {
  if (!objectId.safeParse(treeId).success) throw notFound(TREE_NOT_FOUND);
  const rows = await db.$queryRawUnsafe<
    { json: string; names: string | null; version: number; detailsVersion: number }[]
  >(TREE_JSON_SQL, treeId, ownerId);
  const row = rows[0];
  if (!row) throw notFound(TREE_NOT_FOUND);
  return {
    json: withPersonNames(row.json, row.names),
    etag: treeEtag(row.version, row.detailsVersion),
  };
}

/**
 * What the editor draws of the owner's tree (GET /api/trees/{id}?fields=canvas, ADR 038): the tree
 * as getTreeJson answers it, but each person reference is the person's position in `people`, the
 * tree's people as GET /api/people?tree=&fields=canvas answers them, read in the same statement;
 * the same ETag; 404 as getTreeJson. The original client never asks for it.
 */
export async function getTreeCanvasJson(
  ownerId: string,
  treeId: string,
): Promise<{ json: string; etag: string }> {
  if (!objectId.safeParse(treeId).success) throw notFound(TREE_NOT_FOUND);
  // the people's ordered aggregate wants the work_mem of the people list (list-people.ts)
  const [, rows] = await db.$transaction([
    db.$executeRawUnsafe(`SET LOCAL work_mem = '${PEOPLE_WORK_MEM}'`),
    db.$queryRawUnsafe<{ json: string; people: string; version: number; detailsVersion: number }[]>(
      TREE_CANVAS_JSON_SQL,
      treeId,
      ownerId,
    ),
  ]);
  const row = rows[0];
  if (!row) throw notFound(TREE_NOT_FOUND);
  return {
    json: withPersonIndexes(row.json, row.people),
    etag: treeEtag(row.version, row.detailsVersion),
  };
}
