// A household's family as the tree + people shape every importer produces (lib/import/types.ts):
// rooted at the household's eldest known line, partners beside each Sim, children under the
// right couple with their biological parents set, culled ancestors and placeholder parents kept.
import { ImportError, type ImportedPerson, type ImportedTree } from "@/lib/import/types";
import { SUGGESTIONS } from "@/lib/suggestions";
import {
  TITLE_MAX,
  TREE_LIMITS,
  type PartnerType,
  type PersonRef,
  type TreeNode,
} from "@/lib/schemas/tree";
import { buildFamilyGraph, familyOf, type FamilyGraph } from "./family";
import { SIMS4_LIMITS } from "./limits";
import type { Sims4Save, Sims4Sim } from "./model";
import { PERSONALITY_TRAITS } from "./traits";

export const AGE_NAMES: Readonly<Record<number, string>> = {
  1: "Baby",
  2: "Toddler",
  4: "Child",
  8: "Teen",
  16: "Young Adult",
  32: "Adult",
  64: "Elder",
  128: "Infant",
};
export const GENDER_NAMES: Readonly<Record<number, string>> = { 4096: "Male", 8192: "Female" };
/** Occult bits to life states; Werewolf is not among the suggestions and comes in as typed. */
export const OCCULT_LIFE_STATES: readonly [number, string][] = [
  [2, "Alien"],
  [4, "Vampire"],
  [8, "Mermaid"],
  [16, "Spellcaster"],
  [32, "Werewolf"],
];
/**
 * SimData.extended_species (field 60) to life states. Established from the 2019 save's eleven
 * non-human Sims: every one holding 2 carries the game's hidden traits SPECIES_DOG and
 * SPECIES_EXTENDED_LARGE_DOGS (ids in the Community Library's traits_enum.py), every one holding 3
 * SPECIES_CAT, the one holding 4 SPECIES_DOG and SPECIES_EXTENDED_SMALL_DOGS, and all 138 Sims
 * holding 1 none of them; so the Delgatos' Blue is a dog and Bartholomew B. Bittlebun Sr. a cat.
 * 5 and 6 follow the game's SpeciesExtended enum (FOX, then HORSE since Horse Ranch); no real
 * save here holds them. Fox and Horse are not among the suggestions and come in as typed.
 */
export const SPECIES_LIFE_STATES: ReadonlyMap<number, string> = new Map([
  [2, "Dog"],
  [3, "Cat"],
  [4, "Dog"],
  [5, "Fox"],
  [6, "Horse"],
]);

/** A pet: a Sim whose species the save gives and is not human. */
export const isPet = (sim: Sims4Sim): boolean => SPECIES_LIFE_STATES.has(sim.species ?? 1);

/**
 * Aspiration tuning ids (SimData.primary_aspiration) whose names are established. No public table
 * of them exists (neither the Sims 4 Community Library's enums nor LlamaLogic's definitions list
 * aspirations), so only an id the real saves pin down is here; every other one is left out with
 * a note in the import's report, never guessed.
 *
 * 25114 is Bodybuilder: in both real saves (shared/data/sims4) the Sims holding it carry the
 * Athletic category's bonus trait High Metabolism (27080 in the Community Library's traits_enum;
 * Create a Sim gives it with any Athletic aspiration), and in the 2019 save's game Bodybuilder was
 * the only Athletic aspiration (the next came with Snowy Escape, 2020). The other ids of those
 * saves share a category with one or more aspirations (Fortune, Popularity, Knowledge, Creativity,
 * Family, Nature, Love, Food, Deviance, the child ones), so which one each is stays unknown.
 */
export const ASPIRATIONS: ReadonlyMap<string, string> = new Map<string, string>([
  ["25114", "Bodybuilder"],
]);

export const IN_THE_GAME = "In the game";
/** How the import's report speaks of an aspiration id no source names yet (issue 34). */
export const UNNAMED_ASPIRATION = "an aspiration the game did not name";
const NAMELESS_SIM = "A Sim with no name";
export const CULLED_TEXT =
  "No longer in the game: the game culled this Sim, and only its family tree remembers them.";
export const PLACEHOLDER_TEXT =
  "Not in the save: a parent the game no longer holds, known only through their children and parents.";

const SUGGESTED_TRAITS = new Set<string>(SUGGESTIONS.traits);
const SUGGESTED_ASPIRATIONS = new Set<string>(SUGGESTIONS.aspirations);
const MAX_NOTES = 12;

/** The person a Sim becomes, with the game's id kept. */
export function simPerson(sim: Sims4Sim): ImportedPerson & { gameId: string } {
  const traits = new Set<string>();
  for (const id of sim.traits) {
    const name = PERSONALITY_TRAITS.get(id);
    if (name) traits.add(name);
  }
  for (const name of sim.traitNames) if (SUGGESTED_TRAITS.has(name)) traits.add(name);
  const aspiration =
    (sim.aspiration ? ASPIRATIONS.get(sim.aspiration) : undefined) ??
    (sim.aspirationName && SUGGESTED_ASPIRATIONS.has(sim.aspirationName)
      ? sim.aspirationName
      : undefined) ??
    sim.aspirationName ??
    null;
  const custom: { title: string; value: string }[] = [];
  const age = sim.age === null ? undefined : AGE_NAMES[sim.age];
  if (age) custom.push({ title: "Age", value: age });
  const gender = sim.gender === null ? undefined : GENDER_NAMES[sim.gender];
  if (gender) custom.push({ title: "Gender", value: gender });
  return {
    key: sim.id,
    gameId: sim.id,
    firstName: sim.firstName,
    lastName: sim.lastName,
    bio: "",
    traits: [...traits],
    aspirations: aspiration ? [aspiration] : [],
    lifeStates: [
      ...(sim.species !== null && SPECIES_LIFE_STATES.has(sim.species)
        ? [SPECIES_LIFE_STATES.get(sim.species)!]
        : []),
      ...OCCULT_LIFE_STATES.filter(([bit]) => sim.occult & bit).map(([, name]) => name),
    ],
    custom,
    avatar: null,
  };
}

function limitedNotes(notes: string[], total: number, what: string): string[] {
  if (total <= MAX_NOTES) return notes;
  return [...notes.slice(0, MAX_NOTES), `…and ${total - MAX_NOTES} more ${what}.`];
}

const emptyNode = (key: string): TreeNode => ({
  person: { _id: key },
  partners: [],
  children: [],
  parentType: "NONE",
  parents: [],
  adoptiveParents: [],
  hidden: false,
});

/** Lays a family out as one tree (see the file's header). */
class Layout {
  readonly parentsOf = new Map<string, string[]>();
  private readonly placed = new Set<string>();
  private readonly hasNode = new Set<string>();
  private readonly expanded = new Set<string>();
  private nodes = 0;
  root: TreeNode | null = null;

  constructor(
    private readonly graph: FamilyGraph,
    private readonly family: readonly string[],
  ) {
    for (const id of family) {
      if (id.startsWith("placeholder:")) {
        this.parentsOf.set(id, graph.placeholders.get(id) ?? []);
      } else {
        const slots = graph.parents.get(id) ?? [null, null];
        this.parentsOf.set(
          id,
          slots.flatMap((s) => (s === null ? [] : [s.kind === "sim" ? s.id : s.key])),
        );
      }
    }
  }

  private readonly couplesOf = new Map<string, [string, PartnerType][]>();

  /** A Sim's partners: explicit links first (married before others), then co-parents. */
  couples(id: string): [string, PartnerType][] {
    let known = this.couplesOf.get(id);
    if (!known) this.couplesOf.set(id, (known = this.findCouples(id)));
    return known;
  }

  private findCouples(id: string): [string, PartnerType][] {
    const out = new Map<string, PartnerType>();
    const explicit = [...(this.graph.partners.get(id) ?? new Map<string, PartnerType>())];
    explicit.sort((a, b) => (a[1] === "MARRIED" ? 0 : 1) - (b[1] === "MARRIED" ? 0 : 1));
    for (const [other, kind] of explicit) if (this.parentsOf.has(other)) out.set(other, kind);
    for (const child of this.graph.children.get(id) ?? []) {
      for (const other of this.parentsOf.get(child) ?? []) {
        if (other !== id && !out.has(other)) out.set(other, "PARTNER");
      }
    }
    return [...out];
  }

  private coupleKey(a: string, b: string | null): string {
    return b === null ? `${a}|` : a < b ? `${a}|${b}` : `${b}|${a}`;
  }

  private readonly groupsOf = new Map<string, { partner: string | null; children: string[] }[]>();

  /**
   * A Sim's children per couple (in the order of couples()), then those with this parent alone:
   * made once per Sim, in one pass over its children (a filter per partner was O(partners x
   * children)).
   */
  private childGroups(id: string): { partner: string | null; children: string[] }[] {
    let groups = this.groupsOf.get(id);
    if (groups) return groups;
    const byPartner = new Map<string, string[]>();
    const alone: string[] = [];
    for (const c of this.graph.children.get(id) ?? []) {
      const parents = this.parentsOf.get(c) ?? [];
      if (parents.length === 1) alone.push(c);
      else if (parents.length === 2) {
        for (const other of new Set(parents)) {
          if (other === id) continue;
          const list = byPartner.get(other);
          if (list) list.push(c);
          else byPartner.set(other, [c]);
        }
      }
    }
    groups = this.couples(id).map(([other]) => ({
      partner: other,
      children: byPartner.get(other) ?? [],
    }));
    groups.push({ partner: null, children: alone });
    this.groupsOf.set(id, groups);
    return groups;
  }

  /** Children to show under a node: per couple, then those with this parent alone. */
  private unexpanded(id: string): { partner: string | null; children: string[] }[] {
    return this.childGroups(id).filter((g) => !this.expanded.has(this.coupleKey(id, g.partner)));
  }

  needsBranch(id: string): boolean {
    if (!this.placed.has(id)) return true;
    if (this.hasNode.has(id)) return false;
    return this.unexpanded(id).some((g) => g.children.some((c) => !this.hasNode.has(c)));
  }

  private makeNode(id: string): TreeNode {
    this.nodes += 1;
    if (this.nodes > TREE_LIMITS.maxNodes) {
      throw new ImportError(
        `This family is too large for one tree: more than ${TREE_LIMITS.maxNodes} places.`,
      );
    }
    const node = emptyNode(id);
    this.placed.add(id);
    this.hasNode.add(id);
    for (const [other, type] of this.couples(id).slice(0, TREE_LIMITS.maxPeoplePerList)) {
      this.placed.add(other);
      node.partners.push({ type, people: [{ _id: other }] });
    }
    node.parents = (this.parentsOf.get(id) ?? []).map((p): PersonRef => ({ _id: p }));
    return node;
  }

  /** Where each Sim's first node hangs: the node above it (null for the root) and its depth. */
  private readonly placedAt = new Map<string, { parent: TreeNode | null; depth: number }>();

  branch(id: string): void {
    const node = this.makeNode(id);
    if (this.root === null) {
      this.root = node;
      this.placedAt.set(id, { parent: null, depth: 1 });
      this.spread(node, id, 1);
    } else {
      node.hidden = true;
      this.root.children.push(node);
      this.placedAt.set(id, { parent: this.root, depth: 2 });
      this.spread(node, id, 2);
    }
  }

  /**
   * A Sim with no family link at all (a roommate, a pet the save names no parents for), placed
   * apart in the row of the first of `beside` drawn below the root: a hidden node, so no line
   * joins them to anyone and nobody becomes their parent, standing with their household rather
   * than in the root's children's row (beside the root's row itself where the household is
   * drawn there: a tree has one root).
   */
  placeApart(id: string, beside: readonly string[]): void {
    if (this.root === null) {
      this.branch(id);
      return;
    }
    let at = { parent: this.root, depth: 2 };
    for (const other of beside) {
      const found = this.placedAt.get(other);
      if (found?.parent) {
        at = { parent: found.parent, depth: found.depth };
        break;
      }
    }
    const node = this.makeNode(id);
    node.hidden = true;
    at.parent.children.push(node);
    this.placedAt.set(id, at);
  }

  private spread(start: TreeNode, startId: string, startDepth: number): void {
    const queue: [TreeNode, string, number][] = [[start, startId, startDepth]];
    for (let head = 0; head < queue.length; head += 1) {
      const [node, id, depth] = queue[head]!;
      for (const group of this.unexpanded(id)) {
        this.expanded.add(this.coupleKey(id, group.partner));
        for (const child of group.children) {
          if (this.hasNode.has(child)) continue;
          if (depth + 1 > TREE_LIMITS.maxDepth) {
            throw new ImportError(
              `This family has more than ${TREE_LIMITS.maxDepth} generations, more than a tree can hold.`,
            );
          }
          const childNode = this.makeNode(child);
          node.children.push(childNode);
          this.placedAt.set(child, { parent: node, depth: depth + 1 });
          queue.push([childNode, child, depth + 1]);
        }
      }
    }
  }

  private petRank(id: string): number {
    const sim = this.graph.sims.get(id);
    return sim && isPet(sim) ? 1 : 0;
  }

  /** Founders (no known parents), the household's eldest line first. */
  founderOrder(members: ReadonlySet<string>): string[] {
    const founders = this.family.filter((id) => (this.parentsOf.get(id) ?? []).length === 0);
    // only the members' own ancestors can start the household's line: each is scored by a walk
    const ancestors = new Set(members);
    const up = [...members];
    for (let head = 0; head < up.length; head += 1) {
      for (const p of this.parentsOf.get(up[head]!) ?? []) {
        if (!ancestors.has(p)) {
          ancestors.add(p);
          up.push(p);
        }
      }
    }
    const score = new Map<string, [number, number, number]>();
    let budget: number = SIMS4_LIMITS.maxFounderWalk;
    for (const f of founders) {
      if (!ancestors.has(f)) continue;
      if (budget <= 0) break;
      // generations down to the deepest member reached, members reached, people reached
      let deepest = -1;
      let reached = 0;
      const seen = new Set([f]);
      const queue: [string, number][] = [[f, 0]];
      for (let head = 0; head < queue.length; head += 1) {
        const [id, depth] = queue[head]!;
        if (members.has(id)) {
          reached += 1;
          deepest = Math.max(deepest, depth);
        }
        for (const c of this.graph.children.get(id) ?? []) {
          if (!seen.has(c) && this.parentsOf.has(c)) {
            seen.add(c);
            queue.push([c, depth + 1]);
          }
        }
      }
      budget -= seen.size;
      score.set(f, [deepest, reached, seen.size]);
    }
    const rank = (id: string) => score.get(id) ?? [-2, 0, 0];
    return founders
      .map((id, index) => ({ id, index }))
      .sort((a, b) => {
        const [da, ra, sa] = rank(a.id);
        const [db, rb, sb] = rank(b.id);
        const placeholder =
          Number(a.id.startsWith("placeholder:")) - Number(b.id.startsWith("placeholder:"));
        // a household's Sims lead its tree, its pets never (the Linx cats' mother Josie is not
        // the root over Katarina Linx)
        return (
          this.petRank(a.id) - this.petRank(b.id) ||
          db - da ||
          rb - ra ||
          sb - sa ||
          placeholder ||
          a.index - b.index
        );
      })
      .map(({ id }) => id);
  }
}

/** The household to import: the one asked for, or the save's active one. */
export function pickHousehold(
  save: Sims4Save,
  householdId?: string | null,
): { id: string; name: string } {
  const wanted = householdId ?? save.activeHouseholdId;
  if (wanted === null || wanted === undefined) {
    throw new ImportError("The save names no active household. Choose a household to import.");
  }
  const household = save.households.find((h) => h.id === wanted);
  if (!household) {
    throw new ImportError(
      `The save has no household ${wanted}. Choose one of the households it lists.`,
    );
  }
  return household;
}

export interface Sims4ImportOptions {
  /** One household (a decimal id); `households` wins where both are given. */
  household?: string | null;
  /**
   * Several households into one tree (issue 34): their families are merged by game id, so a Sim
   * in two of them comes in once. Empty or absent: `household`, else the save's active one.
   */
  households?: readonly string[] | null;
}

/** The households an import asks for, each checked against the save, in the order asked. */
export function pickHouseholds(
  save: Sims4Save,
  options: Sims4ImportOptions = {},
): { id: string; name: string }[] {
  const wanted = options.households?.length ? [...new Set(options.households)] : [options.household];
  return wanted.map((id) => pickHousehold(save, id));
}

/** Builds the ImportedTree of one or more households' families. */
export function buildHouseholdTree(
  save: Sims4Save,
  options: Sims4ImportOptions = {},
): ImportedTree {
  const households = pickHouseholds(save, options);
  const graph = buildFamilyGraph(save);
  const wanted = new Set(households.map((h) => h.id));
  const members = save.sims.filter((sim) => wanted.has(sim.householdId)).map((sim) => sim.id);
  if (members.length === 0) {
    throw new ImportError(
      households.length === 1
        ? `The household "${households[0]!.name}" has no Sims in this save.`
        : "These households have no Sims in this save.",
    );
  }
  const household = {
    name: households
      .map((h) => h.name)
      .filter((name) => name !== "")
      .join(", ")
      .slice(0, TITLE_MAX),
  };
  const family = familyOf(graph, members);
  const inFamily = new Set(family);
  const people: ImportedPerson[] = [];
  // Sims whose aspiration the game saved by an id nobody has named yet (ADR 026)
  const unnamedAspirations: string[] = [];
  for (const id of family) {
    const sim = graph.sims.get(id);
    if (sim) {
      const person = simPerson(sim);
      // a pet's aspiration id is the game's own for every pet, never a player's choice
      if (sim.aspiration && person.aspirations.length === 0 && !isPet(sim))
        unnamedAspirations.push(sim.id);
      people.push(person);
      continue;
    }
    const node = graph.culled.get(id);
    if (node) {
      const gender = node.gender === null ? undefined : GENDER_NAMES[node.gender];
      people.push({
        key: id,
        gameId: id,
        firstName: node.firstName,
        lastName: node.lastName,
        bio: "",
        traits: [],
        aspirations: [],
        lifeStates: [],
        custom: [
          { title: IN_THE_GAME, value: CULLED_TEXT },
          ...(gender ? [{ title: "Gender", value: gender }] : []),
        ],
        avatar: null,
      });
      continue;
    }
    people.push({
      key: id,
      firstName: "",
      lastName: "",
      bio: "",
      traits: [],
      aspirations: [],
      lifeStates: [],
      custom: [{ title: IN_THE_GAME, value: PLACEHOLDER_TEXT }],
      avatar: null,
    });
  }

  const layout = new Layout(graph, family);
  // Sims with no family link at all are placed last, beside their household (placeApart)
  const alone = (id: string) =>
    graph.sims.has(id) &&
    !graph.parents.has(id) &&
    !graph.children.get(id)?.length &&
    !graph.partners.get(id)?.size;
  const apart: string[] = [];
  for (const id of layout.founderOrder(new Set(members))) {
    if (layout.root !== null && alone(id)) apart.push(id);
    else if (layout.needsBranch(id)) layout.branch(id);
  }
  const isApart = new Set(apart);
  for (const id of family) if (!isApart.has(id) && layout.needsBranch(id)) layout.branch(id);
  const membersOf = new Map<string, string[]>();
  for (const id of members) {
    const household = graph.sims.get(id)!.householdId;
    const list = membersOf.get(household);
    if (list) list.push(id);
    else membersOf.set(household, [id]);
  }
  for (const id of apart) layout.placeApart(id, membersOf.get(graph.sims.get(id)!.householdId)!);

  // the report speaks of Sims and what the save lacked, never of raw game ids (issue 34)
  const name = (id: string) => {
    const sim = graph.sims.get(id);
    return (sim && `${sim.firstName} ${sim.lastName}`.trim()) || NAMELESS_SIM;
  };
  // only the notes shown are written out: the others are counted
  const droppedInFamily = graph.dropped.filter((d) => inFamily.has(d.from));
  const dropped = droppedInFamily
    .slice(0, MAX_NOTES + 1)
    .map((d) => `${name(d.from)}'s ${d.what} is no longer in the save, so that link was left out.`);
  const notes = [...limitedNotes(dropped, droppedInFamily.length, "links left out")];
  notes.push(
    ...limitedNotes(
      unnamedAspirations
        .slice(0, MAX_NOTES + 1)
        .map((id) => `${name(id)} has ${UNNAMED_ASPIRATION}, so it was left out.`),
      unnamedAspirations.length,
      "Sims with an aspiration the game did not name",
    ),
  );
  return {
    source: "sims4",
    title: household.name,
    description: "",
    cover: null,
    data: layout.root ?? emptyNode(members[0]!),
    people,
    images: new Map(),
    notes,
  };
}
