import "server-only";
import { objectId } from "@/lib/schemas/common";
import { Prisma, db } from "@/lib/server/db";
import { notFound } from "@/lib/server/http/errors";
import { treeDataText } from "@/lib/server/sql/tree-data";
import { TREE_NOT_FOUND } from "@/lib/server/trees/get-tree";
import type { ExportInput } from "@/lib/server/workers/tasks";

export interface ExportSource extends ExportInput {
  title: string;
  /** Every image the tree uses: its cover and its people's avatars (names, each once). */
  images: string[];
}

/**
 * The owner's tree (serializeTree's shape) and its people (serializePerson's, oldest first, as the
 * people list shows them) as JSON text written by PostgreSQL, for an export task to parse in a
 * worker thread: a 100,000-Sim tree is never parsed into objects on the request thread. 404 when
 * the tree is not the owner's.
 */
export async function loadTreeForExport(ownerId: string, treeId: string): Promise<ExportSource> {
  if (!objectId.safeParse(treeId).success) throw notFound(TREE_NOT_FOUND);
  const rows = await db.$queryRaw<
    { title: string; cover: string | null; tree: string; people: string; avatars: string[] }[]
  >`
    SELECT t."title", t."cover",
      json_build_object('_id', t."id", 'title', t."title", 'description', t."description",
        'cover', t."cover", 'data', ${Prisma.raw(treeDataText("t"))}::json, 'version', t."version", 'heirs', t."heirs")::text AS "tree",
      (SELECT COALESCE(json_agg(json_build_object('_id', p."id", 'tree', p."treeId",
          'avatar', p."avatar", 'firstName', p."firstName", 'lastName', p."lastName",
          'bio', p."bio", 'traits', p."traits", 'aspirations', p."aspirations",
          'lifeStates', p."lifeStates", 'custom', p."custom", 'links', p."links")
          ORDER BY p."createdAt", p."id"), '[]'::json)
        FROM "Person" p WHERE p."treeId" = t."id")::text AS "people",
      ARRAY(SELECT DISTINCT p."avatar" FROM "Person" p
        WHERE p."treeId" = t."id" AND p."avatar" IS NOT NULL) AS "avatars"
    FROM "Tree" t
    WHERE t."id" = ${treeId} AND t."ownerId" = ${ownerId} AND t."deletedAt" IS NULL`;
  const row = rows[0];
  if (!row) throw notFound(TREE_NOT_FOUND);
  return {
    title: row.title,
    tree: row.tree,
    people: row.people,
    images: [...new Set([row.cover, ...row.avatars].filter((name) => name !== null))],
  };
}
