import "server-only";
import { objectId } from "@/lib/schemas/common";
import type { PersonLink } from "@/lib/schemas/person";
import { db } from "@/lib/server/db";
import { resolveLinkCandidates, type LinkCandidate } from "./prepare-import";

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
 * The links of the people who have any (new person id → links), as resolveLinkCandidates keeps
 * them against the published copies on this server, and how many were dropped.
 */
export async function resolveLinks(
  candidates: readonly [string, LinkCandidate[]][],
): Promise<{ links: Map<string, PersonLink[]>; dropped: number }> {
  const external = new Set<string>();
  for (const [, items] of candidates) {
    for (const link of items) {
      if (!link.internal && objectId.safeParse(link.treeId).success) external.add(link.treeId);
    }
  }
  const published = await publishedPeople([...external]);
  const links = new Map<string, PersonLink[]>();
  let dropped = 0;
  for (const [personId, items] of candidates) {
    const resolved = resolveLinkCandidates(items, published);
    links.set(personId, resolved.kept);
    dropped += resolved.dropped;
  }
  return { links, dropped };
}
