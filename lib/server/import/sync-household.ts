import "server-only";
import { randomUUID } from "node:crypto";
import { ImportError, type ImportedPerson } from "@/lib/import/types";
import { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/server/db";
import { ApiError, notFound } from "@/lib/server/http/errors";
import { treeDataText } from "@/lib/server/sql/tree-data";
import { TREE_NOT_FOUND } from "@/lib/server/trees/get-tree";
import { TREE_CONFLICT } from "@/lib/server/trees/save-tree-data";
import { TREE_TX_OPTIONS, lockTreeOrThrow } from "@/lib/server/trees/lock-tree";
import { treeEtag } from "@/lib/server/trees/etag";
import { keepVersion } from "@/lib/server/trees/versions";
import type { PreparedStructure } from "@/lib/server/trees/structure-work";
import { preparedWrite, structureAnswer, writeChunks } from "@/lib/server/trees/write-tree-data";
import { runInWorker } from "@/lib/server/workers/pool";
import { clipPerson } from "./clip";
import { EMPTY_FILE } from "./import-file";
import { insertPeople, peopleBatches } from "./insert-people";
import type { ImportSource } from "./prepare-import";

export interface SyncedPerson {
  _id: string;
  gameId: string;
  firstName: string;
  lastName: string;
}

export interface SyncResult {
  tree: { _id: string; version: number };
  etag: string;
  /**
   * The version that keeps the tree as it was before this sync (restore it to undo the sync);
   * null when the sync changed nothing.
   */
  keptVersion: string | null;
  changes: {
    added: SyncedPerson[];
    updated: (SyncedPerson & { fields: string[] })[];
    unchanged: number;
    notes: string[];
  };
}

/** A Sim of the save the tree does not have yet (a preview: no id until the sync adds them). */
export interface NewSim {
  gameId: string;
  firstName: string;
  lastName: string;
}

/** One field of a Sim that a sync changes: as stored, and as it will be. */
export interface FieldChange {
  field: string;
  from: string | string[];
  to: string | string[];
}

/**
 * What a sync would do, written nowhere (`?preview=1`, issue 34). The lists are cut at
 * PREVIEW_LIST Sims each (a wrong save can hold thousands); the counts are whole.
 */
export interface SyncPreview {
  tree: { _id: string; version: number };
  etag: string;
  preview: {
    /** No Sim of the tree is in the save: a sync is refused unless `force=1` is sent. */
    sharesNoSim: boolean;
    added: NewSim[];
    addedCount: number;
    updated: (SyncedPerson & { fields: string[]; changes: FieldChange[] })[];
    updatedCount: number;
    unchanged: number;
    /** The tree's Sims from a save (with a game id) that this save no longer has. */
    missing: SyncedPerson[];
    missingCount: number;
    notes: string[];
  };
}

/** The Sims a preview lists in each of its lists, at most. */
export const PREVIEW_LIST = 200;

/** The refusal of a sync with a save that has none of the tree's Sims (issue 34). */
export const SAVE_SHARES_NO_SIM =
  "This save shares no Sim with this tree, so updating from it would only add strangers. Choose a save of this tree's household, or send force=1 to add its Sims anyway.";

const AGE_ROW = "Age";

const isPlaceholder = (key: string) => key.startsWith("placeholder:");

/**
 * Updates a tree imported from a Sims 4 save with a newer save of the same household: Sims the
 * tree does not have yet (matched by game id) are added in their places (under their parents'
 * node, beside their partners), and the Sims it has get the game's names, new traits and life
 * states, and their "Age" row. Nothing is removed, and what the player wrote (bios, avatars, other
 * custom rows, placements) is kept. The writes are one transaction under the tree's lock;
 * `expectedVersion` (If-Match) is checked as for a structure save. The structure's merge runs in the
 * worker pool (sync-structure.ts, ADR 043).
 */
export async function syncHousehold(
  ownerId: string,
  treeId: string,
  source: ImportSource,
  options: { household?: string; households?: string[]; signal?: AbortSignal; force?: boolean },
  expectedVersion?: number,
): Promise<SyncResult> {
  if ("bytes" in source && source.bytes.length === 0) throw new ApiError(400, EMPTY_FILE);
  const { signal } = options;
  // A stale If-Match is refused before the save is read: a burst of syncs sent with one version
  // must not each hold the worker for seconds to learn that only the first could go through.
  if (expectedVersion !== undefined) await refuseStale(ownerId, treeId, expectedVersion);
  const file = await readSave(source, options);
  // The structure is merged in the worker pool from a snapshot read outside the tree's lock (a
  // worker busy with an import must not hold the lock and a connection), then written under the
  // lock only if the tree and the Sims it was merged with are still as read; else read again.
  for (let attempt = 1; ; attempt += 1) {
    stopIfCutOff(signal);
    const snapshot = await readSnapshot(ownerId, treeId, file.people);
    if (expectedVersion !== undefined && expectedVersion !== snapshot.version) {
      throw new ApiError(409, TREE_CONFLICT, {
        ETag: treeEtag(snapshot.version, snapshot.detailsVersion),
      });
    }
    if (!options.force && snapshot.people.length === 0 && (await hasSims(treeId))) {
      throw new ApiError(409, SAVE_SHARES_NO_SIM);
    }
    const plan = planSync(file, snapshot.people);
    // With no new Sim the structure stays as stored (new partner rows need a new Sim): nothing to
    // merge, and no new version, so a sync sent again changes nothing (issue 32's burst).
    const prepared =
      plan.added.length === 0
        ? null
        : structureAnswer(
            await runInWorker("syncStructure", {
              stored: snapshot.text,
              file: file.data,
              idOf: [...plan.idOf],
              added: plan.added.map((a) => a.id),
            }),
          );
    stopIfCutOff(signal);
    const result = await db.$transaction(
      (tx) =>
        writeSync(tx, ownerId, treeId, file, snapshot, plan, prepared, expectedVersion, signal),
      TREE_TX_OPTIONS,
    );
    if (result) return result;
    // another write came between the snapshot and the lock: merge again from what it stored
    if (attempt >= SYNC_ATTEMPTS) throw new ApiError(409, TREE_CONFLICT);
  }
}

/**
 * The save's household (or the households asked for, their families merged; or the active one) as
 * an imported tree, read in the worker pool.
 */
async function readSave(
  source: ImportSource,
  { household, households }: { household?: string; households?: string[] },
) {
  try {
    return await runInWorker("sims4Read", { source, household, households });
  } catch (error) {
    if (error instanceof ImportError) throw new ApiError(400, error.message);
    throw error;
  }
}

/** Whether the tree has any Sim at all (an empty tree shares no Sim with any save, harmlessly). */
const hasSims = async (treeId: string) =>
  (await db.person.findFirst({ where: { treeId }, select: { id: true } })) !== null;

/**
 * What a sync of the save would do to the tree, written nowhere (`?preview=1`, issue 34): the
 * Sims it would add, those it would update with each field's change, the number unchanged, the
 * tree's Sims the save no longer has, and whether the save shares no Sim with the tree. Its ETag
 * is the tree's: the sync sent with it as If-Match applies exactly what was previewed, or is
 * refused with 409 when the tree changed in between.
 */
export async function previewSync(
  ownerId: string,
  treeId: string,
  source: ImportSource,
  options: { household?: string; households?: string[] },
  expectedVersion?: number,
): Promise<SyncPreview> {
  if ("bytes" in source && source.bytes.length === 0) throw new ApiError(400, EMPTY_FILE);
  if (expectedVersion !== undefined) await refuseStale(ownerId, treeId, expectedVersion);
  const file = await readSave(source, options);
  const tree = await db.tree.findFirst({
    where: { id: treeId, ownerId, deletedAt: null },
    select: { version: true, detailsVersion: true },
  });
  if (!tree) throw notFound(TREE_NOT_FOUND);
  const gameIds = gameIdsOf(file.people);
  const people = await findSims(db, treeId, gameIds, SYNC_PERSON);
  const plan = planSync(file, people);
  const fromFile = fileSims(file.people);
  const updated: SyncPreview["preview"]["updated"] = [];
  let updatedCount = 0;
  let unchanged = 0;
  for (const person of people) {
    const game = person.gameId ? fromFile.get(person.gameId) : undefined;
    if (!game || plan.idOf.get(person.gameId!) !== person.id) continue;
    const change = changeOf(person, game);
    if (!change) {
      unchanged += 1;
      continue;
    }
    updatedCount += 1;
    if (updated.length < PREVIEW_LIST) {
      updated.push({
        ...change.person,
        fields: change.changes.map((c) => c.field),
        changes: change.changes,
      });
    }
  }
  // the tree's Sims from a save that this one does not have (Sims typed in by hand have no id)
  const gone = { treeId, gameId: { not: null, notIn: gameIds } };
  const [missing, missingCount] = await Promise.all([
    db.person.findMany({
      where: gone,
      select: { id: true, gameId: true, firstName: true, lastName: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: PREVIEW_LIST,
    }),
    db.person.count({ where: gone }),
  ]);
  return {
    tree: { _id: treeId, version: tree.version },
    etag: treeEtag(tree.version, tree.detailsVersion),
    preview: {
      sharesNoSim: people.length === 0 && (await hasSims(treeId)),
      added: plan.added.slice(0, PREVIEW_LIST).map(({ person }) => ({
        gameId: person.gameId!,
        firstName: clipPerson(person).firstName,
        lastName: clipPerson(person).lastName,
      })),
      addedCount: plan.added.length,
      updated,
      updatedCount,
      unchanged,
      missing: missing.map((p) => ({
        _id: p.id,
        gameId: p.gameId!,
        firstName: p.firstName,
        lastName: p.lastName,
      })),
      missingCount,
      notes: file.notes ?? [],
    },
  };
}

/** The save's Sims by game id. */
const fileSims = (people: ImportedPerson[]) =>
  new Map(people.flatMap((p) => (p.gameId ? [[p.gameId, p] as const] : [])));

/** A Sim of the tree as a sync reads it (SYNC_PERSON). */
interface StoredSim {
  id: string;
  gameId: string | null;
  firstName: string;
  lastName: string;
  traits: string[];
  lifeStates: string[];
  custom: Prisma.JsonValue;
}

interface SimUpdate {
  firstName?: string;
  lastName?: string;
  traits?: string[];
  lifeStates?: string[];
  custom?: { title: string; value: string }[];
}

/**
 * What the save changes of a Sim the tree has, or null for nothing: the game's names, the traits
 * and life states the game added (the player's own stay), and the value of their "Age" row.
 */
function changeOf(
  person: StoredSim,
  game: ImportedPerson,
): { data: SimUpdate; changes: FieldChange[]; person: SyncedPerson } | null {
  const clipped = clipPerson(game);
  const changes: FieldChange[] = [];
  const data: SimUpdate = {};
  if (clipped.firstName && clipped.firstName !== person.firstName) {
    data.firstName = clipped.firstName;
    changes.push({ field: "firstName", from: person.firstName, to: clipped.firstName });
  }
  if (clipped.lastName && clipped.lastName !== person.lastName) {
    data.lastName = clipped.lastName;
    changes.push({ field: "lastName", from: person.lastName, to: clipped.lastName });
  }
  const newTraits = clipped.traits.filter((t) => !person.traits.includes(t));
  if (newTraits.length > 0) {
    data.traits = [...person.traits, ...newTraits];
    changes.push({ field: "traits", from: person.traits, to: data.traits });
  }
  const newStates = clipped.lifeStates.filter((t) => !person.lifeStates.includes(t));
  if (newStates.length > 0) {
    data.lifeStates = [...person.lifeStates, ...newStates];
    changes.push({ field: "lifeStates", from: person.lifeStates, to: data.lifeStates });
  }
  const custom = person.custom as { title: string; value: string }[];
  const age = clipped.custom.find((r) => r.title === AGE_ROW);
  const ageAt = custom.findIndex((r) => r.title === AGE_ROW);
  if (age && ageAt >= 0 && custom[ageAt]!.value !== age.value) {
    data.custom = custom.map((r, i) => (i === ageAt ? { ...r, value: age.value } : r));
    changes.push({ field: "age", from: custom[ageAt]!.value, to: age.value });
  }
  if (changes.length === 0) return null;
  return {
    data,
    changes,
    person: {
      _id: person.id,
      gameId: person.gameId!,
      firstName: data.firstName ?? person.firstName,
      lastName: data.lastName ?? person.lastName,
    },
  };
}

/** Said to a sync whose client went away before it was written (no one reads it: for the log). */
export const SYNC_CUT_OFF = "The update was cancelled before it was written: nothing was changed.";

/**
 * A sync whose request was cut off (the client gave up, the tab closed) stops before it writes:
 * its player never learns what it did, and a write then would make the version the player reads
 * next stale under their feet (issue 32: a burst of cut-off syncs, still running on the server,
 * answered the player's next syncs 409 for minutes).
 */
function stopIfCutOff(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ApiError(400, SYNC_CUT_OFF);
}

/** 409 with the current ETag when the tree is no longer at `expectedVersion`; 404 for none. */
async function refuseStale(ownerId: string, treeId: string, expectedVersion: number) {
  const tree = await db.tree.findFirst({
    where: { id: treeId, ownerId, deletedAt: null },
    select: { version: true, detailsVersion: true },
  });
  if (!tree) throw notFound(TREE_NOT_FOUND);
  if (tree.version !== expectedVersion) {
    throw new ApiError(409, TREE_CONFLICT, { ETag: treeEtag(tree.version, tree.detailsVersion) });
  }
}

/** Merges tried before a sync that keeps meeting other writes gives up with 409. */
const SYNC_ATTEMPTS = 3;

const SYNC_PERSON = {
  id: true,
  gameId: true,
  firstName: true,
  lastName: true,
  traits: true,
  lifeStates: true,
  custom: true,
} as const;

/** The tree's Sims with the save's game ids, oldest first (`select`: which fields). */
function findSims<S extends Prisma.PersonSelect>(
  tx: Prisma.TransactionClient,
  treeId: string,
  gameIds: string[],
  select: S,
) {
  return tx.person.findMany({
    where: { treeId, gameId: { in: gameIds } },
    select,
    orderBy: { createdAt: "asc" },
  });
}

/** A Sim as the snapshot knows it: what the merge needs. */
interface SimKey {
  id: string;
  gameId: string | null;
}

const gameIdsOf = (people: ImportedPerson[]) => people.flatMap((p) => (p.gameId ? [p.gameId] : []));

interface Snapshot {
  version: number;
  detailsVersion: number;
  text: string;
  people: SimKey[];
}

/** The tree's versions and structure text (one statement: one snapshot), and its Sims. */
async function readSnapshot(
  ownerId: string,
  treeId: string,
  filePeople: ImportedPerson[],
): Promise<Snapshot> {
  const rows = await db.$queryRaw<{ version: number; detailsVersion: number; text: string }[]>`
    SELECT t."version", t."detailsVersion", ${Prisma.raw(treeDataText("t"))} AS "text"
    FROM "Tree" t
    WHERE t."id" = ${treeId} AND t."ownerId" = ${ownerId} AND t."deletedAt" IS NULL`;
  const row = rows[0];
  if (!row) throw notFound(TREE_NOT_FOUND);
  const people = await findSims(db, treeId, gameIdsOf(filePeople), { id: true, gameId: true });
  return { ...row, people };
}

interface SyncPlan {
  /** Game key → person id: the Sims the tree has (the oldest per game id) and the new ones. */
  idOf: Map<string, string>;
  added: { person: ImportedPerson; id: string }[];
}

function planSync(file: { people: ImportedPerson[] }, people: SimKey[]): SyncPlan {
  const idOf = new Map<string, string>();
  for (const person of people)
    if (person.gameId && !idOf.has(person.gameId)) idOf.set(person.gameId, person.id);
  // new Sims (placeholders are not Sims: they come only with a first import)
  const added: SyncPlan["added"] = [];
  for (const person of file.people) {
    if (isPlaceholder(person.key) || !person.gameId || idOf.has(person.gameId)) continue;
    const id = randomUUID();
    idOf.set(person.gameId, id);
    added.push({ person, id });
  }
  return { idOf, added };
}

/** The same Sims with the same game ids, in the same order (what the merge was made from). */
const sameSims = (a: SimKey[], b: SimKey[]) =>
  a.length === b.length && a.every((p, i) => p.id === b[i]!.id && p.gameId === b[i]!.gameId);

/**
 * Under the tree's lock: null when the tree or its Sims changed since the snapshot (merge again),
 * else the Sims updated and added, the merged structure written, and the sync's answer.
 */
async function writeSync(
  tx: Prisma.TransactionClient,
  ownerId: string,
  treeId: string,
  file: { people: ImportedPerson[]; notes?: string[] },
  snapshot: Snapshot,
  plan: SyncPlan,
  prepared: PreparedStructure | null,
  expectedVersion: number | undefined,
  signal: AbortSignal | undefined,
): Promise<SyncResult | null> {
  const current = await lockTreeOrThrow(tx, ownerId, treeId);
  stopIfCutOff(signal);
  if (expectedVersion !== undefined && expectedVersion !== current.version) {
    throw new ApiError(409, TREE_CONFLICT, {
      ETag: treeEtag(current.version, current.detailsVersion),
    });
  }
  if (current.version !== snapshot.version) return null;
  const people = await findSims(tx, treeId, gameIdsOf(file.people), SYNC_PERSON);
  if (!sameSims(people, snapshot.people)) return null;
  const { idOf, added } = plan;

  // updates of the Sims the tree has
  const fromFile = fileSims(file.people);
  const changed: NonNullable<ReturnType<typeof changeOf>>[] = [];
  let unchanged = 0;
  for (const person of people) {
    const game = person.gameId ? fromFile.get(person.gameId) : undefined;
    if (!game || idOf.get(person.gameId!) !== person.id) continue;
    const change = changeOf(person, game);
    if (change) changed.push(change);
    else unchanged += 1;
  }
  // the tree as it was, kept before anything is written (issue 34: a sync can be undone)
  const keptVersion =
    added.length + changed.length > 0 ? await keepVersion(tx, treeId, "sync") : null;
  const updated: SyncResult["changes"]["updated"] = [];
  for (const change of changed) {
    await tx.person.update({
      where: { id: change.person._id },
      data: { ...change.data, version: { increment: 1 } },
    });
    updated.push({ ...change.person, fields: change.changes.map((c) => c.field) });
  }
  const now = Date.now();
  const addedRows = added.map(({ person, id }, index) => ({
    id,
    treeId,
    avatarKey: null,
    ...clipPerson(person),
    createdAt: new Date(now + index).toISOString(),
  }));
  await insertPeople(tx, peopleBatches(addedRows), new Map(), new Map());
  const version = prepared
    ? await writeChunks(tx, treeId, preparedWrite(prepared))
    : current.version;
  return {
    tree: { _id: treeId, version },
    etag: treeEtag(version, current.detailsVersion),
    keptVersion,
    changes: {
      added: added.map(({ person, id }) => ({
        _id: id,
        gameId: person.gameId!,
        firstName: person.firstName,
        lastName: person.lastName,
      })),
      updated,
      unchanged,
      notes: file.notes ?? [],
    },
  };
}
