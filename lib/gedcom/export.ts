// Heirloom tree → GEDCOM 7.0. The mapping, and what it leaves out, is in
// docs/decisions/007-gedcom-placement.md. The output depends only on the tree and its people:
// no dates, ids numbered in the order the tree is walked.
import type { Person } from "@/lib/schemas/person";
import type { ParentType, PartnerType, Tree, TreeNode } from "@/lib/schemas/tree";
import { EVENT_TAGS, SEX_CODES, SEX_TITLE, eventParts } from "./events";
import { HEIRLOOM_HEIR_SCHEMA, HEIRLOOM_SCHEMA, HEIRLOOM_TAGS } from "./tags";
import { buildKinship } from "@/lib/tree/placements";

interface Family {
  index: number;
  /** One or two people: HUSB then WIFE. */
  partners: string[];
  /** null until a partner entry names the couple: a family that only holds children. */
  type: PartnerType | null;
  children: string[];
}

interface ChildLink {
  family: Family;
  adoptive: Set<string>;
  parentType: ParentType;
}

interface PersonLinks {
  /** Families touched where they are the node's person, in order; then the others. */
  ownFamilies: Family[];
  otherFamilies: Family[];
  childOf: ChildLink[];
  /** The parentType of a placement with no parents to hang it on. */
  looseParentType: ParentType | null;
}

const UNWRITABLE = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
const NEEDS_CLEANING = /[\u0000-\u0008\u000b-\u001f\u007f\r]/;

/** Text for a GEDCOM 7 payload: no control characters but tab and line breaks. */
function cleanText(text: string): string {
  if (!NEEDS_CLEANING.test(text)) return text;
  return text.replace(/\r\n?/g, "\n").replace(UNWRITABLE, "");
}

const escape = (line: string) => (line.startsWith("@") ? `@${line}` : line);

/** One structure, with CONT lines for every line break and a leading "@" doubled (after its
 * parent's line, when given). */
function pushLine(out: string[], level: number, tag: string, payload = "", parent?: string): void {
  if (parent !== undefined) out.push(parent);
  const lines = cleanText(payload).split("\n");
  const first = escape(lines[0]!);
  out.push(first === "" ? `${level} ${tag}` : `${level} ${tag} ${first}`);
  for (let i = 1; i < lines.length; i += 1) {
    const line = escape(lines[i]!);
    out.push(line === "" ? `${level + 1} CONT` : `${level + 1} CONT ${line}`);
  }
}

const nameText = (text: string) =>
  cleanText(text).replace(/[/\n]/g, " ").replace(/\s+/g, " ").trim();

function pairs<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += 2) out.push(items.slice(i, i + 2));
  return out;
}

/**
 * A custom row: a typed row (events.ts) as its own structure, SEX or an event with its DATE and
 * PLAC; any other row as a FACT whose TYPE is the title.
 */
function writeCustomRow(out: string[], row: { title: string; value: string }): void {
  if (row.title === SEX_TITLE && SEX_CODES.has(row.value.trim())) {
    out.push(`1 SEX ${SEX_CODES.get(row.value.trim())!}`);
    return;
  }
  const tag = EVENT_TAGS.get(row.title);
  if (tag && row.value.trim() !== "" && !row.value.includes("\n")) {
    const parts = eventParts(row.value);
    if (parts.happened) {
      out.push(`1 ${tag} Y`);
      return;
    }
    out.push(`1 ${tag}`);
    if (parts.date) out.push(`2 DATE ${parts.date}`);
    else if (parts.phrase !== null) pushLine(out, 3, "PHRASE", parts.phrase, "2 DATE");
    if (parts.place) pushLine(out, 2, "PLAC", parts.place);
    return;
  }
  pushLine(out, 1, "FACT", row.value);
  if (row.title !== "") pushLine(out, 2, "TYPE", row.title);
}

export function writeGedcom(input: { tree: Tree; people: Person[] }): string {
  const { tree } = input;
  const known = new Map(input.people.map((person) => [person._id, person]));

  const order: string[] = [];
  const links = new Map<string, PersonLinks>();
  const meet = (id: string): PersonLinks | undefined => {
    if (!known.has(id)) return undefined;
    let found = links.get(id);
    if (!found) {
      found = { ownFamilies: [], otherFamilies: [], childOf: [], looseParentType: null };
      links.set(id, found);
      order.push(id);
    }
    return found;
  };

  const families: Family[] = [];
  /** A couple's families, in walk order: one per partner entry, so a remarriage stays apart. */
  const familiesByKey = new Map<string, Family[]>();
  /** The `occurrence`-th family of exactly these people (one or two), created when first met. */
  const familyOf = (ids: string[], occurrence = 0): Family => {
    const key = [...ids].sort().join(" ");
    let list = familiesByKey.get(key);
    if (!list) {
      list = [];
      familiesByKey.set(key, list);
    }
    while (list.length <= occurrence) {
      const family: Family = { index: families.length, partners: ids, type: null, children: [] };
      families.push(family);
      list.push(family);
    }
    return list[occurrence]!;
  };
  const touch = (id: string, family: Family, own: boolean) => {
    const person = links.get(id)!;
    const list = own ? person.ownFamilies : person.otherFamilies;
    if (!list.includes(family)) list.push(family);
  };

  /**
   * The families a node's Sim is a child of: one per parent pair of the node's `parents` and
   * `adoptiveParents`, wherever those parents are placed (above the node, elsewhere, or nowhere:
   * a root's parents, culled ancestors). `holder` is the Sim of the node above, if any.
   */
  const linkParents = (childNode: TreeNode, holder: string | null) => {
    const c = childNode.person && meet(childNode.person._id) ? childNode.person._id : null;
    for (const ref of [...childNode.parents, ...childNode.adoptiveParents]) meet(ref._id);
    if (!c) return;
    const bio = [...new Set(childNode.parents.map((r) => r._id))].filter(
      (id) => id !== c && known.has(id),
    );
    const adoptive = [...new Set(childNode.adoptiveParents.map((r) => r._id))].filter(
      (id) => id !== c && known.has(id) && !bio.includes(id),
    );
    // a visible child with no parents set is the node's person's child (the canvas draws it so)
    if (bio.length === 0 && adoptive.length === 0 && holder && holder !== c && !childNode.hidden) {
      bio.push(holder);
    }
    const all = [...bio, ...adoptive];
    if (all.length === 0) {
      if (childNode.parentType !== "NONE") links.get(c)!.looseParentType = childNode.parentType;
      return;
    }
    const groups = all.length <= 2 ? [all] : [...pairs(bio), ...pairs(adoptive)];
    for (const group of groups) {
      // the node's person leads the families they are in, as on their own node
      const members =
        holder && group.includes(holder) ? [holder, ...group.filter((id) => id !== holder)] : group;
      const family = familyOf(members);
      if (!family.children.includes(c)) family.children.push(c);
      for (const id of members) touch(id, family, id === holder);
      const person = links.get(c)!;
      if (!person.childOf.some((l) => l.family === family)) {
        person.childOf.push({
          family,
          adoptive: new Set(members.filter((id) => adoptive.includes(id))),
          parentType: childNode.parentType,
        });
      }
    }
  };

  // breadth first, like the canvas, so ids follow what the player sees from the top
  const queue: TreeNode[] = [tree.data];
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head]!;
    const self = node.person && meet(node.person._id) ? node.person._id : null;
    for (const entry of node.partners) for (const ref of entry.people) meet(ref._id);
    if (self) {
      // the n-th entry with a partner on a node is the couple's n-th family: the same couple
      // on the partner's own node names the same families, not new ones
      const seen = new Map<string, number>();
      for (const entry of node.partners) {
        for (const ref of entry.people) {
          if (ref._id === self || !known.has(ref._id)) continue;
          const occurrence = seen.get(ref._id) ?? 0;
          seen.set(ref._id, occurrence + 1);
          const family = familyOf([self, ref._id], occurrence);
          family.type ??= entry.type;
          touch(self, family, true);
          touch(ref._id, family, false);
        }
      }
    }
    // the root has no node above it, but its parents may be set all the same
    if (head === 0) linkParents(node, null);
    for (const childNode of node.children) {
      queue.push(childNode);
      linkParents(childNode, self);
    }
  }
  // people in no node still travel, after the tree's, in a fixed order
  for (const id of [...known.keys()].sort()) meet(id);

  const xref = new Map(order.map((id, i) => [id, `@I${i + 1}@`]));
  const famXref = (family: Family) => `@F${family.index + 1}@`;

  const out: string[] = [];
  out.push("0 HEAD", "1 GEDC", "2 VERS 7.0", "1 SCHMA");
  for (const [tag, uri] of HEIRLOOM_SCHEMA) out.push(`2 TAG ${tag} ${uri}`);
  // heirs (issue 26): kept on the tree apart from its nodes, written on their INDI
  const heirGenerations = new Map<string, number>();
  if (tree.heirs && tree.heirs.length > 0) {
    const { generation } = buildKinship(tree.data);
    for (const id of tree.heirs) {
      const at = generation.get(id);
      if (at !== undefined && known.has(id)) heirGenerations.set(id, at);
    }
  }
  if (heirGenerations.size > 0)
    out.push(`2 TAG ${HEIRLOOM_HEIR_SCHEMA[0]} ${HEIRLOOM_HEIR_SCHEMA[1]}`);
  out.push("1 SOUR HEIRLOOM", "2 NAME Heirloom");
  if (tree.title.trim() !== "") pushLine(out, 1, HEIRLOOM_TAGS.title, tree.title);
  if (tree.description.trim() !== "") {
    pushLine(out, 1, "NOTE", tree.description);
    out.push("2 MIME text/html");
  }

  for (const id of order) {
    const person = known.get(id)!;
    const own = links.get(id)!;
    out.push(`0 ${xref.get(id)!} INDI`);
    const first = nameText(person.firstName);
    const last = nameText(person.lastName);
    if (first !== "" || last !== "") {
      out.push(last === "" ? `1 NAME ${first}` : `1 NAME ${`${first} /${last}/`.trim()}`);
      if (person.firstName.trim() !== "") pushLine(out, 2, "GIVN", person.firstName);
      if (person.lastName.trim() !== "") pushLine(out, 2, "SURN", person.lastName);
    }
    if (person.bio.trim() !== "") {
      pushLine(out, 1, "NOTE", person.bio);
      out.push("2 MIME text/html");
    }
    for (const row of person.custom) writeCustomRow(out, row);
    for (const trait of person.traits) pushLine(out, 1, HEIRLOOM_TAGS.trait, trait);
    for (const aspiration of person.aspirations) {
      pushLine(out, 1, HEIRLOOM_TAGS.aspiration, aspiration);
    }
    for (const state of person.lifeStates) pushLine(out, 1, HEIRLOOM_TAGS.lifeState, state);
    const heirOf = heirGenerations.get(id);
    if (heirOf !== undefined) out.push(`1 ${HEIRLOOM_TAGS.heir} ${heirOf}`);
    if (own.childOf.length === 0 && own.looseParentType) {
      out.push(`1 ${HEIRLOOM_TAGS.parentType} ${own.looseParentType}`);
    }
    // adopted by one partner of two: GEDCOM 7's ADOP event says which
    for (const link of own.childOf) {
      const { family, adoptive } = link;
      if (adoptive.size === 0 || adoptive.size === family.partners.length) continue;
      out.push("1 ADOP", `2 FAMC ${famXref(family)}`);
      out.push(`3 ADOP ${adoptive.has(family.partners[0]!) ? "HUSB" : "WIFE"}`);
    }
    for (const link of own.childOf) {
      const { family, adoptive } = link;
      out.push(`1 FAMC ${famXref(family)}`);
      if (adoptive.size === 0) out.push("2 PEDI BIRTH");
      else if (adoptive.size === family.partners.length) out.push("2 PEDI ADOPTED");
      else out.push("2 PEDI OTHER", "3 PHRASE Adopted by one parent");
      if (link.parentType !== "NONE") out.push(`2 ${HEIRLOOM_TAGS.parentType} ${link.parentType}`);
    }
    const spouseIn = [...new Set([...own.ownFamilies, ...own.otherFamilies])];
    for (const family of spouseIn) out.push(`1 FAMS ${famXref(family)}`);
  }

  for (const family of families) {
    out.push(`0 ${famXref(family)} FAM`);
    const [husband, wife] = family.partners;
    if (husband) out.push(`1 HUSB ${xref.get(husband)!}`);
    if (wife) out.push(`1 WIFE ${xref.get(wife)!}`);
    for (const c of family.children) out.push(`1 CHIL ${xref.get(c)!}`);
    if (family.partners.length < 2) continue;
    if (family.type === "MARRIED") out.push("1 MARR Y");
    if (family.type === "EX_PARTNER") out.push("1 DIV Y");
    if (family.type === "ABDUCTION") out.push("1 NOTE Alien abduction");
    out.push(`1 ${HEIRLOOM_TAGS.partnerType} ${family.type ?? "NONE"}`);
  }
  out.push("0 TRLR");
  return `${out.join("\n")}\n`;
}
