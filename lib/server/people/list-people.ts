import "server-only";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/http/errors";
import { PEOPLE_CANVAS_JSON_SQL, PEOPLE_JSON_SQL, PEOPLE_WORK_MEM } from "@/lib/server/sql/reads";
import { TREE_NOT_FOUND } from "@/lib/server/trees/get-tree";

/**
 * The people of the owner's tree, oldest first, as the JSON text of the API's answer (an array
 * of persons in serializePerson's shape); 404 when the tree is not the owner's.
 *
 * PostgreSQL writes the JSON itself in one statement: the rows never become Prisma objects, and
 * Node never parses or re-serializes them. At 10,000 people that is about 80 ms instead of the
 * 350 ms the same list took through Prisma and JSON.stringify. Each person's keys are in
 * serializePerson's order; tests/api/editor-load-json.test.ts compares the two.
 *
 * The ordered aggregate sorts the persons' JSON (3.5 MB at 10,000 people): with the default 4 MB
 * work_mem that sort spills to temporary files, which cost a third of the statement's time.
 *
 * `fields: "canvas"` answers what the editor's canvas draws (ADR 032): no bio, lists or custom
 * rows. The original client never asks for it, and its answer does not change.
 */
export async function listPeopleJson(
  ownerId: string,
  treeId: string,
  fields: "all" | "canvas" = "all",
): Promise<string> {
  const sql = fields === "canvas" ? PEOPLE_CANVAS_JSON_SQL : PEOPLE_JSON_SQL;
  const [, rows] = await db.$transaction([
    db.$executeRawUnsafe(`SET LOCAL work_mem = '${PEOPLE_WORK_MEM}'`),
    db.$queryRawUnsafe<{ json: string }[]>(sql, treeId, ownerId),
  ]);
  const row = rows[0];
  if (!row) throw notFound(TREE_NOT_FOUND);
  return row.json;
}
