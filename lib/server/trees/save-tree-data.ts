import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import {
  type JsonPatchOperation,
  LIMIT_TEXT,
  TREE_LIMITS,
  type TreeNode,
} from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { applyTreePatch } from "./apply-tree-patch";
import { TREE_TX_OPTIONS, lockTreeOrThrow } from "./lock-tree";
import { treeEtag } from "./serialize";
import {
  type HeldStructure,
  forgetStructure,
  holdStructure,
  takeStructure,
} from "./structure-cache";
import { type ChunkedWrite, chunkedWrite, forgetNodeJson, readStoredParts } from "./structure-json";
import { type StructureSize, measureStructure } from "./structure-size";
import { type PreparedStructure, peopleOf } from "./structure-work";
import { type StoredWrite, preparedWrite, writeChunks } from "./write-tree-data";

export const TREE_CONFLICT =
  "This tree was changed somewhere else (another tab or device). Reload to get the latest version.";

/** Every person id the structure refers to: node people, partners, parents and adoptive parents. */
export function referencedPeople(root: TreeNode): Set<string> {
  return new Set(peopleOf(root));
}

/** Refuses a structure that places people who are not (or no longer) in the tree. */
async function assertPeopleInTree(
  tx: Prisma.TransactionClient,
  treeId: string,
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  // one query for any number of ids (an IN list would need one parameter per id)
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT ref."id" FROM unnest(${ids}::text[]) WITH ORDINALITY AS ref("id", "position")
    WHERE NOT EXISTS (
      SELECT 1 FROM "Person" p WHERE p."id" = ref."id" AND p."treeId" = ${treeId}
    )
    ORDER BY ref."position"`;
  if (rows.length === 0) return;
  const missing = rows.map((row) => row.id);
  const shown = missing.slice(0, 3).join(", ");
  const more = missing.length > 3 ? ` and ${missing.length - 3} more` : "";
  throw new ApiError(400, `The tree refers to people who are not in this tree: ${shown}${more}`);
}

export const PATCH_NEEDS_IF_MATCH =
  "A JSON Patch must be sent with If-Match: the ETag of the tree version it was made from";

export interface SavedStructure {
  /** The answer's body, as before: the tree's id and new structure version. */
  saved: { _id: string; version: number };
  etag: string;
}

/** A new structure, ready to store: what its save writes and the person ids to check. */
type BuiltStructure = (
  | { data: TreeNode; size: StructureSize; write: ChunkedWrite }
  /** Prepared in the worker pool: written, but not held (its objects stay in the worker). */
  | { data: null; write: StoredWrite }
) & {
  /** The ids that must name people of the tree (all of them for a whole body). */
  peopleToCheck: string[];
};

/**
 * Locks the tree, refuses a stale `expectedVersion` with 409, then stores what `build` makes
 * (checked against the tree's people) and bumps the version. The row lock makes the check and the
 * write one step, so of two saves expecting the same version exactly one wins. Once committed,
 * the new structure is held in memory for the tree's next patch (structure-cache.ts).
 */
async function saveStructure(
  ownerId: string,
  treeId: string,
  build: (
    tx: Prisma.TransactionClient,
    version: number,
  ) => Promise<BuiltStructure> | BuiltStructure,
  expectedVersion?: number,
): Promise<SavedStructure> {
  let built: BuiltStructure | undefined;
  const result = await db.$transaction(async (tx) => {
    const current = await lockTreeOrThrow(tx, ownerId, treeId);
    if (expectedVersion !== undefined && expectedVersion !== current.version) {
      throw new ApiError(409, TREE_CONFLICT, {
        ETag: treeEtag(current.version, current.detailsVersion),
      });
    }
    built = await build(tx, current.version);
    await assertPeopleInTree(tx, treeId, built.peopleToCheck);
    const version = await writeChunks(tx, treeId, built.write);
    return { saved: { _id: treeId, version }, etag: treeEtag(version, current.detailsVersion) };
  }, TREE_TX_OPTIONS);
  if (built?.data) {
    built.write.commit();
    holdStructure(treeId, {
      version: result.saved.version,
      data: built.data,
      size: built.size,
      chunks: built.write.state,
    });
  } else if (built) {
    // the next patch reads the new version's stored parts (readStoredParts)
    forgetStructure(treeId);
  }
  return result;
}

/** Refuses a structure whose stored form passes the byte limit (and is larger than `stored`). */
function assertStoredBytes(bytes: number, stored = 0): void {
  if (bytes > Math.max(TREE_LIMITS.maxBytes, stored)) {
    throw new ApiError(422, LIMIT_TEXT.bytes);
  }
}

/**
 * Replaces the structure of the owner's tree and bumps its version. With `expectedVersion` (from
 * If-Match) a save against any other version is refused with 409. The structure was validated
 * whole by `treeData` (every limit but the stored bytes, checked here on its one serialization),
 * or, for a large body, validated and serialized in the worker pool (`PreparedStructure`,
 * structure-work.ts): the same chunks, stored the same way, but not held for the next patch.
 */
export function saveTreeData(
  ownerId: string,
  treeId: string,
  data: TreeNode | { prepared: PreparedStructure },
  expectedVersion?: number,
): Promise<SavedStructure> {
  if ("prepared" in data) {
    const { prepared } = data;
    return saveStructure(
      ownerId,
      treeId,
      () => ({ data: null, write: preparedWrite(prepared), peopleToCheck: prepared.people }),
      expectedVersion,
    );
  }
  return saveStructure(
    ownerId,
    treeId,
    () => {
      // texts kept per node, so that the next patch of this structure serializes only its path;
      // a new set of chunks, the stored ones deleted
      const write = chunkedWrite(data, null);
      assertStoredBytes(write.bytes);
      const ids = new Set<string>();
      const size = measureStructure(data, (node) => {
        if (node.person) ids.add(node.person._id);
        for (const partner of node.partners) for (const p of partner.people) ids.add(p._id);
        for (const p of node.parents) ids.add(p._id);
        for (const p of node.adoptiveParents) ids.add(p._id);
      });
      return { data, size, write, peopleToCheck: [...ids] };
    },
    expectedVersion,
  );
}

/**
 * The stored structure of `treeId` at `version`: the one this process holds when it is that
 * version (no read, no parse), otherwise read, parsed and measured. Stored structures were
 * validated against the schema when written (saves, patches, imports, syncs), and every read of
 * a tree serves them as stored, so the schema does not run again here: on a 32,768-node tree it
 * cost 250-630 ms of the request thread. The limits are
 * not checked either: a tree stored over a limit before it existed must stay patchable, to be
 * trimmed. A patch the applier refuses leaves the held structure as it was, and gives it back.
 */
async function storedStructure(
  tx: Prisma.TransactionClient,
  treeId: string,
  version: number,
): Promise<HeldStructure> {
  const held = takeStructure(treeId, version);
  if (held) return held;
  // the row's top and its chunks, each parsed apart: the chunks keep their keys (ADR 037)
  const rows = await tx.$queryRaw<{ key: number | null; text: string }[]>`
    SELECT NULL::int AS "key", "data"::text AS "text" FROM "Tree" WHERE "id" = ${treeId}
    UNION ALL
    SELECT "key", "data"::text FROM "TreeChunk" WHERE "treeId" = ${treeId}`;
  const root = rows.find((row) => row.key === null);
  if (!root) throw new Error(`Tree ${treeId} vanished while it was locked`);
  const { data, state } = readStoredParts({
    root: root.text,
    chunks: rows.flatMap((row) => (row.key === null ? [] : [{ key: row.key, text: row.text }])),
  });
  return { version, data, size: measureStructure(data), chunks: state };
}

/**
 * Applies a JSON Patch (RFC 6902) to the stored structure of version `expectedVersion` (If-Match
 * is required: a patch means nothing against another version). Each op is checked against the
 * schema of the place it changes and counted against the limits before it runs
 * (apply-tree-patch.ts, ADR 019); only the ids its values bring in are checked against the tree's
 * people; the result is serialized once. Same stored result, same 409 rules as a whole `{data}`.
 */
export function patchTreeData(
  ownerId: string,
  treeId: string,
  operations: JsonPatchOperation[],
  expectedVersion: number | undefined,
): Promise<SavedStructure> {
  if (expectedVersion === undefined) throw new ApiError(428, PATCH_NEEDS_IF_MATCH);
  return saveStructure(
    ownerId,
    treeId,
    async (tx, version) => {
      const stored = await storedStructure(tx, treeId, version);
      // every node a path walks through may change: its text is made again, the others' kept
      let applied: ReturnType<typeof applyTreePatch>;
      try {
        applied = applyTreePatch(stored.data, stored.size, operations, forgetNodeJson);
      } catch (error) {
        // a refused patch took back what it did (applyTreePatch): the structure is still the
        // stored one, and the next patch needs no read and parse of it
        holdStructure(treeId, stored);
        throw error;
      }
      // the chunks whose text changed; chunks of nodes the patch took out are dropped
      const write = chunkedWrite(applied.data, stored.chunks);
      assertStoredBytes(write.bytes, stored.size.bytes);
      return {
        data: applied.data,
        // the depth bound stays what was stored: every insert was checked against it
        size: { ...stored.size, ...applied.totals, bytes: write.bytes },
        write,
        peopleToCheck: [...applied.newIds],
      };
    },
    expectedVersion,
  );
}
