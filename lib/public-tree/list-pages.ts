// The public list of a published tree, in pages of bounded size (issue 22, finding 3): a tree of
// 98,492 Sims was one list page of 120 MB of HTML, and a stored tree of 256 nodes with 100 partner
// rows of 100 references each crashed the process when listed. Each page holds at most
// LIST_PAGE_ITEMS entries whose people come to at most LIST_PAGE_BYTES of JSON (one entry always,
// however large), and an entry shows at most a few of its node's references, naming how many more.
// Pure and iterative: the walk is bounded by the tree, never by the stack.
import type { Person } from "@/lib/schemas/person";
import type { ParentType, PartnerType, TreeNode } from "@/lib/schemas/tree";

/** Entries on one page of the list. */
export const LIST_PAGE_ITEMS = 200;
/** The people one page carries, as JSON bytes (a page is cut before passing it). */
export const LIST_PAGE_BYTES = 256 * 1024;
/** Partners shown per node, across its partner rows; the rest are counted. */
export const PARTNERS_SHOWN = 12;
/** Parents, and adoptive parents, shown per node. */
export const PARENTS_SHOWN = 4;

export interface ListNodeItem {
  kind: "node";
  /** How deep the node is in the whole tree (the root is 0). */
  depth: number;
  person: string | null;
  partners: { type: PartnerType; people: string[] }[];
  /** Partner references not shown (past PARTNERS_SHOWN). */
  hiddenPartners: number;
  parentType: ParentType;
  parents: string[];
  adoptiveParents: string[];
  /** Parent and adoptive parent references not shown. */
  hiddenParents: number;
  /** How many children the node has (they follow it, on this page or the next). */
  children: number;
}

export interface ListUnplacedItem {
  kind: "unplaced";
  person: string;
}

export type ListItem = ListNodeItem | ListUnplacedItem;

export interface ListPage {
  /** This page's number, from 1. */
  number: number;
  /** How many pages the list has (at least 1). */
  count: number;
  items: ListItem[];
  /** The people the page's items name, each once. */
  people: Person[];
}

function nodeItem(node: TreeNode, depth: number): ListNodeItem {
  let shown = 0;
  let hiddenPartners = 0;
  const partners: ListNodeItem["partners"] = [];
  for (const entry of node.partners) {
    const people: string[] = [];
    for (const ref of entry.people) {
      if (shown < PARTNERS_SHOWN) {
        people.push(ref._id);
        shown += 1;
      } else hiddenPartners += 1;
    }
    if (people.length > 0) partners.push({ type: entry.type, people });
  }
  const parents = node.parents.slice(0, PARENTS_SHOWN).map((ref) => ref._id);
  const adoptiveParents = node.adoptiveParents.slice(0, PARENTS_SHOWN).map((ref) => ref._id);
  return {
    kind: "node",
    depth,
    person: node.person?._id ?? null,
    partners,
    hiddenPartners,
    parentType: node.parentType,
    parents,
    adoptiveParents,
    hiddenParents:
      node.parents.length - parents.length + node.adoptiveParents.length - adoptiveParents.length,
    children: node.children.length,
  };
}

function namedIn(item: ListItem): string[] {
  if (item.kind === "unplaced") return [item.person];
  const ids = item.person ? [item.person] : [];
  for (const entry of item.partners) ids.push(...entry.people);
  ids.push(...item.parents, ...item.adoptiveParents);
  return ids;
}

/**
 * Page `wanted` (from 1; past the last gives the last) of the tree's list: its nodes depth first,
 * then the Sims placed nowhere. Walks the whole tree once; a person's JSON is measured once.
 */
export function listPage(data: TreeNode, people: readonly Person[], wanted: number): ListPage {
  const byId = new Map(people.map((person) => [person._id, person]));
  const sizes = new Map<string, number>();
  const sizeOf = (id: string) => {
    let size = sizes.get(id);
    if (size === undefined) {
      const person = byId.get(id);
      size = person ? JSON.stringify(person).length : 0;
      sizes.set(id, size);
    }
    return size;
  };

  let number = 1;
  let items: ListItem[] = [];
  let onPage = new Set<string>();
  let bytes = 0;
  const found: { page: { items: ListItem[]; ids: Set<string> } | null } = { page: null };
  const place = (item: ListItem) => {
    const fresh = namedIn(item).filter((id) => byId.has(id) && !onPage.has(id));
    const unique = [...new Set(fresh)];
    const cost = unique.reduce((total, id) => total + sizeOf(id), 0);
    if (items.length >= LIST_PAGE_ITEMS || (items.length > 0 && bytes + cost > LIST_PAGE_BYTES)) {
      if (number === wanted) found.page = { items, ids: onPage };
      number += 1;
      items = [];
      onPage = new Set();
      bytes = 0;
      place(item);
      return;
    }
    items.push(item);
    for (const id of unique) onPage.add(id);
    bytes += cost;
  };

  const placed = new Set<string>();
  const stack: [TreeNode, number][] = [[data, 0]];
  const isEmpty = !data.person && data.partners.length === 0 && data.children.length === 0;
  while (stack.length > 0 && !isEmpty) {
    const [node, depth] = stack.pop()!;
    if (node.person) placed.add(node.person._id);
    for (const entry of node.partners) for (const ref of entry.people) placed.add(ref._id);
    place(nodeItem(node, depth));
    for (let index = node.children.length - 1; index >= 0; index -= 1) {
      stack.push([node.children[index]!, depth + 1]);
    }
  }
  for (const person of people) {
    if (!placed.has(person._id)) place({ kind: "unplaced", person: person._id });
  }

  const count = number;
  const last = { items, ids: onPage };
  const page = found.page ?? last;
  return {
    number: found.page ? wanted : count,
    count,
    items: page.items,
    people: [...page.ids].flatMap((id) => byId.get(id) ?? []),
  };
}
