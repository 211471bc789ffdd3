import "server-only";
import { randomUUID } from "node:crypto";
import type { ImportSummary } from "@/lib/import/schemas";
import { ImportError, type ImportedTree } from "@/lib/import/types";
import { treeData, type PersonRef, type Tree, type TreeNode } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { toggleHeir } from "@/lib/tree/heirs";
import { buildKinship } from "@/lib/tree/placements";
import { mapPersonRefs } from "@/lib/tree/reducers";
import { ApiError } from "@/lib/server/http/errors";
import { describeZodError } from "@/lib/validation-message";
import { clipDescription, clipPerson, clipTitle } from "./clip";
import { insertPeople } from "./insert-people";
import { resolveLinks } from "./resolve-links";
import { storeImportedImages } from "./store-images";

/** A 10,000-Sim import writes megabytes in one transaction; Prisma's 5 s default is too short. */
const IMPORT_TX_OPTIONS = { maxWait: 10_000, timeout: 120_000 } as const;

export interface ImportResult {
  tree: Tree;
  imported: ImportSummary;
}

/** The structure with every person reference replaced by its new id (iteratively). */
function remapData(root: TreeNode, ids: ReadonlyMap<string, string>): TreeNode {
  const missing = new Set<string>();
  const ref = ({ _id }: PersonRef): PersonRef => {
    const id = ids.get(_id);
    if (!id) missing.add(_id);
    return { _id: id ?? _id };
  };
  const out = mapPersonRefs(root, ref);
  if (missing.size > 0) {
    const shown = [...missing].slice(0, 3).join(", ");
    throw new ImportError(`The tree refers to people who are not in the file: ${shown}`);
  }
  return out;
}

/** Families drawn apart: the root's and one per hidden node (a hidden node draws no connector). */
function countFamilies(root: TreeNode): number {
  let families = root.person ? 1 : 0;
  const stack = [...root.children];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.hidden && node.person) families += 1;
    stack.push(...node.children);
  }
  return families;
}

/**
 * Creates a new tree of `ownerId` from an imported file, all or nothing:
 * - new ids for the tree and every person; every reference in the structure remapped;
 * - links remapped or dropped (see resolveLinks);
 * - title, description, names, lists and custom rows clipped to Heirloom's limits, rich text
 *   sanitized;
 * - images checked and re-encoded like uploads and stored as USED uploads of the owner; an image
 *   that fails the checks is skipped (listed in `skippedImages`) and its Sim has no avatar;
 * - one transaction writes the tree, the uploads and the people (in bulk, see insertPeople);
 *   if anything fails, the files already stored are deleted and nothing is left behind.
 * ImportError (a file that cannot be imported) becomes 400 with its message.
 */
export async function importTree(
  ownerId: string,
  file: ImportedTree,
  options: { title?: string } = {},
): Promise<ImportResult> {
  try {
    return await importTreeOrThrow(ownerId, file, options);
  } catch (error) {
    if (error instanceof ImportError) throw new ApiError(400, error.message);
    throw error;
  }
}

/** A file's heirs with the new person ids: those placed in the tree, one per generation. */
function importedHeirs(
  keys: string[] | undefined,
  personIds: ReadonlyMap<string, string>,
  data: TreeNode,
): string[] {
  if (!keys || keys.length === 0) return [];
  const { generation } = buildKinship(data);
  let heirs: string[] = [];
  for (const key of keys) {
    const id = personIds.get(key);
    if (id && !heirs.includes(id)) heirs = toggleHeir(heirs, id, (p) => generation.get(p));
  }
  return heirs;
}

async function importTreeOrThrow(
  ownerId: string,
  file: ImportedTree,
  options: { title?: string },
): Promise<ImportResult> {
  const treeId = randomUUID();
  const personIds = new Map<string, string>();
  for (const person of file.people) {
    if (personIds.has(person.key)) {
      throw new ImportError(`The file lists the person ${person.key} twice`);
    }
    personIds.set(person.key, randomUUID());
  }
  const data = remapData(file.data, personIds);
  const checked = treeData.safeParse(data);
  if (!checked.success) throw new ImportError(describeZodError(checked.error));
  const heirs = importedHeirs(file.heirs, personIds, checked.data);

  // Only images something uses are stored; the cover wins the folder when shared with an avatar.
  const usage = new Map<string, "avatar" | "cover">();
  for (const person of file.people) if (person.avatar) usage.set(person.avatar, "avatar");
  if (file.cover) usage.set(file.cover, "cover");
  // sharp decodes on libuv's threads while this thread sanitizes and clips the text.
  const storing = storeImportedImages(file.images, usage);
  let prepared;
  try {
    prepared = {
      title: clipTitle(options.title ?? file.title),
      description: clipDescription(file.description),
      people: file.people.map(clipPerson),
      ...(await resolveLinks(
        file.people.map((p) => p.links),
        { sourceTreeId: file.sourceTreeId ?? null, newTreeId: treeId, personIds },
      )),
    };
  } catch (error) {
    await (await storing.catch(() => null))?.discard();
    throw error;
  }
  const { title, description, people, links, dropped } = prepared;
  const stored = await storing;
  const imageName = (key: string | null) => (key ? (stored.byKey.get(key)?.name ?? null) : null);

  const now = Date.now();
  try {
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`
        INSERT INTO "Tree" ("id", "ownerId", "title", "description", "cover", "data", "heirs", "createdAt", "updatedAt")
        VALUES (${treeId}, ${ownerId}, ${title}, ${description}, ${imageName(file.cover)},
          ${JSON.stringify(checked.data)}::jsonb, ${JSON.stringify(heirs)}::jsonb,
          CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`;
      const uploads = [...new Map([...stored.byKey.values()].map((i) => [i.name, i])).values()];
      if (uploads.length > 0) {
        await tx.upload.createMany({
          data: uploads.map((image) => ({
            id: image.name,
            ownerId,
            dir: image.dir,
            contentType: image.contentType,
            status: "USED" as const,
            size: image.size,
            width: image.width,
            height: image.height,
            urlExpiresAt: new Date(now),
          })),
        });
      }
      await insertPeople(
        tx,
        file.people.map((person, index) => ({
          id: personIds.get(person.key)!,
          treeId,
          avatar: imageName(person.avatar),
          ...people[index]!,
          links: links[index] ?? [],
          // The file's order is kept: people are listed by creation time.
          createdAt: new Date(now + index),
        })),
      );
    }, IMPORT_TX_OPTIONS);
  } catch (error) {
    await stored.discard();
    throw error;
  }

  const skippedImages = [...stored.skipped].sort((a, b) => a.image.localeCompare(b.image));
  return {
    tree: {
      _id: treeId,
      title,
      description,
      cover: imageName(file.cover),
      data: checked.data,
      version: 1,
    },
    imported: {
      people: file.people.length,
      images: new Set([...stored.byKey.values()].map((i) => i.name)).size,
      skippedImages,
      droppedLinks: dropped,
      notes: file.notes ?? [],
      families: file.families ?? countFamilies(checked.data),
    },
  };
}
