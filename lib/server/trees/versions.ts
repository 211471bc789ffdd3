import "server-only";
import { randomUUID } from "node:crypto";
import { Prisma } from "@/lib/generated/prisma/client";
import { treeData } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { ApiError, notFound } from "@/lib/server/http/errors";
import type { RateLimitRule } from "@/lib/server/rate-limit";
import { treeDataText } from "@/lib/server/sql/tree-data";
import { runInWorker } from "@/lib/server/workers/pool";
import { treeEtag } from "./etag";
import { TREE_NOT_FOUND } from "./get-tree";
import { TREE_TX_OPTIONS, lockTreeOrThrow } from "./lock-tree";
import { TREE_CONFLICT } from "./save-tree-data";
import { forgetStructure } from "./structure-cache";
import { OFF_THREAD_CHARS, type PreparedStructure, prepareStructure } from "./structure-work";
import { preparedWrite, structureAnswer, writeChunks } from "./write-tree-data";

// Versions of a tree (issue 34): before a Sims 4 sync writes, and before a restore, the tree as it
// is (its whole structure, its people with their versions, its heirs, and its ETag) is kept in
// "TreeVersion", beside the tree. A restore brings one back in one transaction and is itself
// kept first, so it can be undone. The copy is made and read by the database (jsonb in, jsonb
// out): the request thread never holds a large tree's people.

/** The newest versions of a tree, always kept. */
export const VERSIONS_KEPT = 20;
/** Days a version is kept at least, even past the newest VERSIONS_KEPT... */
export const VERSIONS_KEEP_DAYS = 30;
/** ...up to this many per tree, past which the oldest go whatever their age (the bound). */
export const VERSIONS_MAX = 50;

export const VERSION_NOT_FOUND = "Version not found";

/**
 * Restores an account may make in an hour: each copies a whole tree twice (the version brought
 * back, and the tree kept before it), so a script restoring over and over is held back.
 */
export const RESTORES_PER_ACCOUNT: RateLimitRule = {
  name: "versions:restore",
  limit: 60,
  windowSeconds: 60 * 60,
  message: "You've restored versions a lot in the last hour.",
};

export type VersionReason = "sync" | "restore";

/** A version as GET /api/trees/{id}/versions lists it. */
export interface TreeVersionSummary {
  _id: string;
  reason: VersionReason;
  createdAt: string;
  /** The tree's ETag then, and its structure and details versions. */
  etag: string;
  version: number;
  detailsVersion: number;
  /** The Sims the tree had then. */
  sims: number;
}

/**
 * Under the tree's lock (`tx` holds it): keeps the tree as it is now as a version, and drops the
 * versions past the bound (VERSIONS_KEPT newest always, any younger than VERSIONS_KEEP_DAYS up to
 * VERSIONS_MAX). Answers the new version's id.
 */
export async function keepVersion(
  tx: Prisma.TransactionClient,
  treeId: string,
  reason: VersionReason,
): Promise<string> {
  const id = randomUUID();
  await tx.$executeRaw`
    INSERT INTO "TreeVersion" ("id", "treeId", "reason", "version", "detailsVersion", "data", "people", "heirs", "sims")
    SELECT ${id}, t."id", ${reason}, t."version", t."detailsVersion",
      (${Prisma.raw(treeDataText("t"))})::jsonb,
      COALESCE((
        SELECT jsonb_agg(to_jsonb(p) - 'canvasJson' ORDER BY p."createdAt", p."id")
        FROM "Person" p WHERE p."treeId" = t."id"
      ), '[]'::jsonb),
      t."heirs",
      (SELECT count(*)::int FROM "Person" p WHERE p."treeId" = t."id")
    FROM "Tree" t WHERE t."id" = ${treeId}`;
  await tx.$executeRaw`
    DELETE FROM "TreeVersion" WHERE "id" IN (
      SELECT v."id" FROM (
        SELECT "id", "createdAt",
          row_number() OVER (ORDER BY "createdAt" DESC, "id" DESC) AS "rank"
        FROM "TreeVersion" WHERE "treeId" = ${treeId}
      ) v
      WHERE v."rank" > ${VERSIONS_MAX}
        OR (v."rank" > ${VERSIONS_KEPT}
          AND v."createdAt" < CURRENT_TIMESTAMP - make_interval(days => ${VERSIONS_KEEP_DAYS}))
    )`;
  return id;
}

/** 404 unless the owner has the tree (not deleted). */
async function ownTree(ownerId: string, treeId: string): Promise<void> {
  const tree = await db.tree.findFirst({
    where: { id: treeId, ownerId, deletedAt: null },
    select: { id: true },
  });
  if (!tree) throw notFound(TREE_NOT_FOUND);
}

/** The tree's versions, newest first (at most VERSIONS_MAX), without their contents. */
export async function listVersions(ownerId: string, treeId: string): Promise<TreeVersionSummary[]> {
  await ownTree(ownerId, treeId);
  const rows = await db.treeVersion.findMany({
    where: { treeId },
    select: {
      id: true,
      reason: true,
      createdAt: true,
      version: true,
      detailsVersion: true,
      sims: true,
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: VERSIONS_MAX,
  });
  return rows.map((row) => ({
    _id: row.id,
    reason: row.reason as VersionReason,
    createdAt: row.createdAt.toISOString(),
    etag: treeEtag(row.version, row.detailsVersion),
    version: row.version,
    detailsVersion: row.detailsVersion,
    sims: row.sims,
  }));
}

/** The Person columns a restore writes: every one but those the database generates. */
let personColumns: Promise<string[]> | undefined;
function restoredColumns(): Promise<string[]> {
  personColumns ??= db.$queryRaw<{ name: string }[]>`
      SELECT column_name AS "name" FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'Person'
        AND is_generated = 'NEVER' AND generation_expression IS NULL
      ORDER BY ordinal_position`
    .then((rows) => rows.map((row) => row.name))
    .catch((error: unknown) => {
      personColumns = undefined;
      throw error;
    });
  return personColumns;
}

/** A stored structure's text prepared to store again, in the worker pool when it is large. */
async function prepareStored(text: string): Promise<PreparedStructure> {
  if (text.length > OFF_THREAD_CHARS) {
    const prepared = structureAnswer(await runInWorker("treeBody", { text: `{"data":${text}}` }));
    if (prepared) return prepared;
  }
  return prepareStructure(treeData.parse(JSON.parse(text)));
}

export interface RestoreResult {
  tree: { _id: string; version: number };
  etag: string;
  /** The version that keeps the tree as it was before the restore: restoring it undoes this one. */
  keptVersion: string;
  restored: { _id: string; sims: number };
}

/**
 * Brings a version back: the structure, the people (those added since are removed, those
 * removed since come back, every other one gets its fields back) and the heirs, in one
 * transaction under the tree's lock, after keeping the tree as it is now as a version of its own
 * (so a restore is undone by restoring that one). `expectedVersion` (If-Match) is checked as for
 * a structure save. The tree's version moves on (never back), and each restored person's version
 * passes both the one stored now and the one kept, so a client holding an ETag from before is
 * refused (409), not silently written over.
 */
export async function restoreVersion(
  ownerId: string,
  treeId: string,
  versionId: string,
  expectedVersion?: number,
): Promise<RestoreResult> {
  await ownTree(ownerId, treeId);
  const rows = await db.$queryRaw<{ text: string; sims: number }[]>`
    SELECT "data"::text AS "text", "sims" FROM "TreeVersion"
    WHERE "id" = ${versionId} AND "treeId" = ${treeId}`;
  const kept = rows[0];
  if (!kept) throw notFound(VERSION_NOT_FOUND);
  const prepared = await prepareStored(kept.text);
  const columns = await restoredColumns();
  const list = Prisma.raw(columns.map((c) => `"${c}"`).join(", "));
  const updates = Prisma.raw(
    columns
      .filter((c) => c !== "id" && c !== "version")
      .map((c) => `"${c}" = EXCLUDED."${c}"`)
      .join(", "),
  );
  return db.$transaction(async (tx) => {
    const current = await lockTreeOrThrow(tx, ownerId, treeId);
    if (expectedVersion !== undefined && expectedVersion !== current.version) {
      throw new ApiError(409, TREE_CONFLICT, {
        ETag: treeEtag(current.version, current.detailsVersion),
      });
    }
    const keptVersion = await keepVersion(tx, treeId, "restore");
    // the people as they were: those added since go, the others come back with their fields
    await tx.$executeRaw`
      DELETE FROM "Person" p
      WHERE p."treeId" = ${treeId} AND NOT EXISTS (
        SELECT 1 FROM "TreeVersion" v, jsonb_array_elements(v."people") AS e
        WHERE v."id" = ${versionId} AND e ->> 'id' = p."id"
      )`;
    await tx.$executeRaw`
      INSERT INTO "Person" AS p (${list})
      SELECT ${list} FROM jsonb_populate_recordset(
        NULL::"Person", (SELECT "people" FROM "TreeVersion" WHERE "id" = ${versionId})
      )
      ON CONFLICT ("id") DO UPDATE SET ${updates},
        "version" = GREATEST(p."version", EXCLUDED."version") + 1`;
    await tx.$executeRaw`
      UPDATE "Tree" SET "heirs" = (SELECT "heirs" FROM "TreeVersion" WHERE "id" = ${versionId})
      WHERE "id" = ${treeId}`;
    const version = await writeChunks(tx, treeId, preparedWrite(prepared));
    forgetStructure(treeId);
    return {
      tree: { _id: treeId, version },
      etag: treeEtag(version, current.detailsVersion),
      keptVersion,
      restored: { _id: versionId, sims: kept.sims },
    };
  }, TREE_TX_OPTIONS);
}
