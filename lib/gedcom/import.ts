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
  emptyNode,
  type ParentType,
  type PartnerType,
  type TreeNode,
} from "@/lib/schemas/tree";
import { child, childrenOf, parseGedcomText, type GedcomNode } from "./parse";
import { HEIRLOOM_TAGS } from "./tags";

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
const SEX_LABELS: Record<string, string> = { M: "Male", F: "Female", X: "Intersex", U: "Unknown" };
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

export function parseGedcom(bytes: Uint8Array): ImportedTree {
  const parsed = parseGedcomText(bytes);

  // ---- index the records
  const records = new Map<string, GedcomNode>();
  for (const record of parsed.records) {
    if (!record.xref) continue;
    if (records.has(record.xref)) {
      throw new ImportError(
        `Line ${record.line} of the GEDCOM file reuses the id @${record.xref}@ of another record.`,
      );
    }
    records.set(record.xref, record);
  }
  const target = (node: GedcomNode, tags: string[], what: string): GedcomNode | null => {
    if (node.pointer === null) {
      throw new ImportError(
        `Line ${node.line} of the GEDCOM file should point to ${what} (like @X1@) but does not.`,
      );
    }
    if (node.pointer === "VOID") return null;
    const found = records.get(node.pointer);
    if (!found) {
      throw new ImportError(
        `Line ${node.line} of the GEDCOM file refers to @${node.pointer}@, which is not in the file.`,
      );
    }
    if (!tags.includes(found.tag)) {
      throw new ImportError(
        `Line ${node.line} of the GEDCOM file refers to @${node.pointer}@, which is not ${what}.`,
      );
    }
    return found;
  };

  const people: Person[] = [];
  const personByXref = new Map<string, number>();
  const families: Family[] = [];
  const familyByXref = new Map<string, number>();
  for (const record of parsed.records) {
    if (record.tag === "INDI") {
      const xref = record.xref ?? `anonymous${people.length}`;
      personByXref.set(xref, people.length);
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
      familyByXref.set(xref, families.length);
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
  const personAt = (node: GedcomNode): number | null => {
    const found = target(node, ["INDI"], "a person (INDI)");
    return found ? personByXref.get(found.xref!)! : null;
  };
  const familyAt = (node: GedcomNode): number | null => {
    const found = target(node, ["FAM"], "a family (FAM)");
    return found ? familyByXref.get(found.xref!)! : null;
  };

  const noteText = (node: GedcomNode): { text: string; html: boolean } => {
    if (node.pointer !== null) {
      const note = target(node, ["NOTE", "SNOTE"], "a note");
      return note ? { text: note.value, html: isHtml(note) } : { text: "", html: false };
    }
    return { text: node.value, html: isHtml(node) };
  };
  const notesHtml = (owner: GedcomNode): string =>
    owner.children
      .filter((c) => c.tag === "NOTE" || c.tag === "SNOTE")
      .map((c) => {
        const { text, html } = noteText(c);
        return html ? text : textToHtml(text);
      })
      .join("");

  // ---- links, from both sides: FAM.HUSB/WIFE/CHIL and INDI.FAMS/FAMC
  const link = (family: Family, childIndex: number): ChildLink => {
    let found = family.links.get(childIndex);
    if (!found) {
      found = { pedigree: "BIRTH", adoptedBy: new Set(), parentType: "NONE" };
      family.links.set(childIndex, found);
      family.children.push(childIndex);
      people[childIndex]!.childFams.push(family.index);
    }
    return found;
  };
  const addPartner = (family: Family, personIndex: number) => {
    if (family.partners.includes(personIndex)) return;
    family.partners.push(personIndex);
    people[personIndex]!.spouseFams.push(family.index);
  };

  // partner order follows each person's FAMS; children follow each family's CHIL order
  const pendingFamc: { family: Family; person: number; node: GedcomNode }[] = [];
  for (const person of people) {
    for (const node of person.record.children) {
      if (node.tag === "FAMS") {
        const f = familyAt(node);
        if (f !== null) addPartner(families[f]!, person.index);
      } else if (node.tag === "FAMC") {
        const f = familyAt(node);
        if (f !== null) pendingFamc.push({ family: families[f]!, person: person.index, node });
      }
    }
  }
  for (const family of families) {
    const partnersInFile: number[] = [];
    for (const node of family.record.children) {
      if (node.tag === "HUSB" || node.tag === "WIFE") {
        const p = personAt(node);
        if (p === null) continue;
        if (node.tag === "HUSB" && family.husband === null) family.husband = p;
        if (node.tag === "WIFE" && family.wife === null) family.wife = p;
        partnersInFile.push(p);
      }
    }
    // the file's HUSB/WIFE first, then those only named by an INDI's FAMS
    const extra = family.partners.filter((p) => !partnersInFile.includes(p));
    for (const p of partnersInFile) {
      if (!family.partners.includes(p)) people[p]!.spouseFams.push(family.index);
    }
    family.partners = [...new Set([...partnersInFile, ...extra])];
    if (family.partners.length > TREE_LIMITS.maxPeoplePerList) {
      throw new ImportError(
        `The family @${family.xref}@ has more than ${TREE_LIMITS.maxPeoplePerList} partners.`,
      );
    }
    for (const node of family.record.children) {
      if (node.tag !== "CHIL") continue;
      const c = personAt(node);
      if (c === null) continue;
      const found = link(family, c);
      for (const [tag, parent] of [
        ["_FREL", family.husband],
        ["_MREL", family.wife],
      ] as const) {
        const rel = child(node, tag)?.value.trim().toUpperCase();
        if (rel && ADOPTIVE_PEDIGREES.has(rel) && parent !== null) found.adoptedBy.add(parent);
      }
    }
  }
  for (const { family, person, node } of pendingFamc) {
    const found = link(family, person);
    const pedi = child(node, "PEDI");
    if (pedi) found.pedigree = pedi.value.trim().toUpperCase();
    found.parentType = parentTypeOf(node) ?? found.parentType;
  }
  // families found from the FAM side are appended after the INDI's own FAMS order
  for (const person of people) person.spouseFams = [...new Set(person.spouseFams)];

  // ADOP events name the family and which of its partners adopted
  for (const person of people) {
    for (const event of childrenOf(person.record, "ADOP")) {
      const famc = child(event, "FAMC");
      if (!famc) continue;
      const f = familyAt(famc);
      if (f === null) continue;
      const family = families[f]!;
      const found = link(family, person.index);
      const by = child(famc, "ADOP");
      const named =
        by?.pointer != null
          ? personByXref.get(by.pointer)
          : by?.value.trim().toUpperCase() === "HUSB"
            ? family.husband
            : by?.value.trim().toUpperCase() === "WIFE"
              ? family.wife
              : undefined;
      if (named !== undefined && named !== null && family.partners.includes(named)) {
        found.adoptedBy.add(named);
      } else {
        for (const p of family.partners) found.adoptedBy.add(p);
      }
    }
  }

  // ---- people
  const imported = people.map((person) => importPerson(person, notesHtml, families, people));

  // ---- cycles and generations below each person
  const depth = generationsBelow(people, families, imported);

  // ---- placement (ADR 007): breadth first from the root, then one hidden branch per remaining
  // family group; each family's children hang under the first node of one of its partners
  const placed = new Uint8Array(people.length);
  const hasNode = new Uint8Array(people.length);
  const expanded = new Uint8Array(families.length);
  let nodeCount = 0;

  const makeNode = (
    p: number,
    parentInfo: { family: Family; link: ChildLink } | null,
  ): TreeNode => {
    nodeCount += 1;
    if (nodeCount > TREE_LIMITS.maxNodes) {
      throw new ImportError(
        `This GEDCOM file is too large for one tree: it needs more than ${TREE_LIMITS.maxNodes.toLocaleString("en-US")} places in the tree.`,
      );
    }
    const node = emptyNode();
    node.person = { _id: people[p]!.key };
    placed[p] = 1;
    hasNode[p] = 1;
    for (const f of people[p]!.spouseFams) {
      const family = families[f]!;
      const others = family.partners.filter((q) => q !== p);
      if (family.type === null || others.length === 0) continue;
      for (const q of others) placed[q] = 1;
      node.partners.push({
        type: family.type,
        people: others.map((q) => ({ _id: people[q]!.key })),
      });
    }
    if (node.partners.length > TREE_LIMITS.maxPeoplePerList) {
      throw new ImportError(
        `${displayName(imported[p]!, people[p]!.xref)} has more than ${TREE_LIMITS.maxPeoplePerList} partners, more than a tree node can show.`,
      );
    }
    if (parentInfo) {
      const { family, link: childLink } = parentInfo;
      const allAdoptive = ADOPTIVE_PEDIGREES.has(childLink.pedigree);
      for (const q of family.partners) {
        const ref = { _id: people[q]!.key };
        if (allAdoptive || childLink.adoptedBy.has(q)) node.adoptiveParents.push(ref);
        else node.parents.push(ref);
      }
      node.parentType = childLink.parentType;
    } else {
      node.parentType = people[p]!.record.children.map(parentTypeOf).find((t) => t) ?? "NONE";
    }
    return node;
  };

  const spread = (start: TreeNode, startPerson: number, startDepth: number) => {
    const queue: [TreeNode, number, number][] = [[start, startPerson, startDepth]];
    for (let head = 0; head < queue.length; head += 1) {
      const [node, p, level] = queue[head]!;
      for (const f of people[p]!.spouseFams) {
        if (expanded[f]) continue;
        expanded[f] = 1;
        const family = families[f]!;
        for (const c of family.children) {
          if (level + 1 > TREE_LIMITS.maxDepth) {
            throw new ImportError(
              `This GEDCOM file has more than ${TREE_LIMITS.maxDepth} generations, more than a tree can hold.`,
            );
          }
          const childNode = makeNode(c, { family, link: family.links.get(c)! });
          node.children.push(childNode);
          queue.push([childNode, c, level + 1]);
        }
      }
    }
  };

  // founders (no parents in the file), deepest line of descent first, then file order
  const founders = people
    .filter((person) => person.childFams.every((f) => families[f]!.partners.length === 0))
    .map((person) => person.index)
    .sort((a, b) => depth[b]! - depth[a]! || a - b);

  let root: TreeNode = emptyNode();
  const needsBranch = (p: number) =>
    !placed[p] || (!hasNode[p] && people[p]!.spouseFams.some((f) => !expanded[f]));
  const branch = (p: number) => {
    if (root.person === null) {
      root = makeNode(p, null);
      spread(root, p, 1);
    } else {
      const node = makeNode(p, null);
      node.hidden = true;
      root.children.push(node);
      spread(node, p, 2);
    }
  };
  for (const p of founders) if (needsBranch(p)) branch(p);
  // everyone has a founder above them once cycles are refused; this only guards that promise
  for (let p = 0; p < people.length; p += 1) if (needsBranch(p)) branch(p);

  return {
    source: "gedcom",
    title: treeTitle(parsed.head),
    description: clip(notesHtml(parsed.head), DESCRIPTION_MAX),
    cover: null,
    data: root,
    people: imported,
    images: new Map(),
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

function treeTitle(head: GedcomNode): string {
  const own = child(head, HEIRLOOM_TAGS.title)?.value;
  if (own !== undefined) return clip(squash(own), TITLE_MAX);
  const file = child(head, "FILE")?.value ?? "";
  const base = squash(
    file
      .split(/[\\/]/)
      .pop()!
      .replace(/\.[A-Za-z0-9]{1,5}$/, ""),
  );
  return clip(base || DEFAULT_TITLE, TITLE_MAX);
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

function importPerson(
  person: Person,
  notesHtml: (owner: GedcomNode) => string,
  families: Family[],
  people: Person[],
): ImportedPerson {
  const { record } = person;
  const names = childrenOf(record, "NAME");
  let firstName = "";
  let lastName = "";
  const custom: { title: string; value: string }[] = [];
  names.forEach((name, i) => {
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

  const lists = { trait: [] as string[], aspiration: [] as string[], lifeState: [] as string[] };
  for (const node of record.children) {
    const tag = node.tag;
    if (tag === "SEX") {
      const sex = node.value.trim().toUpperCase();
      if (sex) custom.push({ title: "Sex", value: SEX_LABELS[sex] ?? sex });
    } else if (tag in FACT_LABELS) {
      let title = FACT_LABELS[tag]!;
      if (tag === "FACT" || tag === "EVEN") title = child(node, "TYPE")?.value.trim() ?? title;
      const attribute = ATTRIBUTES.has(tag);
      let value = attribute
        ? [node.value, factValue(node, false)].filter((v) => v).join(", ")
        : factValue(node);
      // an ADOP event without details only says which family adopted: that is in the tree
      if (value === "" && tag === "ADOP") continue;
      if (value === "" && !attribute) value = "Yes";
      custom.push({ title, value });
    } else if (tag === HEIRLOOM_TAGS.trait) lists.trait.push(node.value);
    else if (tag === HEIRLOOM_TAGS.aspiration) lists.aspiration.push(node.value);
    else if (tag === HEIRLOOM_TAGS.lifeState) lists.lifeState.push(node.value);
  }
  // marriages and divorces are kept on each partner, with the other partner's name
  for (const f of person.spouseFams) {
    const family = families[f]!;
    const others = family.partners
      .filter((q) => q !== person.index)
      .map((q) => {
        const name = childrenOf(people[q]!.record, "NAME")[0];
        const { given, surname } = splitName(name?.value ?? "");
        return `${given} ${surname}`.trim();
      })
      .filter((name) => name !== "");
    for (const event of family.record.children) {
      const title = FAMILY_EVENTS[event.tag];
      if (!title) continue;
      const details = factValue(event, false);
      if (details === "") continue;
      custom.push({ title, value: [...others, details].join(", ") });
    }
  }

  const list = (values: string[]) =>
    [...new Set(values.map((v) => clip(squash(v), PERSON_LIMITS.listItem)).filter((v) => v))].slice(
      0,
      PERSON_LIMITS.listItems,
    );
  return {
    key: person.key,
    firstName: clip(firstName, PERSON_LIMITS.name),
    lastName: clip(lastName, PERSON_LIMITS.name),
    bio: clip(notesHtml(record), PERSON_LIMITS.bio),
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
function generationsBelow(
  people: Person[],
  families: Family[],
  imported: ImportedPerson[],
): Int32Array {
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
