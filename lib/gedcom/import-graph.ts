// Stage 1 of the GEDCOM import (lib/gedcom/import.ts): the file's people and families, linked from
// both sides. Faulty links are warnings (lib/gedcom/warnings.ts), not refusals.
import { ImportError } from "@/lib/import/types";
import {
  PARENT_TYPES,
  PARTNER_TYPES,
  TREE_LIMITS,
  type ParentType,
  type PartnerType,
} from "@/lib/schemas/tree";
import { isHtml, textToHtml } from "./import-text";
import { child, childrenOf, type GedcomNode, type ParsedGedcom } from "./parse";
import { HEIRLOOM_TAGS } from "./tags";
import type { GedcomWarnings } from "./warnings";

export const ADOPTIVE_PEDIGREES = new Set(["ADOPTED", "FOSTER"]);

export interface Person {
  index: number;
  xref: string;
  record: GedcomNode;
  /** The ImportedPerson key: "p" and the position in the file, from 1. */
  key: string;
  /** Families where they are a partner, in the file's FAMS order, then the families' own. */
  spouseFams: number[];
  /** Families where they are a child. */
  childFams: number[];
}

export interface ChildLink {
  /** PEDI of the INDI's FAMC, upper-cased. */
  pedigree: string;
  /** Partners named adoptive by an ADOP event or _FREL/_MREL. */
  adoptedBy: Set<number>;
  parentType: ParentType;
}

export interface Family {
  index: number;
  xref: string;
  record: GedcomNode;
  husband: number | null;
  wife: number | null;
  partners: number[];
  children: number[];
  /** null: the family only groups children (Heirloom's own NONE). */
  type: PartnerType | null;
  links: Map<number, ChildLink>;
}

/** People and families of a file, linked from both sides (FAM.HUSB/WIFE/CHIL, INDI.FAMS/FAMC). */
export interface FamilyGraph {
  parsed: ParsedGedcom;
  warnings: GedcomWarnings;
  records: Map<string, GedcomNode>;
  people: Person[];
  personByXref: Map<string, number>;
  families: Family[];
  familyByXref: Map<string, number>;
}

/** Indexes the records and links people and families; faulty links are warnings, not refusals. */
export function readGraph(parsed: ParsedGedcom): FamilyGraph {
  const graph: FamilyGraph = {
    parsed,
    warnings: parsed.warnings,
    records: indexRecords(parsed),
    people: [],
    personByXref: new Map(),
    families: [],
    familyByXref: new Map(),
  };
  collectRecords(graph);
  linkPartners(graph);
  linkChildren(graph);
  linkAdoptions(graph);
  return graph;
}

/** Records by id; a record that reuses an earlier id is left out. */
function indexRecords(parsed: ParsedGedcom): Map<string, GedcomNode> {
  const records = new Map<string, GedcomNode>();
  parsed.records = parsed.records.filter((record) => {
    if (!record.xref) return true;
    if (records.has(record.xref)) {
      parsed.warnings.add("duplicateId", record.line, `@${record.xref}@`);
      return false;
    }
    records.set(record.xref, record);
    return true;
  });
  return records;
}

function collectRecords(graph: FamilyGraph): void {
  const { people, families } = graph;
  for (const record of graph.parsed.records) {
    if (record.tag === "INDI") {
      const xref = record.xref ?? `anonymous${people.length}`;
      graph.personByXref.set(xref, people.length);
      people.push({
        index: people.length,
        xref,
        record,
        key: `p${people.length + 1}`,
        spouseFams: [],
        childFams: [],
      });
    } else if (record.tag === "FAM") {
      const xref = record.xref ?? `anonymous${families.length}`;
      graph.familyByXref.set(xref, families.length);
      families.push({
        index: families.length,
        xref,
        record,
        husband: null,
        wife: null,
        partners: [],
        children: [],
        type: familyType(record),
        links: new Map(),
      });
    }
  }
}

/** The record a pointer line names, when it is there and of the right kind; else a warning. */
function target(graph: FamilyGraph, node: GedcomNode, tags: string[]): GedcomNode | null {
  if (node.pointer === null) {
    graph.warnings.add("notAPointer", node.line, node.tag);
    return null;
  }
  if (node.pointer === "VOID") return null;
  const found = graph.records.get(node.pointer);
  if (!found) {
    graph.warnings.add("danglingPointer", node.line);
    return null;
  }
  if (!tags.includes(found.tag)) {
    graph.warnings.add("wrongPointer", node.line, `${node.tag} @${node.pointer}@ is ${found.tag}`);
    return null;
  }
  return found;
}

const personAt = (graph: FamilyGraph, node: GedcomNode): number | null => {
  const found = target(graph, node, ["INDI"]);
  return found ? graph.personByXref.get(found.xref!)! : null;
};

const familyAt = (graph: FamilyGraph, node: GedcomNode): number | null => {
  const found = target(graph, node, ["FAM"]);
  return found ? graph.familyByXref.get(found.xref!)! : null;
};

/** The bio: every NOTE (inline or shared) of a record, as HTML. */
export function notesHtml(owner: GedcomNode, graph: FamilyGraph): string {
  let html = "";
  for (const node of owner.children) {
    if (node.tag !== "NOTE" && node.tag !== "SNOTE") continue;
    const note = node.pointer === null ? node : target(graph, node, ["NOTE", "SNOTE"]);
    if (note) html += isHtml(note) ? note.value : textToHtml(note.value);
  }
  return html;
}

/** The child's link to a family, made on first mention from either side. */
function childLink(graph: FamilyGraph, family: Family, childIndex: number): ChildLink {
  let found = family.links.get(childIndex);
  if (!found) {
    found = { pedigree: "BIRTH", adoptedBy: new Set(), parentType: "NONE" };
    family.links.set(childIndex, found);
    family.children.push(childIndex);
    graph.people[childIndex]!.childFams.push(family.index);
  }
  return found;
}

/** Partners: the FAM's HUSB and WIFE first, then those only named by an INDI's FAMS. Each
 * person's families follow their FAMS order, then the families that name them. */
function linkPartners(graph: FamilyGraph): void {
  const { people, families } = graph;
  for (const person of people) {
    for (const node of childrenOf(person.record, "FAMS")) {
      const f = familyAt(graph, node);
      if (f === null) continue;
      const family = families[f]!;
      if (!family.partners.includes(person.index)) family.partners.push(person.index);
      person.spouseFams.push(f);
    }
  }
  for (const family of families) {
    const named: number[] = [];
    for (const node of family.record.children) {
      if (node.tag !== "HUSB" && node.tag !== "WIFE") continue;
      const p = personAt(graph, node);
      if (p === null) continue;
      if (node.tag === "HUSB") family.husband ??= p;
      else family.wife ??= p;
      named.push(p);
      people[p]!.spouseFams.push(family.index);
    }
    family.partners = [...new Set([...named, ...family.partners])];
    if (family.partners.length > TREE_LIMITS.maxPeoplePerList) {
      throw new ImportError(
        `The family @${family.xref}@ has more than ${TREE_LIMITS.maxPeoplePerList} partners.`,
      );
    }
  }
  for (const person of people) person.spouseFams = [...new Set(person.spouseFams)];
}

/** Children in each family's CHIL order, then those only named by an INDI's FAMC. */
function linkChildren(graph: FamilyGraph): void {
  for (const family of graph.families) {
    for (const node of childrenOf(family.record, "CHIL")) {
      const c = personAt(graph, node);
      if (c === null) continue;
      const found = childLink(graph, family, c);
      for (const [tag, parent] of [
        ["_FREL", family.husband],
        ["_MREL", family.wife],
      ] as const) {
        const rel = child(node, tag)?.value.trim().toUpperCase();
        if (rel && ADOPTIVE_PEDIGREES.has(rel) && parent !== null) found.adoptedBy.add(parent);
      }
    }
  }
  for (const person of graph.people) {
    for (const node of childrenOf(person.record, "FAMC")) {
      const f = familyAt(graph, node);
      if (f === null) continue;
      const found = childLink(graph, graph.families[f]!, person.index);
      const pedi = child(node, "PEDI");
      if (pedi) found.pedigree = pedi.value.trim().toUpperCase();
      found.parentType = parentTypeOf(node) ?? found.parentType;
    }
  }
}

/** ADOP events name the family and which of its partners adopted (HUSB, WIFE, BOTH). */
function linkAdoptions(graph: FamilyGraph): void {
  for (const person of graph.people) {
    for (const event of childrenOf(person.record, "ADOP")) {
      const famc = child(event, "FAMC");
      if (!famc) continue;
      const f = familyAt(graph, famc);
      if (f === null) continue;
      const family = graph.families[f]!;
      const found = childLink(graph, family, person.index);
      const by = child(famc, "ADOP");
      const word = by?.value.trim().toUpperCase();
      const named =
        by?.pointer != null
          ? graph.personByXref.get(by.pointer)
          : word === "HUSB"
            ? family.husband
            : word === "WIFE"
              ? family.wife
              : undefined;
      if (named !== undefined && named !== null && family.partners.includes(named)) {
        found.adoptedBy.add(named);
      } else {
        for (const p of family.partners) found.adoptedBy.add(p);
      }
    }
  }
}

function familyType(record: GedcomNode): PartnerType | null {
  const own = child(record, HEIRLOOM_TAGS.partnerType)?.value.trim().toUpperCase();
  if (own === "NONE") return null;
  if (own && (PARTNER_TYPES as readonly string[]).includes(own)) return own as PartnerType;
  const happened = (tag: string) =>
    record.children.some((c) => c.tag === tag && c.value.trim().toUpperCase() !== "N");
  if (happened("DIV") || happened("ANUL")) return "EX_PARTNER";
  if (happened("MARR")) return "MARRIED";
  return "PARTNER";
}

export function parentTypeOf(node: GedcomNode): ParentType | null {
  const value = child(node, HEIRLOOM_TAGS.parentType)?.value.trim().toUpperCase();
  return value && value !== "NONE" && (PARENT_TYPES as readonly string[]).includes(value)
    ? (value as ParentType)
    : null;
}
