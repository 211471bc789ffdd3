import "server-only";
import type { ImportedLink } from "@/lib/import/types";
import { objectId } from "@/lib/schemas/common";
import { PERSON_LIMITS, type PersonLink } from "@/lib/schemas/person";
import { db } from "@/lib/server/db";
import { clipLine } from "./clip";

export interface LinkContext {
  /** The tree's id in the file: links to it are links within the imported tree. */
  sourceTreeId: string | null;
  newTreeId: string;
  /** File person key → new person id. */
  personIds: ReadonlyMap<string, string>;
}

/** The ids of the people in each published copy among `treeIds` (one query per tree). */
async function publishedPeople(treeIds: string[]): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  if (treeIds.length === 0) return found;
  const published = await db.publishedTree.findMany({
    where: { treeId: { in: treeIds } },
    select: { treeId: true },
  });
  for (const { treeId } of published) {
    const rows = await db.$queryRaw<{ id: string }[]>`
      SELECT person->>'_id' AS "id"
      FROM "PublishedTree", jsonb_array_elements("people") AS person
      WHERE "treeId" = ${treeId}`;
    found.set(treeId, new Set(rows.map((r) => r.id)));
  }
  return found;
}

/**
 * Each person's links, as they can live on here:
 * - a link to the file's own tree is remapped to the new tree and the new person id (and dropped
 *   if that person is not in the file);
 * - a link to another tree is kept only if that tree is published on this server and its public
 *   copy has the person (so an Heirloom backup keeps its links; Plum Tree and PruneTree ids name
 *   trees that no longer exist anywhere and are dropped);
 * - anything else (malformed ids, more than PERSON_LIMITS.links) is dropped.
 * Answers the links per person (in the order given) and how many were dropped.
 */
export async function resolveLinks(
  linksPerPerson: (ImportedLink[] | undefined)[],
  context: LinkContext,
): Promise<{ links: PersonLink[][]; dropped: number }> {
  const external = new Set<string>();
  for (const links of linksPerPerson) {
    for (const link of links ?? []) {
      if (link.treeId !== context.sourceTreeId && objectId.safeParse(link.treeId).success) {
        external.add(link.treeId);
      }
    }
  }
  const published = await publishedPeople([...external]);
  let dropped = 0;
  const links = linksPerPerson.map((items) => {
    const kept: PersonLink[] = [];
    for (const link of items ?? []) {
      const title = clipLine(link.title, PERSON_LIMITS.linkTitle);
      let target: PersonLink | null = null;
      if (context.sourceTreeId !== null && link.treeId === context.sourceTreeId) {
        const personId = context.personIds.get(link.personId);
        if (personId) target = { title, treeId: context.newTreeId, personId };
      } else if (published.get(link.treeId)?.has(link.personId)) {
        target = { title, treeId: link.treeId, personId: link.personId };
      }
      if (target && kept.length < PERSON_LIMITS.links) kept.push(target);
      else dropped += 1;
    }
    return kept;
  });
  return { links, dropped };
}
