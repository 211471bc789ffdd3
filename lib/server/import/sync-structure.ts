import "server-only";
import { type PartnerEntry, type PersonRef, type TreeNode, treeData } from "@/lib/schemas/tree";
import {
  type PreparedStructure,
  type WorkAnswer,
  answerOf,
  structureChunks,
} from "@/lib/server/trees/structure-work";

// The structure half of a household sync (sync-household.ts): a pure function of the stored
// structure's text and the save's tree, run in the worker pool (issue 32: on a 24,001-Sim tree it
// held the request thread 1.1-1.3 s: the stored structure parsed and validated, walked, validated
// again and serialized).

export interface SyncStructureInput {
  /** The stored structure as JSON text (readTreeText). */
  stored: string;
  /** The save's household as an imported tree: its references are the Sims' game keys. */
  file: TreeNode;
  /** Game key → person id, for the Sims the tree has and the ones the sync adds. */
  idOf: [string, string][];
  /** The ids of the Sims the sync adds, in the order they are added. */
  added: string[];
}

/**
 * The stored structure with the save's new Sims in their places (under their parents' node,
 * beside their partners), new partner rows of the Sims it has, and new Sims the walk did not
 * place beside the tree, validated by `treeData` and cut into a new set of chunks.
 */
export function mergeHousehold(input: SyncStructureInput): PreparedStructure {
  const stored = treeData.parse(JSON.parse(input.stored));
  const idOf = new Map(input.idOf);
  const addedIds = new Set(input.added);
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
    for (const child of node.children) stack.push(child);
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
  const walk: [TreeNode, TreeNode | null][] = [[input.file, null]];
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
        const shown = target;
        const entries = newPartnerEntries(fileNode, partnersOf(shown));
        shown.partners.push(
          ...entries.filter((e) => !e.people.some((p) => p._id === shown.person?._id)),
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
    for (const child of node.children) s2.push(child);
  }
  for (const id of input.added) {
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
  // a schema error is the 400 it was on the request thread (describeZodError)
  return structureChunks(treeData.parse(root));
}

/** mergeHousehold as the worker task answers it (structure-work.ts). */
export const mergeHouseholdTask = (input: SyncStructureInput): WorkAnswer<PreparedStructure> =>
  answerOf(() => mergeHousehold(input));
