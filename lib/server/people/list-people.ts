import "server-only";
import type { Person } from "@/lib/schemas/person";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/errors";
import { TREE_NOT_FOUND } from "@/lib/server/trees/get-tree";
import { personSelect, serializePerson } from "./serialize";

/** The people of the owner's tree, oldest first; 404 when the tree is not the owner's. */
export async function listPeople(ownerId: string, treeId: string): Promise<Person[]> {
  const [tree, rows] = await Promise.all([
    db.tree.findFirst({ where: { id: treeId, ownerId, deletedAt: null }, select: { id: true } }),
    db.person.findMany({
      where: { treeId, tree: { ownerId, deletedAt: null } },
      select: personSelect,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
  ]);
  if (!tree) throw notFound(TREE_NOT_FOUND);
  return rows.map(serializePerson);
}
