import "server-only";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { parseImportFile } from "@/lib/import/parse-import";
import type { ImportFormat } from "@/lib/import/detect";
import { ImportError, type ImportedTree } from "@/lib/import/types";
import { looksLikeZip, type ZipInput, type ZipLimits, type ZipSource } from "@/lib/import/zip";
import { PERSON_LIMITS } from "@/lib/schemas/person";
import { objectId } from "@/lib/schemas/common";
import { treeData, type PersonRef, type TreeNode } from "@/lib/schemas/tree";
import { toggleHeir } from "@/lib/tree/heirs";
import { buildKinship } from "@/lib/tree/placements";
import { mapPersonRefs } from "@/lib/tree/reducers";
import { describeZodError } from "@/lib/validation-message";
import { peopleBatches } from "./insert-people";
import { clipDescription, clipLine, clipPerson, clipTitle } from "./clip";

// The CPU half of an import, run in a worker thread (lib/server/workers/tasks.ts): the file in,
// rows ready to insert out. Pure: no database, no storage. What comes back is mostly JSON text,
// which crosses to the request thread as one copy, where a tree of objects would be rebuilt
// there object by object.

/** Where the uploaded file is: a file of its own (the route), or bytes (services and tests). */
export type ImportSource = { path: string } | { bytes: Uint8Array };

export interface PrepareImportInput {
  source: ImportSource;
  format?: ImportFormat;
  limits?: ZipLimits;
  fileName?: string;
  /** A title chosen by the player, over the file's own. */
  title?: string;
  /** The household of a Sims 4 save to import (a decimal id); the save's active one without. */
  household?: string;
  /** Several households of a Sims 4 save into one tree (issue 34); over `household`. */
  households?: string[];
}

/** A link as the file wrote it, with a link within the file already moved to the new ids. */
export interface LinkCandidate {
  title: string;
  treeId: string;
  personId: string;
  /** A link within the file (kept when its person is in the file, personId then the new id). */
  internal: boolean;
}

export interface PreparedImport {
  treeId: string;
  title: string;
  description: string;
  /** An image key of `images`, or null. */
  cover: string | null;
  /** The checked structure with the new person ids, as JSON. */
  dataJson: string;
  /** The file's heirs with the new person ids: those placed in the tree, one per generation. */
  heirs: string[];
  /**
   * The people as JSON arrays (insert-people.ts's peopleBatches and columns),
   * with the image key in "avatarKey" and no links: the request thread stores the images and
   * checks the links against the database, then joins both in SQL.
   */
  peopleBatches: string[];
  people: number;
  /** Image key → the folder it is stored in; only images something uses. */
  usage: [string, "avatar" | "cover"][];
  images: Map<string, Uint8Array>;
  /** New person id → its links in file order, for the people who have any. */
  links: [string, LinkCandidate[]][];
  notes: string[];
  families: number;
}

/** Random access to an open file, read synchronously like bytes in memory. */
function fileSource(fd: number, length: number): ZipSource {
  return {
    length,
    read(at, wanted) {
      const size = Math.max(0, Math.min(wanted, length - at));
      const buffer = Buffer.allocUnsafeSlow(size);
      let done = 0;
      while (done < size) {
        const n = fs.readSync(fd, buffer, done, size - done, at + done);
        if (n === 0) break;
        done += n;
      }
      return done === size ? buffer : buffer.subarray(0, done);
    },
  };
}

/** Parses the source: a ZIP is read from its file piece by piece, anything else read whole. */
async function parseSource(input: PrepareImportInput): Promise<ImportedTree> {
  const parse = (bytes: ZipInput) =>
    parseImportFile(bytes, input.format, input.limits, {
      fileName: input.fileName,
      household: input.household,
      households: input.households,
    });
  if ("bytes" in input.source) return parse(input.source.bytes);
  const fd = fs.openSync(input.source.path, "r");
  try {
    const source = fileSource(fd, fs.fstatSync(fd).size);
    return await parse(looksLikeZip(source) ? source : source.read(0, source.length));
  } finally {
    fs.closeSync(fd);
  }
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
 * Reads an uploaded file and builds what the import will write (lib/server/import/import-tree.ts
 * writes it): new ids for the tree and every person, every reference in the structure remapped and
 * the structure checked, title, description, names, lists and custom rows clipped to Heirloom's
 * limits and rich text sanitized, and links within the file moved to the new ids. A file that
 * cannot be imported is an ImportError with the sentence the player sees.
 */
export async function prepareImport(input: PrepareImportInput): Promise<PreparedImport> {
  const file = await parseSource(input);
  const treeId = randomUUID();
  const personIds = new Map<string, string>();
  for (const person of file.people) {
    if (personIds.has(person.key)) {
      throw new ImportError(`The file lists the person ${person.key} twice`);
    }
    personIds.set(person.key, randomUUID());
  }
  const checked = treeData.safeParse(remapData(file.data, personIds));
  if (!checked.success) throw new ImportError(describeZodError(checked.error));

  // Only images something uses are stored; the cover wins the folder when shared with an avatar.
  const usage = new Map<string, "avatar" | "cover">();
  for (const person of file.people) if (person.avatar) usage.set(person.avatar, "avatar");
  if (file.cover) usage.set(file.cover, "cover");
  const images = new Map<string, Uint8Array>();
  for (const key of usage.keys()) {
    const bytes = file.images.get(key);
    if (bytes) images.set(key, bytes);
  }

  const now = Date.now();
  const links: [string, LinkCandidate[]][] = [];
  const rows = file.people.map((person, index) => {
    const id = personIds.get(person.key)!;
    if (person.links && person.links.length > 0) {
      links.push([
        id,
        person.links.map((link) => {
          const internal =
            file.sourceTreeId !== undefined &&
            file.sourceTreeId !== null &&
            link.treeId === file.sourceTreeId;
          return {
            title: clipLine(link.title, PERSON_LIMITS.linkTitle),
            treeId: internal ? treeId : link.treeId,
            personId: internal ? (personIds.get(link.personId) ?? "") : link.personId,
            internal,
          };
        }),
      ]);
    }
    return {
      id,
      treeId,
      avatarKey: person.avatar,
      ...clipPerson(person),
      // The file's order is kept: people are listed by creation time.
      createdAt: new Date(now + index).toISOString(),
    };
  });
  return {
    treeId,
    title: clipTitle(input.title || file.title),
    description: clipDescription(file.description),
    cover: file.cover,
    dataJson: JSON.stringify(checked.data),
    heirs: importedHeirs(file.heirs, personIds, checked.data),
    peopleBatches: peopleBatches(rows),
    people: file.people.length,
    usage: [...usage],
    images,
    links,
    notes: file.notes ?? [],
    families: file.families ?? countFamilies(checked.data),
  };
}

/**
 * Each person's links as they can live on here, in file order, at most PERSON_LIMITS.links:
 * - a link within the file is kept when its person is in the file (remapped by prepareImport);
 * - a link to another tree is kept only if `published` (tree id → its public copy's people) has
 *   the person (so an Heirloom backup keeps its links; Plum Tree and PruneTree ids name trees
 *   that no longer exist anywhere and are dropped);
 * - anything else is dropped, and counted.
 */
export function resolveLinkCandidates(
  candidates: readonly LinkCandidate[],
  published: ReadonlyMap<string, ReadonlySet<string>>,
): { kept: { title: string; treeId: string; personId: string }[]; dropped: number } {
  const kept: { title: string; treeId: string; personId: string }[] = [];
  let dropped = 0;
  for (const link of candidates) {
    const ok = link.internal
      ? link.personId !== ""
      : objectId.safeParse(link.treeId).success &&
        (published.get(link.treeId)?.has(link.personId) ?? false);
    if (ok && kept.length < PERSON_LIMITS.links) {
      kept.push({ title: link.title, treeId: link.treeId, personId: link.personId });
    } else {
      dropped += 1;
    }
  }
  return { kept, dropped };
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
