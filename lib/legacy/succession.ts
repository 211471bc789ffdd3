// Succession by the laws of Pinstar's Legacy Challenge (issue 33): which children of the current
// heir may inherit, and whom the laws suggest, with the reason in players' words. Pure: no tree,
// no database, no clock. The UI (choosing the laws, confirming the heir) comes later.
//
// SOURCE. The laws are those of the official rules of the Sims 4 Legacy Challenge by Pinstar
// (simslegacychallenge.com, "Succession Laws": gender, bloodline, heir, and species laws), as
// recalled, not copied: this machine has no internet, so each law below says what it does here
// and marks with UNSURE what should be checked against the rules page before the guide quotes it.
//
// ORDER. The laws are read in the rules' order: who is a child of the line at all (alive), then the
// bloodline law, the gender law, the species law, and last the heir law among those left. Where a
// law allows a fallback ("if there is none, …"), the fallback reads the candidates left by the laws
// before it. (UNSURE: the rules do not say, as far as recalled, which of bloodline and gender
// falls back first; bloodline first is the choice made here.)
//
// TEXTS. The library returns reason codes with parameters (SuccessionReason), never sentences, so
// that the UI can translate them; formatReason() is the English formatter.
import type { Person } from "@/lib/schemas/person";
import type { Kinship } from "@/lib/tree/placements";
import { genderOf, type Gender } from "@/lib/tree/relationship";

export const GENDER_LAWS = [
  "matriarchy",
  "strictMatriarchy",
  "patriarchy",
  "strictPatriarchy",
  "equality",
  "strictEquality",
] as const;
export const BLOODLINE_LAWS = [
  "strictTraditional",
  "traditional",
  "modern",
  "foster",
  "strictFoster",
] as const;
export const HEIR_LAWS = [
  "firstBorn",
  "lastBorn",
  "livingWill",
  "merit",
  "strength",
  "random",
  "exemplar",
  "democracy",
] as const;
export type GenderLaw = (typeof GENDER_LAWS)[number];
export type BloodlineLaw = (typeof BLOODLINE_LAWS)[number];
export type HeirLaw = (typeof HEIR_LAWS)[number];

/**
 * The species law, optional. The rules' species laws (UNSURE of their names: recalled as
 * "Xenoarchy", an alien heir where there is one, and "Xenophobic", never an alien heir) are the
 * cases of: `prefer` (an heir of that species if there is one, else anyone), `require` (only that
 * species: keep trying otherwise) and `exclude` (never that species).
 */
export interface SpeciesLaw {
  mode: "prefer" | "require" | "exclude";
  /** The species as the tree writes it (a life state such as "Alien"), compared case-blind. */
  species: string;
}

export interface SuccessionLaws {
  gender: GenderLaw;
  bloodline: BloodlineLaw;
  heir: HeirLaw;
  /** Exemplar's chosen trait (the tree's trait id or name, compared case-blind). */
  exemplarTrait?: string;
  species?: SpeciesLaw | null;
}

/** A child of the current heir, as the tree knows them. */
export interface SuccessionCandidate {
  id: string;
  /** The name the reasons use. */
  name: string;
  /** 0 for the eldest: the order of the heir's children, which the owner can change. */
  birthOrder: number;
  /** Adopted by the heir (the stored adoptive parent type), not their natural-born child. */
  adopted: boolean;
  /** False once the Sim has died; dead children cannot inherit. */
  alive: boolean;
  /** From the Gender row; null where the tree does not know. */
  gender: Gender;
  /** The Sim's species or life states (e.g. "Alien", "Vampire"); empty for a plain human. */
  species?: readonly string[];
  traits?: readonly string[];
  /** Children born together (twins, triplets) share a value: birth order alone tells them apart. */
  birthGroup?: string | null;
}

export interface SuccessionInput {
  candidates: readonly SuccessionCandidate[];
  laws: SuccessionLaws;
  /** The current heir's gender (the founder's before any heir), which Strict Equality alternates from; null: unknown. */
  previousHeirGender?: Gender;
  /** Seeds Random's offered pick, e.g. the tree id and the generation: the same seed, the same pick. */
  seed?: string;
}

/** Why a candidate is in or out, or why the laws suggest someone or ask: a code and parameters. */
export type SuccessionReason =
  | { code: "dead"; name: string }
  | { code: "noChildren" }
  | { code: "bloodline.adoptedExcluded"; law: BloodlineLaw; name: string }
  | { code: "bloodline.naturalExcluded"; law: BloodlineLaw; name: string }
  | { code: "bloodline.fallback"; law: BloodlineLaw; kept: "adopted" | "natural" }
  | { code: "gender.excluded"; law: GenderLaw; name: string; wanted: "female" | "male" }
  | { code: "gender.fallback"; law: GenderLaw; wanted: "female" | "male" }
  | { code: "gender.unknown"; law: GenderLaw; names: string[] }
  | { code: "gender.keepTrying"; law: GenderLaw; wanted: "female" | "male" }
  | { code: "species.excluded"; mode: SpeciesLaw["mode"]; species: string; name: string }
  | { code: "species.fallback"; species: string }
  | { code: "species.keepTrying"; species: string }
  | { code: "noneEligible" }
  | { code: "heir.firstBorn"; name: string }
  | { code: "heir.lastBorn"; name: string }
  | { code: "heir.bornTogether"; name: string; others: string[] }
  | { code: "heir.only"; name: string }
  | { code: "heir.askOwner"; law: "livingWill" | "merit" | "strength" | "democracy" }
  | { code: "heir.random"; name: string | null }
  | { code: "heir.exemplar"; trait: string; name: string }
  | { code: "heir.exemplarNone"; trait: string }
  | { code: "heir.exemplarSeveral"; trait: string; names: string[] }
  | { code: "heir.exemplarNoTrait" };

export interface SuccessionResult {
  /** The candidates the laws allow, eldest first (ids). */
  eligible: string[];
  /** The heir the laws point to, or null where the owner must decide. */
  suggested: string | null;
  /** true where the laws need what the tree does not know, or a choice only the owner can make. */
  askOwner: boolean;
  /** Where the owner is asked to choose among fewer than all eligible (Exemplar's holders). */
  shortlist?: string[];
  /** Random: a pick offered (never suggested), the same for the same seed. */
  offer?: string | null;
  reasons: SuccessionReason[];
}

/** The laws' names as the rules write them (English; the UI translates them by their codes). */
export const LAW_NAMES: Record<GenderLaw | BloodlineLaw | HeirLaw, string> = {
  matriarchy: "Matriarchy",
  strictMatriarchy: "Strict Matriarchy",
  patriarchy: "Patriarchy",
  strictPatriarchy: "Strict Patriarchy",
  equality: "Equality",
  strictEquality: "Strict Equality",
  strictTraditional: "Strict Traditional",
  traditional: "Traditional",
  modern: "Modern",
  foster: "Foster",
  strictFoster: "Strict Foster",
  firstBorn: "First Born",
  lastBorn: "Last Born",
  livingWill: "Living Will",
  merit: "Merit",
  strength: "Strength",
  random: "Random",
  exemplar: "Exemplar",
  democracy: "Democracy",
};

/**
 * What each law says, in the rules' sense (paraphrased from memory, see SOURCE above), for the
 * owner to read where the laws ask them. UNSURE marks what to check against the rules page.
 */
export const LAW_RULES: Record<GenderLaw | BloodlineLaw | HeirLaw, string> = {
  matriarchy: "The heir must be female. If there is no eligible girl, a boy may be heir.",
  // UNSURE: recalled as "keep trying for a daughter"; the generation cannot pass to a boy.
  strictMatriarchy: "The heir must be female. If there is no girl, keep trying for one.",
  patriarchy: "The heir must be male. If there is no eligible boy, a girl may be heir.",
  strictPatriarchy: "The heir must be male. If there is no boy, keep trying for one.",
  equality: "Gender does not matter.",
  // UNSURE: recalled as alternating every generation, with no fallback (like the other strict
  // laws); a gentler reading lets the same gender inherit when no child of the other is born.
  strictEquality:
    "The heir must be of the other gender than the previous heir, alternating each generation.",
  strictTraditional: "The heir must be a natural-born child. Adopted children cannot inherit.",
  traditional:
    "The heir must be a natural-born child. An adopted child may inherit only if there is no natural-born one.",
  modern: "Natural-born and adopted children are equal.",
  foster:
    "The heir must be an adopted child. A natural-born child may inherit only if there is no adopted one.",
  strictFoster: "The heir must be an adopted child. Natural-born children cannot inherit.",
  firstBorn: "The eldest eligible child is heir.",
  lastBorn: "The youngest eligible child is heir.",
  // UNSURE: the wording of the three laws below; their sense (the game's achievements or the
  // previous heir's wish, which the tree does not record) is what matters here.
  livingWill: "The previous heir chooses the heir, as their will says.",
  merit: "The child who achieved the most (skills, aspirations) by young adulthood is heir.",
  strength: "The strongest child is heir, as the game shows it.",
  random: "The heir is chosen at random among the eligible children (roll a die).",
  exemplar:
    "A trait is chosen when the legacy starts; the heir must be a child who has that trait.",
  democracy: "The legacy's readers vote for the heir among the eligible children.",
};

const want = (law: GenderLaw, previous: Gender | undefined): "female" | "male" | null => {
  if (law === "matriarchy" || law === "strictMatriarchy") return "female";
  if (law === "patriarchy" || law === "strictPatriarchy") return "male";
  if (law === "strictEquality" && previous) return previous === "female" ? "male" : "female";
  return null;
};

const lower = (s: string) => s.trim().toLowerCase();

/** A number from a string (FNV-1a), then one step of mulberry32: a seeded index in [0, n). */
function seededIndex(seed: string, n: number): number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i += 1) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  let t = (h + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) % n;
}

/** The eligible children and the heir the laws suggest, or why the owner must decide. */
export function suggestHeir(input: SuccessionInput): SuccessionResult {
  const { laws } = input;
  const reasons: SuccessionReason[] = [];
  const ask = (
    eligible: SuccessionCandidate[],
    extra: Partial<SuccessionResult> = {},
  ): SuccessionResult => ({
    eligible: eligible.map((c) => c.id),
    suggested: null,
    askOwner: true,
    reasons,
    ...extra,
  });
  if (input.candidates.length === 0) {
    reasons.push({ code: "noChildren" });
    return { eligible: [], suggested: null, askOwner: false, reasons };
  }
  let pool = [...input.candidates].sort((a, b) => a.birthOrder - b.birthOrder);

  // Only the living inherit.
  for (const c of pool) if (!c.alive) reasons.push({ code: "dead", name: c.name });
  pool = pool.filter((c) => c.alive);

  // Bloodline.
  const b = laws.bloodline;
  if (b !== "modern") {
    const preferAdopted = b === "foster" || b === "strictFoster";
    const strict = b === "strictTraditional" || b === "strictFoster";
    const kept = pool.filter((c) => c.adopted === preferAdopted);
    if (kept.length > 0 || strict) {
      for (const c of pool) {
        if (c.adopted !== preferAdopted) {
          reasons.push(
            c.adopted
              ? { code: "bloodline.adoptedExcluded", law: b, name: c.name }
              : { code: "bloodline.naturalExcluded", law: b, name: c.name },
          );
        }
      }
      pool = kept;
    } else if (pool.length > 0) {
      reasons.push({
        code: "bloodline.fallback",
        law: b,
        kept: preferAdopted ? "natural" : "adopted",
      });
    }
  }

  // Gender.
  const g = laws.gender;
  const wanted = want(g, input.previousHeirGender);
  if (wanted && pool.length > 0) {
    const unknown = pool.filter((c) => c.gender === null);
    if (unknown.length > 0) {
      reasons.push({ code: "gender.unknown", law: g, names: unknown.map((c) => c.name) });
      return ask(pool);
    }
    const strict = g !== "matriarchy" && g !== "patriarchy";
    const kept = pool.filter((c) => c.gender === wanted);
    if (kept.length > 0) {
      for (const c of pool) {
        if (c.gender !== wanted)
          reasons.push({ code: "gender.excluded", law: g, name: c.name, wanted });
      }
      pool = kept;
    } else if (strict) {
      reasons.push({ code: "gender.keepTrying", law: g, wanted });
      return { eligible: [], suggested: null, askOwner: false, reasons };
    } else {
      reasons.push({ code: "gender.fallback", law: g, wanted });
    }
  }

  // Species, optional.
  const s = laws.species;
  if (s && pool.length > 0) {
    const is = (c: SuccessionCandidate) =>
      (c.species ?? []).some((x) => lower(x) === lower(s.species));
    const kept = pool.filter((c) => (s.mode === "exclude" ? !is(c) : is(c)));
    if (kept.length === 0 && s.mode === "prefer") {
      reasons.push({ code: "species.fallback", species: s.species });
    } else if (kept.length === 0 && s.mode === "require") {
      reasons.push({ code: "species.keepTrying", species: s.species });
      return { eligible: [], suggested: null, askOwner: false, reasons };
    } else {
      for (const c of pool) {
        if (!kept.includes(c)) {
          reasons.push({
            code: "species.excluded",
            mode: s.mode,
            species: s.species,
            name: c.name,
          });
        }
      }
      pool = kept;
    }
  }

  if (pool.length === 0) {
    reasons.push({ code: "noneEligible" });
    return { eligible: [], suggested: null, askOwner: false, reasons };
  }
  const eligible = pool.map((c) => c.id);
  const suggest = (c: SuccessionCandidate): SuccessionResult => ({
    eligible,
    suggested: c.id,
    askOwner: false,
    reasons,
  });
  const bornTogether = (c: SuccessionCandidate) => {
    const others = c.birthGroup
      ? pool.filter((o) => o !== c && o.birthGroup === c.birthGroup).map((o) => o.name)
      : [];
    if (others.length > 0) reasons.push({ code: "heir.bornTogether", name: c.name, others });
  };

  // Heir law.
  switch (laws.heir) {
    case "firstBorn":
    case "lastBorn": {
      const c = laws.heir === "firstBorn" ? pool[0]! : pool[pool.length - 1]!;
      reasons.push(
        pool.length === 1
          ? { code: "heir.only", name: c.name }
          : { code: laws.heir === "firstBorn" ? "heir.firstBorn" : "heir.lastBorn", name: c.name },
      );
      bornTogether(c);
      return suggest(c);
    }
    case "livingWill":
    case "merit":
    case "strength":
    case "democracy":
      reasons.push({ code: "heir.askOwner", law: laws.heir });
      return ask(pool);
    case "random": {
      const offer = input.seed !== undefined ? pool[seededIndex(input.seed, pool.length)]! : null;
      reasons.push({ code: "heir.random", name: offer?.name ?? null });
      return ask(pool, { offer: offer?.id ?? null });
    }
    case "exemplar": {
      const trait = laws.exemplarTrait?.trim();
      if (!trait) {
        reasons.push({ code: "heir.exemplarNoTrait" });
        return ask(pool);
      }
      const holders = pool.filter((c) => (c.traits ?? []).some((t) => lower(t) === lower(trait)));
      if (holders.length === 1) {
        reasons.push({ code: "heir.exemplar", trait, name: holders[0]!.name });
        return suggest(holders[0]!);
      }
      // UNSURE: what the rules do with no holder or several; here the owner decides, shown the
      // holders when there are several.
      if (holders.length === 0) {
        reasons.push({ code: "heir.exemplarNone", trait });
        return ask(pool);
      }
      reasons.push({ code: "heir.exemplarSeveral", trait, names: holders.map((c) => c.name) });
      return ask(pool, { shortlist: holders.map((c) => c.id) });
    }
  }
}

const list = (names: string[]) =>
  names.length <= 1
    ? (names[0] ?? "")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
const child = (wanted: "female" | "male") => (wanted === "female" ? "girl" : "boy");

/** One reason in English, in players' words ("Strict Traditional: Bea was adopted"). */
export function formatReason(reason: SuccessionReason): string {
  switch (reason.code) {
    case "dead":
      return `${reason.name} has died and cannot inherit.`;
    case "noChildren":
      return "The heir has no children yet.";
    case "bloodline.adoptedExcluded":
      return `${LAW_NAMES[reason.law]}: ${reason.name} was adopted.`;
    case "bloodline.naturalExcluded":
      return `${LAW_NAMES[reason.law]}: ${reason.name} is not adopted.`;
    case "bloodline.fallback":
      return reason.kept === "adopted"
        ? `${LAW_NAMES[reason.law]}: there is no natural-born child, so an adopted child may inherit.`
        : `${LAW_NAMES[reason.law]}: there is no adopted child, so a natural-born child may inherit.`;
    case "gender.excluded":
      return reason.law === "strictEquality"
        ? `${LAW_NAMES[reason.law]}: after a ${child(reason.wanted === "female" ? "male" : "female")} heir comes a ${child(reason.wanted)}, so not ${reason.name}.`
        : `${LAW_NAMES[reason.law]}: ${reason.name} is not a ${child(reason.wanted)}.`;
    case "gender.fallback":
      return `${LAW_NAMES[reason.law]}: there is no ${child(reason.wanted)}, so any child may inherit.`;
    case "gender.unknown":
      return `${LAW_NAMES[reason.law]}: the tree does not know whether ${list(reason.names)} ${reason.names.length === 1 ? "is a girl or a boy" : "are girls or boys"}. Set their Gender, or choose the heir yourself.`;
    case "gender.keepTrying":
      return `${LAW_NAMES[reason.law]}: there is no ${child(reason.wanted)} yet. The law says to keep trying for one.`;
    case "species.excluded":
      return reason.mode === "exclude"
        ? `Species law: ${reason.name} is ${reason.species}.`
        : `Species law: ${reason.name} is not ${reason.species}.`;
    case "species.fallback":
      return `Species law: no child is ${reason.species}, so any child may inherit.`;
    case "species.keepTrying":
      return `Species law: no child is ${reason.species} yet. The law says to keep trying.`;
    case "noneEligible":
      return "No child can inherit under these laws.";
    case "heir.firstBorn":
      return `First Born: ${reason.name} is the eldest who may inherit.`;
    case "heir.lastBorn":
      return `Last Born: ${reason.name} is the youngest who may inherit.`;
    case "heir.bornTogether":
      return `${reason.name} was born together with ${list(reason.others)}: the order of the children decides. Check it.`;
    case "heir.only":
      return `${reason.name} is the only child who may inherit.`;
    case "heir.askOwner":
      return `${LAW_NAMES[reason.law]}: ${LAW_RULES[reason.law]} The tree cannot know this: choose the heir.`;
    case "heir.random":
      return reason.name
        ? `Random: ${LAW_RULES.random} A roll offers ${reason.name}.`
        : `Random: ${LAW_RULES.random}`;
    case "heir.exemplar":
      return `Exemplar: ${reason.name} has the trait ${reason.trait}.`;
    case "heir.exemplarNone":
      return `Exemplar: no child who may inherit has the trait ${reason.trait}. Choose the heir.`;
    case "heir.exemplarSeveral":
      return `Exemplar: ${list(reason.names)} ${reason.names.length === 2 ? "both" : "all"} have the trait ${reason.trait}. Choose among them.`;
    case "heir.exemplarNoTrait":
      return "Exemplar: choose the legacy's trait first.";
  }
}

/**
 * The current heir's children as candidates, from the tree: in the order the tree holds them (its
 * breadth-first order, which the owner's order of the children sets), adopted where the stored
 * link to the heir is adoptive, gender from the Gender row, species from the life states. The tree
 * does not record deaths yet (issue 33's Died field): everyone is alive until it does.
 */
export function candidatesOf(
  kin: Pick<Kinship, "children" | "parents">,
  heirId: string,
  people: ReadonlyMap<string, Person>,
  name: (person: Person | undefined, id: string) => string = (p, id) =>
    p ? `${p.firstName} ${p.lastName}`.trim() || id : id,
): SuccessionCandidate[] {
  return [...(kin.children.get(heirId) ?? [])].map((id, birthOrder) => {
    const person = people.get(id);
    return {
      id,
      name: name(person, id),
      birthOrder,
      adopted: kin.parents.get(id)?.get(heirId) === "adoptive",
      alive: true,
      gender: genderOf(person),
      species: person?.lifeStates ?? [],
      traits: person?.traits ?? [],
    };
  });
}
