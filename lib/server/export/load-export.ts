import "server-only";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { personSelect, serializePerson } from "@/lib/server/people/serialize";
import { getTreeOrThrow } from "@/lib/server/trees/get-tree";

/** The owner's tree and its people (oldest first, as the people list shows them); 404 if not theirs. */
export async function loadTreeForExport(
  ownerId: string,
  treeId: string,
): Promise<{ tree: Tree; people: Person[] }> {
  const tree = await getTreeOrThrow(ownerId, treeId);
  const rows = await db.person.findMany({
    where: { treeId: tree._id },
    select: personSelect,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return { tree, people: rows.map(serializePerson) };
}
