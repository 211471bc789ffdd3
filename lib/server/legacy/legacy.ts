import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { type SuggestionAnswer, founderOf, nextHeir } from "@/lib/legacy/next-heir";
import { type LegacySettings, type UpdateLegacyBody, legacyOf } from "@/lib/legacy/settings";
import { formatReason } from "@/lib/legacy/succession";
import { objectId } from "@/lib/schemas/common";
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { ApiError, notFound } from "@/lib/server/http/errors";
import { personSelect, serializePerson } from "@/lib/server/people/serialize";
import { type RateLimitRule, enforceRateLimit } from "@/lib/server/rate-limit";
import { TREE_NOT_FOUND } from "@/lib/server/trees/get-tree";
import { readTreeText } from "@/lib/server/trees/read-tree-data";
import { heirsOf } from "@/lib/server/trees/set-tree-heirs";
import { buildKinship } from "@/lib/tree/placements";

// The legacy's settings and the next heir's suggestion (issue 33): kept in Tree.legacy, beside the
// structure and its version, with a version of their own (Tree.legacyVersion) for If-Match.

export const LEGACY_CONFLICT =
  "This legacy's settings were changed somewhere else (another tab or device) since you opened them. Reload to see those changes, or save over them.";

/** Settings writes per account, counted before any work, as heirs writes are. */
export const LEGACY_PER_ACCOUNT: RateLimitRule = {
  name: "legacy:write",
  limit: 120,
  windowSeconds: 60 * 60,
  message: "You've changed the legacy's settings a lot in the last hour.",
};

/**
 * Suggestions per account: each reads and walks the whole structure on the request thread (some
 * 0.1-0.3 s for 10,000 Sims on a busy machine), asked again after each heirs or laws change.
 */
export const SUGGESTIONS_PER_ACCOUNT: RateLimitRule = {
  name: "legacy:suggest",
  limit: 600,
  windowSeconds: 60 * 60,
  message: "You've asked for the next heir a lot in the last hour.",
};

/** The `ETag` of a legacy's settings: their version. */
export const legacyEtag = (version: number) => `"${version}"`;

/** The version a PUT expects, from `If-Match: "<version>"`; none, or `*`, accepts any. */
export function expectedLegacyVersionFrom(header: string | null): number | undefined {
  const value = header?.trim();
  if (!value || value === "*") return undefined;
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(value);
  if (!match?.[1]) {
    throw new ApiError(
      400,
      'If-Match must be a legacy version, e.g. "3" (the ETag of GET /api/trees/{id}/legacy)',
    );
  }
  return Number(match[1]);
}

const owned = (ownerId: string, treeId: string) => ({ id: treeId, ownerId, deletedAt: null });

/** The owner's legacy settings and their ETag; 404 as the tree (someone else's, missing, deleted). */
export async function getLegacy(
  ownerId: string,
  treeId: string,
): Promise<{ legacy: LegacySettings; etag: string }> {
  if (!objectId.safeParse(treeId).success) throw notFound(TREE_NOT_FOUND);
  const row = await db.tree.findFirst({
    where: owned(ownerId, treeId),
    select: { legacy: true, legacyVersion: true },
  });
  if (!row) throw notFound(TREE_NOT_FOUND);
  return { legacy: legacyOf(row.legacy), etag: legacyEtag(row.legacyVersion) };
}

/**
 * Replaces the settings sent (founder, laws) and keeps the others. A founder must be a Sim of the
 * tree (422); one the structure no longer places counts as the root's Sim until placed again.
 * With `expectedVersion` (If-Match) a write over any other version is refused with 409, the
 * condition in the UPDATE itself. The structure, its version and the heirs are not touched.
 */
export async function setLegacy(
  ownerId: string,
  treeId: string,
  body: UpdateLegacyBody,
  expectedVersion?: number,
): Promise<{ legacy: LegacySettings; etag: string }> {
  await enforceRateLimit(LEGACY_PER_ACCOUNT, ownerId);
  if (!objectId.safeParse(treeId).success) throw notFound(TREE_NOT_FOUND);
  return db.$transaction(async (tx) => {
    const row = await tx.tree.findFirst({
      where: owned(ownerId, treeId),
      select: { legacy: true, legacyVersion: true },
    });
    if (!row) throw notFound(TREE_NOT_FOUND);
    if (body.founder) {
      const sim = await tx.person.findFirst({
        where: { id: body.founder, treeId },
        select: { id: true },
      });
      if (!sim) throw new ApiError(422, `The founder ${body.founder} is not a Sim of this tree`);
    }
    const stored = legacyOf(row.legacy);
    const legacy: LegacySettings = {
      founder: body.founder === undefined ? stored.founder : body.founder,
      laws: body.laws === undefined ? stored.laws : body.laws,
    };
    const { count } = await tx.tree.updateMany({
      where: { ...owned(ownerId, treeId), legacyVersion: expectedVersion ?? row.legacyVersion },
      data: { legacy: legacy as unknown as Prisma.InputJsonValue, legacyVersion: { increment: 1 } },
    });
    if (count === 0) {
      const current = await tx.tree.findFirst({
        where: owned(ownerId, treeId),
        select: { legacyVersion: true },
      });
      if (!current) throw notFound(TREE_NOT_FOUND);
      throw new ApiError(409, LEGACY_CONFLICT, { ETag: legacyEtag(current.legacyVersion) });
    }
    return { legacy, etag: legacyEtag((expectedVersion ?? row.legacyVersion) + 1) };
  });
}

/** The founder a tree's heirs and generations are counted from (the stored one, or none). */
export async function storedFounder(treeId: string): Promise<string | null> {
  const row = await db.tree.findUnique({ where: { id: treeId }, select: { legacy: true } });
  return legacyOf(row?.legacy).founder;
}

/**
 * The open generation's candidates and the heir the laws suggest (lib/legacy/next-heir.ts), for
 * the owner to confirm: nothing is written. Reads the structure, the heirs, the settings and only
 * the current heir's and their children's Sims.
 */
export async function suggestNextHeir(ownerId: string, treeId: string): Promise<SuggestionAnswer> {
  await enforceRateLimit(SUGGESTIONS_PER_ACCOUNT, ownerId);
  if (!objectId.safeParse(treeId).success) throw notFound(TREE_NOT_FOUND);
  const row = await db.tree.findFirst({
    where: owned(ownerId, treeId),
    select: { heirs: true, legacy: true },
  });
  if (!row) throw notFound(TREE_NOT_FOUND);
  const settings = legacyOf(row.legacy);
  const text = await readTreeText(db, treeId);
  const root = JSON.parse(text ?? "null") as TreeNode | null;
  if (!root) throw notFound(TREE_NOT_FOUND);
  const kin = buildKinship(root, settings.founder);
  const founder = founderOf(kin, settings.founder);
  // the people the answer reads: the current heir (for Strict Equality) and their children
  const heirs = heirsOf(row.heirs);
  const first = nextHeir(kin, founder, heirs, new Map(), null);
  if (!first) {
    return { founder, current: "", generation: 1, candidates: [], result: null };
  }
  const ids = [first.current, ...(kin.children.get(first.current) ?? [])];
  const rows = await db.person.findMany({
    where: { treeId, id: { in: ids } },
    select: personSelect,
  });
  const people = new Map<string, Person>(rows.map((r) => [r.id, serializePerson(r)]));
  const answer = nextHeir(kin, founder, heirs, people, settings.laws, treeId)!;
  return {
    founder,
    current: answer.current,
    generation: answer.generation,
    candidates: answer.candidates,
    result: answer.result && {
      ...answer.result,
      reasons: answer.result.reasons.map((reason) => ({ ...reason, text: formatReason(reason) })),
    },
  };
}
