// GEDCOM 5.5.1 / 7 → ImportedTree. How people are placed in Heirloom's strict hierarchy (root,
// several placements, disconnected families, cycles) is docs/decisions/007-gedcom-placement.md.
import { ImportError, type ImportedPerson, type ImportedTree } from "@/lib/import/types";
import { PERSON_LIMITS } from "@/lib/schemas/person";
import {
  DESCRIPTION_MAX,
  PARENT_TYPES,
  PARTNER_TYPES,
  TITLE_MAX,
  TREE_LIMITS,
  type ParentType,
  type PartnerType,
  type TreeNode,
} from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import {
  EVENT_TEXT_SUFFIX,
  HAPPENED,
  SEX_LABELS,
  SEX_TITLE,
  TYPED_EVENTS,
  eventValue,
} from "./events";
import { child, childrenOf, parseGedcomText, type GedcomNode, type ParsedGedcom } from "./parse";
import { HEIRLOOM_TAGS } from "./tags";
import type { GedcomWarnings } from "./warnings";

/** Individual events and attributes kept as custom rows, with their titles. */
const FACT_LABELS: Record<string, string> = {
  BIRT: "Birth",
  CHR: "Christening",
  BAPM: "Baptism",
  DEAT: "Death",
  BURI: "Burial",
  CREM: "Cremation",
  ADOP: "Adoption",
  BARM: "Bar mitzvah",
  BASM: "Bat mitzvah",
  BLES: "Blessing",
  CHRA: "Adult christening",
  CONF: "Confirmation",
  FCOM: "First communion",
  GRAD: "Graduation",
  RETI: "Retirement",
  NATU: "Naturalization",
  EMIG: "Emigration",
  IMMI: "Immigration",
  CENS: "Census",
  PROB: "Probate",
  WILL: "Will",
  ORDN: "Ordination",
  EVEN: "Event",
  CAST: "Caste",
  DSCR: "Physical description",
  EDUC: "Education",
  IDNO: "Identification number",
  NATI: "Nationality",
  NCHI: "Number of children",
  NMR: "Number of marriages",
  OCCU: "Occupation",
  PROP: "Property",
  RELI: "Religion",
  RESI: "Residence",
  SSN: "Social security number",
  TITL: "Title",
  FACT: "",
};
/** Events with no payload or details still say something: that they happened. */
const ATTRIBUTES = new Set([
  "CAST",
  "DSCR",
  "EDUC",
  "IDNO",
  "NATI",
  "NCHI",
  "NMR",
  "OCCU",
  "PROP",
  "RELI",
  "RESI",
  "SSN",
  "TITL",
  "FACT",
]);
const FAMILY_EVENTS: Record<string, string> = {
  ENGA: "Engagement",
  MARR: "Marriage",
  DIV: "Divorce",
  ANUL: "Annulment",
};
const ADOPTIVE_PEDIGREES = new Set(["ADOPTED", "FOSTER"]);
const DEFAULT_TITLE = "Imported family tree";

interface Person {
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

interface ChildLink {
  /** PEDI of the INDI's FAMC, upper-cased. */
  pedigree: string;
  /** Partners named adoptive by an ADOP event or _FREL/_MREL. */
  adoptedBy: Set<number>;
  parentType: ParentType;
}

interface Family {
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

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
const squash = (text: string) => text.replace(/\s+/g, " ").trim();

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** Plain text as HTML paragraphs: blank lines part paragraphs, single line breaks stay breaks. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "")
    .map((paragraph) => `<p>${paragraph.split("\n").map(escapeHtml).join("<br>")}</p>`)
    .join("");
}

function isHtml(node: GedcomNode): boolean {
  const mime = child(node, "MIME");
  return mime?.value.trim().toLowerCase() === "text/html";
}

function splitName(value: string): { given: string; surname: string } {
  const match = /^([^/]*)\/([^/]*)\/?(.*)$/.exec(value);
  if (!match) return { given: squash(value), surname: "" };
  return {
    given: squash(match[1]!),
    surname: squash(`${match[2]!} ${match[3]!}`.replace(/ ,/g, ",")),
  };
}

function displayName(person: ImportedPerson, xref: string): string {
  const name = `${person.firstName} ${person.lastName}`.trim();
  return name ? `${name} (@${xref}@)` : `@${xref}@`;
}

/** People and families of a file, linked from both sides (FAM.HUSB/WIFE/CHIL, INDI.FAMS/FAMC). */
interface FamilyGraph {
  parsed: ParsedGedcom;
  warnings: GedcomWarnings;
  records: Map<string, GedcomNode>;
  people: Person[];
  personByXref: Map<string, number>;
  families: Family[];
  familyByXref: Map<string, number>;
}

export interface GedcomImportOptions {
  /** The name of the file the player chose, e.g. "Smith family.ged": the title when the file has none. */
  fileName?: string;
}

export function parseGedcom(bytes: Uint8Array, options: GedcomImportOptions = {}): ImportedTree {
  const graph = readGraph(parseGedcomText(bytes));
  const imported = graph.people.map((person) => importPerson(person, graph));
  const depth = generationsBelow(graph, imported);
  const { root, families } = placePeople(graph, imported, depth);
  const { head } = graph.parsed;
  return {
    source: "gedcom",
    title: treeTitle(head, options.fileName),
    description: clip(notesHtml(head, graph), DESCRIPTION_MAX),
    cover: null,
    data: root,
    people: imported,
    images: new Map(),
    notes: graph.warnings.notes(),
    families,
    // heirs (issue 26): the import keeps one per generation of the tree it builds
    heirs: graph.people
      .filter((person) => person.record.children.some((n) => n.tag === HEIRLOOM_TAGS.heir))
      .map((person) => person.key),
  };
}

/** Indexes the records and links people and families; faulty links are warnings, not refusals. */
function readGraph(parsed: ParsedGedcom): FamilyGraph {
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
function notesHtml(owner: GedcomNode, graph: FamilyGraph): string {
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

/**
 * Connected families: people joined by any family (as partners or children), by union-find.
 * Returns each person's family number, numbered by size (0 = the largest, ties by file order).
 */
function connectedFamilies(people: Person[], families: Family[]): Int32Array {
  const parent = Int32Array.from(people, (_, i) => i);
  const find = (p: number): number => {
    while (parent[p] !== p) {
      parent[p] = parent[parent[p]!]!;
      p = parent[p]!;
    }
    return p;
  };
  for (const family of families) {
    const members = [...family.partners, ...family.children];
    for (let i = 1; i < members.length; i += 1) {
      const a = find(members[0]!);
      const b = find(members[i]!);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const size = new Map<number, number>();
  for (let p = 0; p < people.length; p += 1) size.set(find(p), (size.get(find(p)) ?? 0) + 1);
  const ranked = [...size.keys()].sort((a, b) => size.get(b)! - size.get(a)! || a - b);
  const rank = new Map(ranked.map((r, i) => [r, i]));
  return Int32Array.from(people, (_, p) => rank.get(find(p))!);
}

/** Work allowed for trying founders as the root: founders × people walked. */
const ROOT_SEARCH_BUDGET = 4_000_000;

/**
 * How many people the walk from a founder shows: their descendants and every partner of them.
 * The root is the founder of the largest connected family whose walk shows the most people.
 */
function peopleShownFrom(
  start: number,
  people: Person[],
  families: Family[],
  seen: Int32Array,
  walked: Int32Array,
  mark: number,
): number {
  let shown = 0;
  const see = (p: number) => {
    if (seen[p] === mark) return false;
    seen[p] = mark;
    shown += 1;
    return true;
  };
  const queue = [start];
  see(start);
  for (let head = 0; head < queue.length; head += 1) {
    for (const f of people[queue[head]!]!.spouseFams) {
      const family = families[f]!;
      for (const q of family.partners) see(q);
      for (const c of family.children) {
        see(c);
        // a child already seen as someone's partner still has their own children to show
        if (walked[c] !== mark) {
          walked[c] = mark;
          queue.push(c);
        }
      }
    }
  }
  return shown;
}

/**
 * The order founders start branches in (ADR 007): the largest connected family first, and in
 * it the founder whose walk shows the most people; then the other founders by family size,
 * each family's founders by people shown, deepest line and file order.
 */
function founderOrder(graph: FamilyGraph, depth: Int32Array, familyOf: Int32Array): number[] {
  const { people, families } = graph;
  const founders = people
    .filter((person) => person.childFams.every((f) => families[f]!.partners.length === 0))
    .map((person) => person.index);
  const byFamily = new Map<number, number[]>();
  for (const p of founders) {
    const list = byFamily.get(familyOf[p]!) ?? [];
    list.push(p);
    byFamily.set(familyOf[p]!, list);
  }
  const seen = new Int32Array(people.length).fill(-1);
  const walked = new Int32Array(people.length).fill(-1);
  const shown = new Map<number, number>();
  let budget = ROOT_SEARCH_BUDGET;
  let mark = 0;
  const order: number[] = [];
  for (const family of [...byFamily.keys()].sort((a, b) => a - b)) {
    const list = byFamily.get(family)!.sort((a, b) => depth[b]! - depth[a]! || a - b);
    for (const p of list) {
      // a huge file tries the deepest founders first, as far as the budget goes
      if (budget <= 0) break;
      const count = peopleShownFrom(p, people, families, seen, walked, mark);
      mark += 1;
      budget -= count;
      shown.set(p, count);
    }
    list.sort(
      (a, b) => (shown.get(b) ?? 0) - (shown.get(a) ?? 0) || depth[b]! - depth[a]! || a - b,
    );
    order.push(...list);
  }
  return order;
}

/** Builds the tree's nodes: breadth first from the root, then one hidden branch per founder
 * nobody placed yet (ADR 007). A family's children hang under the first node of a partner. */
class Placement {
  root: TreeNode | null = null;
  private readonly placed: Uint8Array;
  private readonly hasNode: Uint8Array;
  private readonly expanded: Uint8Array;
  private nodeCount = 0;

  constructor(
    private readonly graph: FamilyGraph,
    private readonly imported: ImportedPerson[],
  ) {
    this.placed = new Uint8Array(graph.people.length);
    this.hasNode = new Uint8Array(graph.people.length);
    this.expanded = new Uint8Array(graph.families.length);
  }

  /** True when a person is not shown yet, or shown only as a partner with families to show. */
  needsBranch(p: number): boolean {
    if (!this.placed[p]) return true;
    return !this.hasNode[p] && this.graph.people[p]!.spouseFams.some((f) => !this.expanded[f]);
  }

  /** The root's node, or a hidden child of the root: a family drawn beside the main one. */
  branch(p: number): void {
    const node = this.makeNode(p, null);
    if (this.root === null) {
      this.root = node;
      this.spread(node, p, 1);
    } else {
      node.hidden = true;
      this.root.children.push(node);
      this.spread(node, p, 2);
    }
  }

  private makeNode(p: number, parentInfo: { family: Family; link: ChildLink } | null): TreeNode {
    const { people, families } = this.graph;
    this.nodeCount += 1;
    if (this.nodeCount > TREE_LIMITS.maxNodes) {
      throw new ImportError(
        `This GEDCOM file is too large for one tree: it needs more than ${TREE_LIMITS.maxNodes.toLocaleString("en-US")} places in the tree.`,
      );
    }
    const node = emptyNode();
    node.person = { _id: people[p]!.key };
    this.placed[p] = 1;
    this.hasNode[p] = 1;
    for (const f of people[p]!.spouseFams) {
      const family = families[f]!;
      const others = family.partners.filter((q) => q !== p);
      if (family.type === null || others.length === 0) continue;
      for (const q of others) this.placed[q] = 1;
      node.partners.push({
        type: family.type,
        people: others.map((q) => ({ _id: people[q]!.key })),
      });
    }
    if (node.partners.length > TREE_LIMITS.maxPeoplePerList) {
      throw new ImportError(
        `${displayName(this.imported[p]!, people[p]!.xref)} has more than ${TREE_LIMITS.maxPeoplePerList} partners, more than a tree node can show.`,
      );
    }
    if (parentInfo) {
      const { family, link } = parentInfo;
      const allAdoptive = ADOPTIVE_PEDIGREES.has(link.pedigree);
      for (const q of family.partners) {
        const ref = { _id: people[q]!.key };
        if (allAdoptive || link.adoptedBy.has(q)) node.adoptiveParents.push(ref);
        else node.parents.push(ref);
      }
      node.parentType = link.parentType;
    } else {
      node.parentType = people[p]!.record.children.map(parentTypeOf).find((t) => t) ?? "NONE";
    }
    return node;
  }

  private spread(start: TreeNode, startPerson: number, startDepth: number): void {
    const { people, families } = this.graph;
    const queue: [TreeNode, number, number][] = [[start, startPerson, startDepth]];
    for (let head = 0; head < queue.length; head += 1) {
      const [node, p, level] = queue[head]!;
      for (const f of people[p]!.spouseFams) {
        if (this.expanded[f]) continue;
        this.expanded[f] = 1;
        const family = families[f]!;
        for (const c of family.children) {
          if (level + 1 > TREE_LIMITS.maxDepth) {
            throw new ImportError(
              `This GEDCOM file has more than ${TREE_LIMITS.maxDepth} generations, more than a tree can hold.`,
            );
          }
          const childNode = this.makeNode(c, { family, link: family.links.get(c)! });
          node.children.push(childNode);
          queue.push([childNode, c, level + 1]);
        }
      }
    }
  }
}

/** Places everyone (ADR 007) and counts the file's connected families. */
function placePeople(
  graph: FamilyGraph,
  imported: ImportedPerson[],
  depth: Int32Array,
): { root: TreeNode; families: number } {
  const familyOf = connectedFamilies(graph.people, graph.families);
  const placement = new Placement(graph, imported);
  for (const p of founderOrder(graph, depth, familyOf)) {
    if (placement.needsBranch(p)) placement.branch(p);
  }
  // everyone has a founder above them once cycles are refused; this only guards that promise
  for (let p = 0; p < graph.people.length; p += 1) {
    if (placement.needsBranch(p)) placement.branch(p);
  }
  return {
    root: placement.root ?? emptyNode(),
    families: familyOf.reduce((most, f) => Math.max(most, f + 1), 0),
  };
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

function parentTypeOf(node: GedcomNode): ParentType | null {
  const value = child(node, HEIRLOOM_TAGS.parentType)?.value.trim().toUpperCase();
  return value && value !== "NONE" && (PARENT_TYPES as readonly string[]).includes(value)
    ? (value as ParentType)
    : null;
}

/** The title: the file's own (an Heirloom export's), else the name of the file the player chose,
 * else the file name in the header when it is one (not a program's name), else a default. */
function treeTitle(head: GedcomNode, fileName: string | undefined): string {
  const own = child(head, HEIRLOOM_TAGS.title)?.value;
  if (own !== undefined && squash(own) !== "") return clip(squash(own), TITLE_MAX);
  const stem = (name: string) =>
    squash(
      name
        .split(/[\\/]/)
        .pop()!
        .replace(/\.(?:ged|gedcom)$/i, ""),
    );
  if (fileName && stem(fileName) !== "") return clip(stem(fileName), TITLE_MAX);
  const file = child(head, "FILE")?.value.trim() ?? "";
  if (/\.(?:ged|gedcom)$/i.test(file) && stem(file) !== "") return clip(stem(file), TITLE_MAX);
  return DEFAULT_TITLE;
}

/** A custom row's value: the payload (unless just "Y"), the date and the place. */
function factValue(node: GedcomNode, payload = true): string {
  const parts: string[] = [];
  const value = node.value.trim();
  if (payload && value !== "" && value.toUpperCase() !== "Y") parts.push(value);
  const date = child(node, "DATE")?.value.trim();
  if (date) parts.push(date);
  const place = child(node, "PLAC")?.value.trim();
  if (place) parts.push(place);
  return parts.join(", ");
}

type CustomRow = { title: string; value: string };

/** First and last name from the first NAME; further NAMEs become "Also known as" rows. */
function importNames(
  record: GedcomNode,
  custom: CustomRow[],
): { firstName: string; lastName: string } {
  let firstName = "";
  let lastName = "";
  childrenOf(record, "NAME").forEach((name, i) => {
    const { given, surname } = splitName(name.value);
    if (i === 0) {
      const givn = child(name, "GIVN")?.value;
      const surn = child(name, "SURN")?.value;
      firstName = givn !== undefined ? squash(givn) : given;
      lastName = surn !== undefined ? squash(surn) : surname;
    } else {
      const other = `${given} ${surname}`.trim();
      if (other) custom.push({ title: "Also known as", value: other });
    }
  });
  return { firstName, lastName };
}

/** A typed event row (events.ts): "DATE, PLACE" or "Yes"; a GEDCOM 7 PHRASE stands for the date. */
function typedEventValue(node: GedcomNode): string {
  const date = child(node, "DATE");
  const phrase = date ? child(date, "PHRASE")?.value.trim() : undefined;
  const dateText = date?.value.trim() || (phrase ? `(${phrase})` : null);
  return eventValue(dateText, child(node, "PLAC")?.value ?? null);
}

/**
 * The custom rows of one fact of the INDI: sex and typed events (events.ts), a typed event's
 * text (which GEDCOM 5.5.1 does not allow, but Family Tree Maker writes) in a row of its own,
 * and any other fact as text.
 */
function factRows(node: GedcomNode): CustomRow[] {
  const tag = node.tag;
  if (tag === "SEX") {
    const sex = node.value.trim().toUpperCase();
    return sex ? [{ title: SEX_TITLE, value: SEX_LABELS[sex] ?? sex }] : [];
  }
  const payload = node.value.trim();
  if (tag in TYPED_EVENTS) {
    const title = TYPED_EVENTS[tag]!;
    const rows = [{ title, value: typedEventValue(node) }];
    if (payload !== "" && payload.toUpperCase() !== "Y") {
      rows.push({ title: `${title} ${EVENT_TEXT_SUFFIX}`, value: payload });
    }
    return rows;
  }
  const row = otherFactRow(node);
  return row ? [row] : [];
}

/** Attributes, EVEN, FACT and the other events: the payload, the date and the place as text. */
function otherFactRow(node: GedcomNode): CustomRow | null {
  const tag = node.tag;
  if (!(tag in FACT_LABELS)) return null;
  let title = FACT_LABELS[tag]!;
  if (tag === "FACT" || tag === "EVEN") title = child(node, "TYPE")?.value.trim() ?? title;
  const attribute = ATTRIBUTES.has(tag);
  let value = attribute
    ? [node.value, factValue(node, false)].filter((v) => v).join(", ")
    : factValue(node);
  // an ADOP event without details only says which family adopted: that is in the tree
  if (value === "" && tag === "ADOP") return null;
  if (value === "" && !attribute) value = HAPPENED;
  return { title, value };
}

/** Marriages and divorces with details, kept on each partner with the other partner's name. */
function familyEventRows(person: Person, graph: FamilyGraph): CustomRow[] {
  const rows: CustomRow[] = [];
  for (const f of person.spouseFams) {
    const family = graph.families[f]!;
    const others = family.partners
      .filter((q) => q !== person.index)
      .map((q) => {
        const name = childrenOf(graph.people[q]!.record, "NAME")[0];
        const { given, surname } = splitName(name?.value ?? "");
        return `${given} ${surname}`.trim();
      })
      .filter((name) => name !== "");
    for (const event of family.record.children) {
      const title = FAMILY_EVENTS[event.tag];
      if (!title) continue;
      const details = factValue(event, false);
      if (details === "") continue;
      rows.push({ title, value: [...others, details].join(", ") });
    }
  }
  return rows;
}

function importPerson(person: Person, graph: FamilyGraph): ImportedPerson {
  const { record } = person;
  const custom: CustomRow[] = [];
  const { firstName, lastName } = importNames(record, custom);
  const lists = { trait: [] as string[], aspiration: [] as string[], lifeState: [] as string[] };
  for (const node of record.children) {
    const rows = factRows(node);
    if (rows.length > 0) custom.push(...rows);
    else if (node.tag === HEIRLOOM_TAGS.trait) lists.trait.push(node.value);
    else if (node.tag === HEIRLOOM_TAGS.aspiration) lists.aspiration.push(node.value);
    else if (node.tag === HEIRLOOM_TAGS.lifeState) lists.lifeState.push(node.value);
  }
  custom.push(...familyEventRows(person, graph));

  const list = (values: string[]) =>
    [...new Set(values.map((v) => clip(squash(v), PERSON_LIMITS.listItem)).filter((v) => v))].slice(
      0,
      PERSON_LIMITS.listItems,
    );
  return {
    key: person.key,
    firstName: clip(firstName, PERSON_LIMITS.name),
    lastName: clip(lastName, PERSON_LIMITS.name),
    bio: clip(notesHtml(record, graph), PERSON_LIMITS.bio),
    traits: list(lists.trait),
    aspirations: list(lists.aspiration),
    lifeStates: list(lists.lifeState),
    custom: custom.slice(0, PERSON_LIMITS.customRows).map((row) => ({
      title: clip(row.title, PERSON_LIMITS.customTitle),
      value: clip(row.value, PERSON_LIMITS.customValue),
    })),
    avatar: null,
  };
}

/**
 * How many generations descend from each person (1 for someone without children). Refuses a
 * file where someone is their own ancestor: no hierarchy can show that. Kahn's algorithm, so
 * no recursion however deep the lines go.
 */
function generationsBelow(graph: FamilyGraph, imported: ImportedPerson[]): Int32Array {
  const { people, families } = graph;
  const n = people.length;
  const kids = (p: number): number[] => {
    const out: number[] = [];
    for (const f of people[p]!.spouseFams) for (const c of families[f]!.children) out.push(c);
    return out;
  };
  const parentsOf = (c: number): number[] => {
    const out: number[] = [];
    for (const f of people[c]!.childFams) for (const p of families[f]!.partners) out.push(p);
    return out;
  };
  const indegree = new Int32Array(n);
  for (let p = 0; p < n; p += 1) for (const c of kids(p)) indegree[c]! += 1;
  const order: number[] = [];
  for (let p = 0; p < n; p += 1) if (indegree[p] === 0) order.push(p);
  for (let i = 0; i < order.length; i += 1) {
    for (const c of kids(order[i]!)) {
      indegree[c]! -= 1;
      if (indegree[c] === 0) order.push(c);
    }
  }
  if (order.length < n) {
    // walk up through unresolved parents until someone repeats: they are on the cycle
    let p = indegree.findIndex((d) => d > 0);
    const seen = new Set<number>();
    while (!seen.has(p)) {
      seen.add(p);
      p = parentsOf(p).find((q) => indegree[q]! > 0) ?? p;
    }
    const person = people[p]!;
    throw new ImportError(
      `This GEDCOM file makes ${displayName(imported[p]!, person.xref)} their own ancestor, which a family tree cannot show. Fix the family links in your genealogy program and import again.`,
    );
  }
  const depth = new Int32Array(n);
  for (let i = order.length - 1; i >= 0; i -= 1) {
    const p = order[i]!;
    let below = 0;
    for (const c of kids(p)) if (depth[c]! > below) below = depth[c]!;
    depth[p] = below + 1;
  }
  return depth;
}
