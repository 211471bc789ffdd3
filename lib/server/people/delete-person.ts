import "server-only";
import type { PersonRef, TreeNode } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/http/errors";
import { TREE_TX_OPTIONS, lockTreeOrThrow } from "@/lib/server/trees/lock-tree";
import { readTreeData } from "@/lib/server/trees/read-tree-data";
import { writeTreeData } from "@/lib/server/trees/write-tree-data";
import { PERSON_NOT_FOUND, ownedPerson } from "./serialize";

/**
 * Removes every reference to `personId` from the structure, in place: a node's person becomes
 * null, and the person leaves partner rows (a row left with nobody goes), parents and adoptive
 * parents. Answers whether anything changed.
 */
export function scrubPerson(root: TreeNode, personId: string): boolean {
  let changed = false;
  const keep = (refs: PersonRef[]) => {
    const kept = refs.filter((ref) => ref._id !== personId);
    if (kept.length !== refs.length) changed = true;
    return kept;
  };
  const stack: TreeNode[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.person?._id === personId) {
      node.person = null;
      changed = true;
    }
    node.partners = node.partners.flatMap((partner) => {
      const people = keep(partner.people);
      return people.length === 0 && partner.people.length > 0 ? [] : [{ ...partner, people }];
    });
    node.parents = keep(node.parents);
    node.adoptiveParents = keep(node.adoptiveParents);
    for (const child of node.children) stack.push(child);
  }
  return changed;
}

/**
 * Deletes a person of the owner's tree and, in the same transaction, removes them from the tree's
 * structure. The tree version is bumped only when the structure changed, so an editor whose
 * structure did not place this person can keep saving without a conflict.
 */
export async function deletePerson(
  ownerId: string,
  personId: string,
): Promise<{ tree: { _id: string; version: number } }> {
  return db.$transaction(async (tx) => {
    const person = await tx.person.findFirst({
      where: ownedPerson(ownerId, personId),
      select: { treeId: true },
    });
    if (!person) throw notFound(PERSON_NOT_FOUND);
    await lockTreeOrThrow(tx, ownerId, person.treeId);
    const { count } = await tx.person.deleteMany({
      where: { id: personId, treeId: person.treeId },
    });
    // a concurrent delete got there first (the lock made us wait for it)
    if (count === 0) throw notFound(PERSON_NOT_FOUND);
    const tree = await tx.tree.findUniqueOrThrow({
      where: { id: person.treeId },
      select: { id: true, version: true },
    });
    const data = (await readTreeData(tx, tree.id))!;
    if (!scrubPerson(data, personId)) return { tree: { _id: tree.id, version: tree.version } };
    return { tree: { _id: tree.id, version: await writeTreeData(tx, tree.id, data) } };
  }, TREE_TX_OPTIONS);
}
