import "server-only";
import { randomUUID } from "node:crypto";
import { ImportError, type ImportedPerson } from "@/lib/import/types";
import { treeData, type PartnerEntry, type PersonRef, type TreeNode } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { TREE_CONFLICT } from "@/lib/server/trees/save-tree-data";
import { TREE_TX_OPTIONS, lockTreeOrThrow } from "@/lib/server/trees/lock-tree";
import { treeEtag } from "@/lib/server/trees/etag";
import { runInWorker } from "@/lib/server/workers/pool";
import { readTreeText } from "@/lib/server/trees/read-tree-data";
import { writeTreeData } from "@/lib/server/trees/write-tree-data";
import { describeZodError } from "@/lib/validation-message";
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
  changes: {
    added: SyncedPerson[];
    updated: (SyncedPerson & { fields: string[] })[];
    unchanged: number;
    notes: string[];
  };
}

const AGE_ROW = "Age";

const isPlaceholder = (key: string) => key.startsWith("placeholder:");

/**
 * Updates a tree imported from a Sims 4 save with a newer save of the same household: Sims the
 * tree does not have yet (matched by game id) are added in their places (under their parents'
 * node, beside their partners), and the Sims it has get the game's names, new traits and life
 * states, and their "Age" row. Nothing is removed, and what the player wrote (bios, avatars, other
 * custom rows, placements) is kept. One transaction under the tree's lock; `expectedVersion`
 * (If-Match) is checked as for a structure save.
 */
export async function syncHousehold(
  ownerId: string,
  treeId: string,
  source: ImportSource,
  options: { household?: string },
  expectedVersion?: number,
): Promise<SyncResult> {
  if ("bytes" in source && source.bytes.length === 0) throw new ApiError(400, EMPTY_FILE);
  let file;
  try {
    file = await runInWorker("sims4Read", { source, household: options.household });
  } catch (error) {
    if (error instanceof ImportError) throw new ApiError(400, error.message);
    throw error;
  }
  return db.$transaction(async (tx) => {
    const current = await lockTreeOrThrow(tx, ownerId, treeId);
    if (expectedVersion !== undefined && expectedVersion !== current.version) {
      throw new ApiError(409, TREE_CONFLICT, {
        ETag: treeEtag(current.version, current.detailsVersion),
      });
    }
    const stored = treeData.parse(JSON.parse((await readTreeText(tx, treeId)) ?? "null"));
    const people = await tx.person.findMany({
      where: { treeId, gameId: { in: file.people.flatMap((p) => (p.gameId ? [p.gameId] : [])) } },
      select: {
        id: true,
        gameId: true,
        firstName: true,
        lastName: true,
        traits: true,
        lifeStates: true,
        custom: true,
      },
      orderBy: { createdAt: "asc" },
    });
    const idOf = new Map<string, string>();
    for (const person of people)
      if (person.gameId && !idOf.has(person.gameId)) idOf.set(person.gameId, person.id);

    // new Sims (placeholders are not Sims: they come only with a first import)
    const added: { person: ImportedPerson; id: string }[] = [];
    for (const person of file.people) {
      if (isPlaceholder(person.key) || !person.gameId || idOf.has(person.gameId)) continue;
      const id = randomUUID();
      idOf.set(person.gameId, id);
      added.push({ person, id });
    }
    const addedIds = new Set(added.map((a) => a.id));
    const mapRef = (key: string): PersonRef | null => {
      const id = idOf.get(key);
      return id ? { _id: id } : null;
    };

    // where each stored person is shown: their own node, or else the first node they partner
    const own = new Map<string, TreeNode>();
    const partnerOf = new Map<string, TreeNode>();
    const stack: TreeNode[] = [stored];
    for (let node = stack.pop(); node; node = stack.pop()) {
      if (node.person && !own.has(node.person._id)) own.set(node.person._id, node);
      for (const entry of node.partners)
        for (const p of entry.people) if (!partnerOf.has(p._id)) partnerOf.set(p._id, node);
      stack.push(...node.children);
    }
    const shownAt = (id: string) => own.get(id) ?? partnerOf.get(id) ?? null;
    const partnersOf = (node: TreeNode) =>
      new Set(node.partners.flatMap((e) => e.people.map((p) => p._id)));
    const newPartnerEntries = (fileNode: TreeNode, existing: Set<string>): PartnerEntry[] =>
      fileNode.partners.flatMap((entry) => {
        const refs = entry.people
          .map((p) => mapRef(p._id))
          .filter((r): r is PersonRef => r !== null && !existing.has(r._id));
        return refs.length > 0 && refs.some((r) => addedIds.has(r._id))
          ? [{ type: entry.type, people: refs }]
          : [];
      });

    let root = stored;
    // walk the save's tree with the stored node each of its nodes hangs under
    const walk: [TreeNode, TreeNode | null][] = [[file.data, null]];
    for (let item = walk.pop(); item; item = walk.pop()) {
      const [fileNode, storedParent] = item;
      const key = fileNode.person?._id ?? "";
      const id = idOf.get(key);
      let target: TreeNode | null = null;
      if (id && addedIds.has(id) && !own.has(id)) {
        // a new Sim: a node of their own under the stored parent, or beside the tree
        const node: TreeNode = {
          person: { _id: id },
          partners: newPartnerEntries(fileNode, new Set()),
          children: [],
          parentType: fileNode.parentType,
          parents: fileNode.parents
            .map((p) => mapRef(p._id))
            .filter((r): r is PersonRef => r !== null),
          adoptiveParents: [],
          hidden: storedParent === null,
        };
        if (!root.person && root.children.length === 0 && storedParent === null) {
          node.hidden = false;
          root = node;
        } else (storedParent ?? root).children.push(node);
        own.set(id, node);
        target = node;
      } else if (id) {
        target = shownAt(id);
        if (target && own.get(id) === target)
          target.partners.push(...newPartnerEntries(fileNode, partnersOf(target)));
        else if (target) {
          // shown only as a partner: new partners of theirs go beside them on that node
          const entries = newPartnerEntries(fileNode, partnersOf(target));
          target.partners.push(
            ...entries.filter((e) => !e.people.some((p) => p._id === target!.person?._id)),
          );
        }
      }
      for (let i = fileNode.children.length - 1; i >= 0; i -= 1)
        walk.push([fileNode.children[i]!, target]);
    }
    // new Sims the walk did not place (partners of placeholders...) sit beside the tree
    const placed = new Set<string>();
    const s2: TreeNode[] = [root];
    for (let node = s2.pop(); node; node = s2.pop()) {
      if (node.person) placed.add(node.person._id);
      for (const e of node.partners) for (const p of e.people) placed.add(p._id);
      s2.push(...node.children);
    }
    for (const { id } of added) {
      if (!placed.has(id)) {
        root.children.push({
          person: { _id: id },
          partners: [],
          children: [],
          parentType: "NONE",
          parents: [],
          adoptiveParents: [],
          hidden: true,
        });
      }
    }
    const checked = treeData.safeParse(root);
    if (!checked.success) throw new ApiError(400, describeZodError(checked.error));

    // updates of the Sims the tree has
    const fromFile = new Map(
      file.people.flatMap((p) => (p.gameId ? [[p.gameId, p] as const] : [])),
    );
    const updated: SyncResult["changes"]["updated"] = [];
    let unchanged = 0;
    for (const person of people) {
      const game = person.gameId ? fromFile.get(person.gameId) : undefined;
      if (!game || idOf.get(person.gameId!) !== person.id) continue;
      const clipped = clipPerson(game);
      const fields: string[] = [];
      const data: {
        firstName?: string;
        lastName?: string;
        traits?: string[];
        lifeStates?: string[];
        custom?: { title: string; value: string }[];
      } = {};
      if (clipped.firstName && clipped.firstName !== person.firstName) {
        data.firstName = clipped.firstName;
        fields.push("firstName");
      }
      if (clipped.lastName && clipped.lastName !== person.lastName) {
        data.lastName = clipped.lastName;
        fields.push("lastName");
      }
      // traits and life states the game added; the player's own stay
      const newTraits = clipped.traits.filter((t) => !person.traits.includes(t));
      if (newTraits.length > 0) {
        data.traits = [...person.traits, ...newTraits];
        fields.push("traits");
      }
      const newStates = clipped.lifeStates.filter((t) => !person.lifeStates.includes(t));
      if (newStates.length > 0) {
        data.lifeStates = [...person.lifeStates, ...newStates];
        fields.push("lifeStates");
      }
      const custom = person.custom as { title: string; value: string }[];
      const age = clipped.custom.find((r) => r.title === AGE_ROW);
      const ageAt = custom.findIndex((r) => r.title === AGE_ROW);
      if (age && ageAt >= 0 && custom[ageAt]!.value !== age.value) {
        data.custom = custom.map((r, i) => (i === ageAt ? { ...r, value: age.value } : r));
        fields.push("age");
      }
      if (fields.length === 0) {
        unchanged += 1;
        continue;
      }
      await tx.person.update({
        where: { id: person.id },
        data: { ...data, version: { increment: 1 } },
      });
      updated.push({
        _id: person.id,
        gameId: person.gameId!,
        firstName: data.firstName ?? person.firstName,
        lastName: data.lastName ?? person.lastName,
        fields,
      });
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
    const version = await writeTreeData(tx, treeId, checked.data);
    return {
      tree: { _id: treeId, version },
      etag: treeEtag(version, current.detailsVersion),
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
  }, TREE_TX_OPTIONS);
}
