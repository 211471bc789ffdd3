import type { Person } from "@/lib/schemas/person";
import type { PartnerType } from "@/lib/schemas/tree";
import type { Kinship, ParentLinkKind } from "./placements";

export type Gender = "female" | "male" | null;

/**
 * What A is to B, as a key both this module and its independent test computation produce:
 * - `blood`: A is `up` generations below and B `down` generations below a common ancestor
 *   (`up` 0: A is B's ancestor; `down` 0: A is B's descendant); `half` when the line meets at one
 *   parent of half-siblings; `adoptive` when an adoption is on the way; `conception` for the
 *   one-generation links the game names (a clone, an alien abduction);
 * - `partner`: A and B share a partner row of `partnerType`;
 * - `affinal`: in-laws and step-relations, through one partner.
 */
export type RelationKey =
  | { kind: "self" }
  | {
      kind: "blood";
      up: number;
      down: number;
      half: boolean;
      adoptive: boolean;
      conception: "clone" | "abduction" | null;
    }
  | { kind: "partner"; partnerType: PartnerType }
  | {
      kind: "affinal";
      relation:
        | "parent-in-law"
        | "child-in-law"
        | "sibling-in-law"
        | "step-parent"
        | "step-child"
        | "step-sibling";
    };

export interface Relationship {
  key: RelationKey | null;
  /** The noun phrase of `key`, in the words of A's gender ("first cousin", "adoptive mother"). */
  noun: string | null;
  /** A second blood line, when there is one ("first cousin" of a cousin marriage). */
  also: { key: RelationKey; noun: string } | null;
  /** People from A to B along the closest path (just A and B for partners; [] when unrelated). */
  path: string[];
  sentence: string;
}

/** The cost of a relation: the length of the shortest chain of parent and partner links it takes. */
export function relationCost(key: RelationKey): number {
  switch (key.kind) {
    case "self":
      return 0;
    case "blood":
      return key.up + key.down;
    case "partner":
      return 1;
    case "affinal":
      return key.relation === "sibling-in-law" || key.relation === "step-sibling" ? 3 : 2;
  }
}

const AFFINAL_ORDER = [
  "parent-in-law",
  "child-in-law",
  "step-parent",
  "step-child",
  "sibling-in-law",
  "step-sibling",
] as const;

function tieRank(key: RelationKey): number {
  if (key.kind === "affinal") return 1 + AFFINAL_ORDER.indexOf(key.relation);
  return 0;
}

/** Orders candidate relations: the closest first; at equal distance blood first, then the nearer generation. */
export function compareRelations(a: RelationKey, b: RelationKey): number {
  const cost = relationCost(a) - relationCost(b);
  if (cost !== 0) return cost;
  const blood = Number(a.kind !== "blood") - Number(b.kind !== "blood");
  if (blood !== 0) return blood;
  if (a.kind === "blood" && b.kind === "blood") {
    const spread = Math.abs(a.up - a.down) - Math.abs(b.up - b.down);
    if (spread !== 0) return spread;
    if (a.adoptive !== b.adoptive) return a.adoptive ? 1 : -1;
    if (a.half !== b.half) return a.half ? 1 : -1;
    return a.up - b.up;
  }
  return tieRank(a) - tieRank(b);
}

/** A Sim's gender from a custom row titled Gender (Sims 4 imports) or Sex (GEDCOM imports). */
export function genderOf(person: Person | undefined): Gender {
  if (!person) return null;
  const row =
    person.custom.find((r) => r.title.trim().toLowerCase() === "gender") ??
    person.custom.find((r) => r.title.trim().toLowerCase() === "sex");
  const value = row?.value.trim().toLowerCase() ?? "";
  if (["female", "woman", "girl", "f", "feminine"].includes(value)) return "female";
  if (["male", "man", "boy", "m", "masculine"].includes(value)) return "male";
  return null;
}

const ORDINALS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
];
function ordinal(n: number): string {
  if (n <= ORDINALS.length) return ORDINALS[n - 1]!;
  return numeric(n);
}

function numeric(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13
      ? "th"
      : n % 10 === 1
        ? "st"
        : n % 10 === 2
          ? "nd"
          : n % 10 === 3
            ? "rd"
            : "th";
  return `${n}${suffix}`;
}

/** "great-" repeated `n` times; from 4 on "4th great-", as genealogists write it. */
function greats(n: number): string {
  if (n <= 0) return "";
  if (n <= 3) return "great-".repeat(n);
  return `${numeric(n)} great-`;
}

function pick(gender: Gender, neutral: string, female: string, male: string): string {
  return gender === "female" ? female : gender === "male" ? male : neutral;
}

/** A's ancestor `n` generations up: parent, grandparent, great-grandparent… */
function ancestorWord(n: number, gender: Gender): string {
  const base = pick(gender, "parent", "mother", "father");
  if (n === 1) return base;
  return `${greats(n - 2)}grand${base}`;
}

function descendantWord(n: number, gender: Gender): string {
  const base = pick(gender, "child", "daughter", "son");
  if (n === 1) return base;
  return `${greats(n - 2)}grand${base}`;
}

function removal(n: number): string {
  if (n === 0) return "";
  if (n === 1) return " once removed";
  if (n === 2) return " twice removed";
  return ` ${n} times removed`;
}

const PARTNER_WORDS: Record<PartnerType, [string, string, string]> = {
  MARRIED: ["spouse", "wife", "husband"],
  PARTNER: ["partner", "partner", "partner"],
  EX_PARTNER: ["ex-partner", "ex-partner", "ex-partner"],
  ABDUCTION: ["alien-abduction partner", "alien-abduction partner", "alien-abduction partner"],
};

const AFFINAL_WORDS: Record<
  Extract<RelationKey, { kind: "affinal" }>["relation"],
  [string, string, string]
> = {
  "parent-in-law": ["parent-in-law", "mother-in-law", "father-in-law"],
  "child-in-law": ["child-in-law", "daughter-in-law", "son-in-law"],
  "sibling-in-law": ["sibling-in-law", "sister-in-law", "brother-in-law"],
  "step-parent": ["step-parent", "stepmother", "stepfather"],
  "step-child": ["step-child", "stepdaughter", "stepson"],
  "step-sibling": ["step-sibling", "stepsister", "stepbrother"],
};

/** The words for a relation, in A's gender (neutral words when the Sim has none). */
export function relationNoun(key: RelationKey, gender: Gender): string {
  switch (key.kind) {
    case "self":
      return "self";
    case "partner": {
      const [n, f, m] = PARTNER_WORDS[key.partnerType];
      return pick(gender, n, f, m);
    }
    case "affinal": {
      const [n, f, m] = AFFINAL_WORDS[key.relation];
      return pick(gender, n, f, m);
    }
    case "blood":
      break;
  }
  const { up, down } = key;
  if (key.conception === "clone")
    return up === 0 ? "original (the Sim they were cloned from)" : "clone";
  const half = key.half ? "half-" : "";
  let noun: string;
  if (up === 0) noun = ancestorWord(down, gender);
  else if (down === 0) noun = descendantWord(up, gender);
  else if (up === 1 && down === 1) noun = `${half}${pick(gender, "sibling", "sister", "brother")}`;
  else if (up === 1)
    noun =
      gender === null
        ? `${ancestorWord(down - 1, null)}'s ${half}sibling`
        : `${half}${greats(down - 2)}${pick(gender, "", "aunt", "uncle")}`;
  else if (down === 1)
    noun =
      gender === null
        ? `${half}sibling's ${descendantWord(up - 1, null)}`
        : `${half}${greats(up - 2)}${pick(gender, "", "niece", "nephew")}`;
  else
    noun = `${key.half ? "half " : ""}${ordinal(Math.min(up, down) - 1)} cousin${removal(Math.abs(up - down))}`;
  if (key.adoptive) noun = `adoptive ${noun}`;
  if (key.conception === "abduction") noun = `${noun} (alien abduction)`;
  return noun;
}

interface Reach {
  dist: number;
  /** The next person towards the start (the child on the way down to it). */
  via: string | null;
  adoptive: boolean;
}

/** Every ancestor of `start` (and `start` itself) by the shortest line, biological lines first. */
function ancestors(kin: Kinship, start: string): Map<string, Reach> {
  const reach = new Map<string, Reach>([[start, { dist: 0, via: null, adoptive: false }]]);
  let layer = [start];
  while (layer.length > 0) {
    const next: string[] = [];
    for (const id of layer) {
      const here = reach.get(id)!;
      for (const [parent, kind] of kin.parents.get(id) ?? []) {
        const adoptive = here.adoptive || kind === "adoptive";
        const known = reach.get(parent);
        if (!known) {
          reach.set(parent, { dist: here.dist + 1, via: id, adoptive });
          next.push(parent);
        } else if (known.dist === here.dist + 1 && known.adoptive && !adoptive) {
          // a biological line of the same length wins; this layer is not expanded yet
          reach.set(parent, { dist: known.dist, via: id, adoptive: false });
        }
      }
    }
    layer = next;
  }
  return reach;
}

function lineTo(reach: Map<string, Reach>, top: string): string[] {
  const line: string[] = [];
  for (let id: string | null = top; id !== null; id = reach.get(id)?.via ?? null) line.push(id);
  return line.reverse(); // start … top
}

interface Line {
  key: Extract<RelationKey, { kind: "blood" }>;
  path: string[];
}

/** The blood lines between A and B: one per distance pair, through their lowest common ancestors. */
function bloodLines(kin: Kinship, a: string, b: string): Line[] {
  const ra = ancestors(kin, a);
  const rb = ancestors(kin, b);
  const common = [...ra.keys()].filter((id) => rb.has(id));
  // a common ancestor starts a line of its own when the two lines reach it through different
  // children (or it is A or B): otherwise a nearer common ancestor is on both lines
  const lowest = common.filter((id) => {
    const da = ra.get(id)!.dist;
    const db = rb.get(id)!.dist;
    if (da === 0 || db === 0) return true;
    const kids = [...(kin.children.get(id) ?? [])];
    const sideA = kids.filter((c) => ra.get(c)?.dist === da - 1);
    const sideB = kids.filter((c) => rb.get(c)?.dist === db - 1);
    return sideA.some((x) => sideB.some((y) => x !== y));
  });
  const groups = new Map<string, string[]>();
  for (const id of lowest) {
    const k = `${ra.get(id)!.dist}:${rb.get(id)!.dist}`;
    groups.set(k, [...(groups.get(k) ?? []), id]);
  }
  const lines: Line[] = [];
  for (const tops of groups.values()) {
    const top = tops.find((id) => !ra.get(id)!.adoptive && !rb.get(id)!.adoptive) ?? tops[0]!;
    const up = ra.get(top)!.dist;
    const down = rb.get(top)!.dist;
    const pathA = lineTo(ra, top);
    const pathB = lineTo(rb, top);
    let half = false;
    if (up > 0 && down > 0 && tops.length === 1) {
      // the children of the one common ancestor on each side: half when either has another parent
      const childA = pathA[pathA.length - 2]!;
      const childB = pathB[pathB.length - 2]!;
      half = [childA, childB].some((c) => parentsOf(kin, c).some((p) => p !== top));
    }
    let conception: "clone" | "abduction" | null = null;
    if (up + down === 1) {
      const [child, parent] = up === 1 ? [a, b] : [b, a];
      const kind: ParentLinkKind | undefined = kin.parents.get(child)?.get(parent);
      if (kind === "clone" || kind === "abduction") conception = kind;
    }
    const adoptive = ra.get(top)!.adoptive || rb.get(top)!.adoptive;
    lines.push({
      key: { kind: "blood", up, down, half, adoptive, conception },
      path: [...pathA, ...pathB.slice(0, -1).reverse()],
    });
  }
  return lines.sort((x, y) => compareRelations(x.key, y.key));
}

const ACTIVE: readonly PartnerType[] = ["MARRIED", "PARTNER", "ABDUCTION"];
const PARTNER_ORDER: readonly PartnerType[] = ["MARRIED", "PARTNER", "ABDUCTION", "EX_PARTNER"];

/** Partners through whom in-law and step relations run: not ex-partners only. */
function activePartners(kin: Kinship, id: string): string[] {
  return [...(kin.partners.get(id) ?? [])]
    .filter(([, types]) => types.some((t) => ACTIVE.includes(t)))
    .map(([p]) => p);
}

function parentsOf(kin: Kinship, id: string): string[] {
  return [...(kin.parents.get(id)?.keys() ?? [])];
}

function childrenOf(kin: Kinship, id: string): string[] {
  return [...(kin.children.get(id) ?? [])];
}

interface Candidate {
  key: RelationKey;
  path: string[];
}

function affinal(kin: Kinship, a: string, b: string): Candidate[] {
  const out: Candidate[] = [];
  const partnersA = kin.partners.get(a)?.get(b);
  if (partnersA) {
    const type = PARTNER_ORDER.find((t) => partnersA.includes(t))!;
    out.push({ key: { kind: "partner", partnerType: type }, path: [a, b] });
  }
  const add = (relation: Extract<RelationKey, { kind: "affinal" }>["relation"], path: string[]) =>
    out.push({ key: { kind: "affinal", relation }, path });
  for (const p of activePartners(kin, b)) {
    // A is the parent of B's partner
    if (parentsOf(kin, p).includes(a)) add("parent-in-law", [a, p, b]);
    // A is the child of B's partner
    if (childrenOf(kin, p).includes(a)) add("step-child", [a, p, b]);
    // A is the sibling of B's partner
    const sib = parentsOf(kin, a).find((x) => parentsOf(kin, p).includes(x));
    if (sib !== undefined && p !== a) add("sibling-in-law", [a, sib, p, b]);
  }
  for (const p of activePartners(kin, a)) {
    // A is the partner of B's child, of B's parent, of B's sibling
    if (parentsOf(kin, p).includes(b)) add("child-in-law", [a, p, b]);
    if (parentsOf(kin, b).includes(p)) add("step-parent", [a, p, b]);
    const sib = parentsOf(kin, p).find((x) => parentsOf(kin, b).includes(x));
    if (sib !== undefined && p !== b) add("sibling-in-law", [a, p, sib, b]);
  }
  // A is the child of B's parent's partner (a step-sibling)
  for (const parentB of parentsOf(kin, b)) {
    for (const p of activePartners(kin, parentB)) {
      if (parentsOf(kin, a).includes(p)) add("step-sibling", [a, p, parentB, b]);
    }
  }
  return out;
}

/** All relations of A to B, closest first (an empty list when they are not related). */
export function relationCandidates(kin: Kinship, a: string, b: string): Candidate[] {
  if (a === b) return [{ key: { kind: "self" }, path: [a] }];
  const all: Candidate[] = [...bloodLines(kin, a, b), ...affinal(kin, a, b)];
  return all.sort((x, y) => compareRelations(x.key, y.key));
}

/** A Sim's name as written in a sentence. */
export function displayName(person: Person | undefined): string {
  const name = `${person?.firstName ?? ""} ${person?.lastName ?? ""}`.trim();
  return name || "~ No Name ~";
}

function possessive(name: string): string {
  return `${name}'s`;
}

/**
 * How A is related to B, as one sentence ("Kit Park-Calloway is Eli Calloway's first cousin."),
 * with the closest relation named and a second blood line added ("…'s wife, and also Eli's first
 * cousin."), and the path between them for the canvas to highlight.
 */
export function describeRelationship(
  kin: Kinship,
  people: ReadonlyMap<string, Person>,
  a: string,
  b: string,
): Relationship {
  const personA = people.get(a);
  const personB = people.get(b);
  const nameA = displayName(personA);
  const nameB = displayName(personB);
  const candidates = relationCandidates(kin, a, b);
  const first = candidates[0];
  if (!first) {
    return {
      key: null,
      noun: null,
      also: null,
      path: [],
      sentence: `${nameA} is not related to ${nameB}.`,
    };
  }
  if (first.key.kind === "self") {
    return {
      key: first.key,
      noun: null,
      also: null,
      path: [a],
      sentence: `${nameA} and ${nameB} are the same Sim.`,
    };
  }
  const gender = genderOf(personA);
  const noun = relationNoun(first.key, gender);
  const second = candidates.find(
    (c) => c !== first && c.key.kind === "blood" && relationNoun(c.key, gender) !== noun,
  );
  const also = second ? { key: second.key, noun: relationNoun(second.key, gender) } : null;
  const shortB = personB?.firstName.trim() || nameB;
  const sentence = also
    ? `${nameA} is ${possessive(nameB)} ${noun}, and also ${possessive(shortB)} ${also.noun}.`
    : `${nameA} is ${possessive(nameB)} ${noun}.`;
  return { key: first.key, noun, also, path: first.path, sentence };
}
