// The family the game knows: Sims joined, transitively, through mother, father and partner links,
// including culled Sims named by the family-tree graph. A parent the save no longer holds stands as
// an unnamed placeholder through which the family goes on, where the save still says something of
// them: their own parents (a grandparent link), or two or more children naming the same parent id
// (Lilith and Caleb Vatore name one mother the 2019 save no longer holds: they are siblings, not
// strangers, and neither is the other's child).
//
// Every walk is linear in the Sims and links it visits (issue 32, finding 2: children were added
// with Array.includes, and one mother of 99,990 held a worker for 30-49 s): lists are deduplicated
// with Sets, and the children and partners of one Sim are capped (limits.ts).
import { ImportError } from "@/lib/import/types";
import { perSimLimit, SIMS4_LIMITS } from "./limits";
import { RELATION, type Sims4Save, type Sims4Sim, type Sims4TreeNode } from "./model";

export type PartnerKind = "MARRIED" | "PARTNER";

/** A parent slot of a Sim: a known Sim, a placeholder (with its known parents), or nobody. */
export type ParentSlot =
  { kind: "sim"; id: string } | { kind: "placeholder"; key: string; parents: string[] } | null;

export interface FamilyGraph {
  sims: ReadonlyMap<string, Sims4Sim>;
  /** Tree-graph Sims no longer in the save. */
  culled: ReadonlyMap<string, Sims4TreeNode>;
  /** [mother, father] of every known Sim with at least one. */
  parents: ReadonlyMap<string, [ParentSlot, ParentSlot]>;
  /** Children of every Sim or placeholder key. */
  children: ReadonlyMap<string, string[]>;
  /** Every placeholder key → its parents the save knows (grandparents of its children). */
  placeholders: ReadonlyMap<string, string[]>;
  partners: ReadonlyMap<string, ReadonlyMap<string, PartnerKind>>;
  /** Links that point to nobody known: [from Sim, to id, what]. */
  dropped: { from: string; to: string; what: string }[];
}

const PARENT_SLOTS = [
  {
    relation: RELATION.mother,
    grand: [RELATION.mothersMother, RELATION.mothersFather],
    what: "mother",
  },
  {
    relation: RELATION.father,
    grand: [RELATION.fathersMother, RELATION.fathersFather],
    what: "father",
  },
] as const;

export const TOO_MANY_CHILDREN = perSimLimit(SIMS4_LIMITS.maxChildrenPerSim, "children");
export const TOO_MANY_PARTNERS = perSimLimit(SIMS4_LIMITS.maxPartnersPerSim, "partners");

/** The parent and partner links of a save, with every id resolved or dropped. */
export function buildFamilyGraph(save: Sims4Save): FamilyGraph {
  const sims = new Map(save.sims.map((sim) => [sim.id, sim]));
  const culled = new Map<string, Sims4TreeNode>();
  for (const node of save.treeNodes)
    if (!sims.has(node.id) && !culled.has(node.id)) culled.set(node.id, node);
  const known = (id: string) => sims.has(id) || culled.has(id);
  const parents = new Map<string, [ParentSlot, ParentSlot]>();
  // a Set per parent: in insertion order, and a repeat (the same Sim as mother and father) is free
  const childSets = new Map<string, Set<string>>();
  const partners = new Map<string, Map<string, PartnerKind>>();
  const dropped: FamilyGraph["dropped"] = [];
  const addChild = (parent: string, child: string) => {
    let set = childSets.get(parent);
    if (!set) childSets.set(parent, (set = new Set()));
    set.add(child);
    if (set.size > SIMS4_LIMITS.maxChildrenPerSim) throw new ImportError(TOO_MANY_CHILDREN);
  };

  // the first relation of each type, per Sim, in one pass over its relations
  const relatedOf = (sim: Sims4Sim) => {
    const related = new Map<number, string>();
    for (const r of sim.relations) if (!related.has(r.type)) related.set(r.type, r.simId);
    return related;
  };
  // how many Sims name each parent the save no longer holds: two or more make them siblings
  const missingNamed = new Map<string, number>();
  for (const sim of save.sims) {
    const related = relatedOf(sim);
    const named = new Set<string>();
    for (const slot of PARENT_SLOTS) {
      const id = related.get(slot.relation);
      if (id !== undefined && id !== sim.id && !known(id)) named.add(id);
    }
    for (const id of named) missingNamed.set(id, (missingNamed.get(id) ?? 0) + 1);
  }
  // a missing parent's one placeholder (keyed by its first child), and each placeholder's parents
  const missingKey = new Map<string, string>();
  const placeholderParents = new Map<string, Set<string>>();
  const slotsOf: [string, [ParentSlot, ParentSlot]][] = [];

  for (const sim of save.sims) {
    const slots: [ParentSlot, ParentSlot] = [null, null];
    const related = relatedOf(sim);
    PARENT_SLOTS.forEach((slot, index) => {
      const parentId = related.get(slot.relation) ?? null;
      if (parentId !== null && parentId !== sim.id && known(parentId)) {
        slots[index] = { kind: "sim", id: parentId };
        addChild(parentId, sim.id);
        return;
      }
      const grand = slot.grand
        .map((type) => related.get(type))
        .filter((id): id is string => id !== undefined && id !== sim.id && known(id));
      const shared =
        parentId !== null && parentId !== sim.id && (missingNamed.get(parentId) ?? 0) >= 2;
      if (grand.length > 0 || shared) {
        let key = `placeholder:${sim.id}:${slot.what}`;
        if (shared) {
          const first = missingKey.get(parentId);
          if (first === undefined) missingKey.set(parentId, key);
          else key = first;
        }
        let grandparents = placeholderParents.get(key);
        if (!grandparents) placeholderParents.set(key, (grandparents = new Set()));
        for (const g of grand) grandparents.add(g);
        slots[index] = { kind: "placeholder", key, parents: [] };
        addChild(key, sim.id);
        for (const g of new Set(grand)) addChild(g, key);
      } else if (parentId !== null) {
        dropped.push({ from: sim.id, to: parentId, what: slot.what });
      }
    });
    if (slots[0] || slots[1]) slotsOf.push([sim.id, slots]);
  }
  const placeholders = new Map<string, string[]>();
  for (const [key, set] of placeholderParents) placeholders.set(key, [...set]);
  for (const [id, slots] of slotsOf) {
    for (const slot of slots) if (slot?.kind === "placeholder") slot.parents = placeholders.get(slot.key)!;
    parents.set(id, slots);
  }

  const link = (a: string, b: string, kind: PartnerKind) => {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      let map = partners.get(x);
      if (!map) partners.set(x, (map = new Map<string, PartnerKind>()));
      // married wins over any other link between the same two Sims
      if (map.get(y) !== "MARRIED") map.set(y, kind);
      if (map.size > SIMS4_LIMITS.maxPartnersPerSim) throw new ImportError(TOO_MANY_PARTNERS);
    }
  };
  for (const sim of save.sims) {
    const links: [string | null, PartnerKind, string][] = [
      [sim.spouse, "MARRIED", "spouse"],
      [sim.fiance, "PARTNER", "fiancé(e)"],
      ...sim.steadies.map((id): [string, PartnerKind, string] => [id, "PARTNER", "partner"]),
    ];
    for (const [id, kind, what] of links) {
      if (id === null || id === sim.id) continue;
      if (known(id)) link(sim.id, id, kind);
      else dropped.push({ from: sim.id, to: id, what });
    }
  }
  const children = new Map<string, string[]>();
  for (const [parent, set] of childSets) children.set(parent, [...set]);
  return { sims, culled, parents, children, placeholders, partners, dropped };
}

/** The ids of a household's Sims, in save order. */
export function householdMembers(save: Sims4Save, householdId: string): string[] {
  return save.sims.filter((sim) => sim.householdId === householdId).map((sim) => sim.id);
}

/**
 * Everyone joined to `start` through mother, father and partner links (placeholders included,
 * keyed "placeholder:..."), in the order they are reached.
 */
export function familyOf(graph: FamilyGraph, start: readonly string[]): string[] {
  const seen = new Set<string>(start);
  const queue = [...start];
  for (let head = 0; head < queue.length; head += 1) {
    const id = queue[head]!;
    const next: string[] = [];
    const slots = graph.parents.get(id);
    if (slots) {
      for (const slot of slots) {
        if (slot?.kind === "sim") next.push(slot.id);
        else if (slot?.kind === "placeholder") next.push(slot.key);
      }
    }
    // a placeholder's parents are the grandparents the save knows
    next.push(...(graph.placeholders.get(id) ?? []));
    next.push(...(graph.children.get(id) ?? []));
    for (const partner of graph.partners.get(id)?.keys() ?? []) next.push(partner);
    for (const n of next) {
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return queue;
}

/** Sims of a family (placeholders are not Sims). */
export function familySims(family: readonly string[]): string[] {
  return family.filter((id) => !id.startsWith("placeholder:"));
}

export interface HouseholdSummary {
  id: string;
  name: string;
  members: number;
  family: number;
  /** Names of who comes in (members first), at most PREVIEW_NAMES of them. */
  preview: string[];
  /**
   * The names of the Sims who live in the household, at most PREVIEW_NAMES (issue 34: a row
   * shows them, so two households of one name are told apart, and a search finds a Sim).
   */
  memberNames: string[];
}

export const PREVIEW_NAMES = 50;

/** Every household with its member and family counts, the active one first. */
export function summarizeHouseholds(
  save: Sims4Save,
  graph = buildFamilyGraph(save),
): HouseholdSummary[] {
  // a family is the union of its members' connected parts: each part is walked once
  const part = new Map<string, number>();
  const partSims: string[][] = [];
  for (const sim of save.sims) {
    if (part.has(sim.id)) continue;
    const members = familyOf(graph, [sim.id]);
    for (const id of members) part.set(id, partSims.length);
    partSims.push(familySims(members));
  }
  const nameOf = (id: string) => {
    const sim = graph.sims.get(id) ?? graph.culled.get(id);
    return sim ? `${sim.firstName} ${sim.lastName}`.trim() : "";
  };
  // the reader keeps each Sim once, so a plain push keeps each member once
  const membersOf = new Map<string, string[]>();
  for (const sim of save.sims) {
    const list = membersOf.get(sim.householdId);
    if (list) list.push(sim.id);
    else membersOf.set(sim.householdId, [sim.id]);
  }
  const list = save.households.map((household) => {
    const members = membersOf.get(household.id) ?? [];
    const parts = new Set(members.map((id) => part.get(id)!));
    let family = 0;
    const preview = members.slice(0, PREVIEW_NAMES);
    const inPreview = new Set(preview);
    for (const p of parts) {
      family += partSims[p]!.length;
      for (const id of partSims[p]!) {
        if (preview.length >= PREVIEW_NAMES) break;
        if (!inPreview.has(id)) {
          inPreview.add(id);
          preview.push(id);
        }
      }
    }
    return {
      id: household.id,
      name: household.name,
      members: members.length,
      family,
      preview: preview.map(nameOf),
      memberNames: members.slice(0, PREVIEW_NAMES).map(nameOf),
    };
  });
  const active = list.findIndex((h) => h.id === save.activeHouseholdId);
  if (active > 0) list.unshift(...list.splice(active, 1));
  return list;
}
