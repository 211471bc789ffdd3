// Stage 2 of the GEDCOM import (lib/gedcom/import.ts): each INDI as an ImportedPerson: names, bio,
// typed events and other facts as custom rows, the Sims lists; clipped to PERSON_LIMITS.
import type { ImportedPerson } from "@/lib/import/types";
import { PERSON_LIMITS } from "@/lib/schemas/person";
import {
  EVENT_TEXT_SUFFIX,
  HAPPENED,
  SEX_LABELS,
  SEX_TITLE,
  TYPED_EVENTS,
  eventValue,
} from "./events";
import { type FamilyGraph, notesHtml, type Person } from "./import-graph";
import { clip, splitName, squash } from "./import-text";
import { child, childrenOf, type GedcomNode } from "./parse";
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

/** A custom row's value: the payload (unless just "Y"), the date and the place. */
export function factValue(node: GedcomNode, payload = true): string {
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

export function importPerson(person: Person, graph: FamilyGraph): ImportedPerson {
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
