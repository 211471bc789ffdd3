// SaveGameData, the save's resource of type 0x0000000D, read by field number. The account block
// (field 3: the player's account id and persona name) is never decoded, kept or logged.
import { ImportError } from "@/lib/import/types";
import { looksLikeDbpf, readDbpfIndex, readDbpfResource } from "./dbpf";
import { perSimLimit, SIMS4_LIMITS } from "./limits";
import type {
  Sims4Dynasty,
  Sims4DynastyMember,
  Sims4Household,
  Sims4Relation,
  Sims4Save,
  Sims4Sim,
  Sims4TreeNode,
} from "./model";
import { IdBudget, intOf, numberOf, ProtoReader, stringOf, type ProtoValue } from "./protobuf";

export const SAVE_GAME_DATA_TYPE = 0x0000000d;

const idOf = (value: ProtoValue): string | null => {
  const v = intOf(value);
  return v === null ? null : v.toString();
};

export function emptySim(): Sims4Sim {
  return {
    id: "0",
    householdId: "0",
    firstName: "",
    lastName: "",
    gender: null,
    age: null,
    spouse: null,
    fiance: null,
    steadies: [],
    aspiration: null,
    aspirationName: null,
    traits: [],
    traitNames: [],
    relations: [],
    occult: 0,
    species: null,
  };
}

/** FamilyRelation: relation_type=1, sim_id=2. */
export function readRelation(reader: ProtoReader, bytes: Uint8Array): Sims4Relation | null {
  let type: number | null = null;
  let simId: string | null = null;
  reader.sub(bytes).each((field, value) => {
    if (field === 1) type = numberOf(value);
    else if (field === 2) simId = idOf(value);
  });
  return type === null || simId === null || simId === "0" ? null : { type, simId };
}

export const TOO_MANY_TRAITS = perSimLimit(SIMS4_LIMITS.maxTraitsPerSim, "traits");
export const TOO_MANY_RELATIONS = perSimLimit(SIMS4_LIMITS.maxRelationsPerSim, "family relations");
export const TOO_MANY_STEADIES = perSimLimit(SIMS4_LIMITS.maxSteadiesPerSim, "steady partners");

/** Counts one more family relation of `sim` (before it is decoded), or refuses the file. */
export function takeRelation(sim: Sims4Sim, budget: IdBudget): void {
  if (sim.relations.length >= SIMS4_LIMITS.maxRelationsPerSim)
    throw new ImportError(TOO_MANY_RELATIONS);
  budget.take(1);
}

/** PersistableTraitTracker: trait_ids=1 (packed uint64), counted before they are decoded. */
export function readTraitIds(
  reader: ProtoReader,
  bytes: Uint8Array,
  into: string[],
  budget: IdBudget,
): void {
  reader.sub(bytes).each((field, value) => {
    if (field === 1) {
      ProtoReader.repeatedInts(
        value,
        "varint",
        into,
        SIMS4_LIMITS.maxTraitsPerSim,
        TOO_MANY_TRAITS,
        budget,
      );
    }
  });
}

/** SimData.attributes: traits (10), genealogy (14), occults (17). */
function readAttributes(
  reader: ProtoReader,
  bytes: Uint8Array,
  sim: Sims4Sim,
  budget: IdBudget,
): void {
  const attributes = reader.sub(bytes);
  attributes.each((field, value) => {
    if (value.wire !== 2) return;
    if (field === 10) readTraitIds(attributes, value.bytes, sim.traits, budget);
    else if (field === 14) {
      attributes.sub(value.bytes).each((f, v) => {
        if (f !== 1 || v.wire !== 2) return;
        takeRelation(sim, budget);
        const relation = readRelation(attributes.sub(value.bytes), v.bytes);
        if (relation) sim.relations.push(relation);
      });
    } else if (field === 17) {
      attributes.sub(value.bytes).each((f, v) => {
        if (f === 1) sim.occult |= numberOf(v) ?? 0;
      });
    }
  });
}

function readSim(reader: ProtoReader, bytes: Uint8Array, budget: IdBudget): Sims4Sim {
  const sim = emptySim();
  // steadies of every field 72 the Sim holds, counted together against the per-Sim cap
  const steadies: string[] = [];
  const simReader = reader.sub(bytes);
  simReader.each((field, value) => {
    switch (field) {
      case 1:
        sim.id = idOf(value) ?? "0";
        break;
      case 4:
        sim.householdId = idOf(value) ?? "0";
        break;
      case 5:
        sim.firstName = stringOf(value) ?? "";
        break;
      case 6:
        sim.lastName = stringOf(value) ?? "";
        break;
      case 7:
        sim.gender = numberOf(value);
        break;
      case 8:
        sim.age = numberOf(value);
        break;
      case 15: {
        const id = idOf(value);
        sim.spouse = id && id !== "0" ? id : null;
        break;
      }
      case 68: {
        const id = idOf(value);
        sim.fiance = id && id !== "0" ? id : null;
        break;
      }
      case 72:
        if (value.wire === 2) {
          simReader.sub(value.bytes).each((f, v) => {
            if (f === 1) {
              ProtoReader.repeatedInts(
                v,
                "fixed64",
                steadies,
                SIMS4_LIMITS.maxSteadiesPerSim,
                TOO_MANY_STEADIES,
                budget,
              );
            }
          });
        }
        break;
      case 34: {
        const id = idOf(value);
        sim.aspiration = id && id !== "0" ? id : null;
        break;
      }
      case 30:
        if (value.wire === 2) readAttributes(simReader, value.bytes, sim, budget);
        break;
      case 60:
        sim.species = numberOf(value);
        break;
    }
  });
  sim.steadies = [...new Set(steadies)].filter((id) => id !== "0");
  return sim;
}

function readHousehold(reader: ProtoReader, bytes: Uint8Array): Sims4Household {
  const household = { id: "0", name: "" };
  reader.sub(bytes).each((field, value) => {
    if (field === 2) household.id = idOf(value) ?? "0";
    else if (field === 3) household.name = stringOf(value) ?? "";
  });
  return household;
}

/**
 * save_slot: active_household_id=11, gameplay_data=8 → the family-tree graph 62 → 1 → nodes=1,
 * and the dynasty service 60 → dynasty_data=1.
 */
function readSaveSlot(
  reader: ProtoReader,
  bytes: Uint8Array,
  save: Sims4Save,
  nodeFields: { count: number },
  budget: IdBudget,
): void {
  const slot = reader.sub(bytes);
  slot.each((field, value) => {
    if (field === 11) save.activeHouseholdId = idOf(value);
    else if (field === 8 && value.wire === 2) {
      const gameplay = slot.sub(value.bytes);
      gameplay.each((f, v) => {
        if (f === 60 && v.wire === 2) readDynastyService(gameplay, v.bytes, save, budget);
        if (f !== 62 || v.wire !== 2) return;
        const service = gameplay.sub(v.bytes);
        service.each((f2, v2) => {
          if (f2 !== 1 || v2.wire !== 2) return;
          const graph = service.sub(v2.bytes);
          graph.each((f3, v3) => {
            if (f3 !== 1 || v3.wire !== 2) return;
            if (++nodeFields.count > SIMS4_LIMITS.maxTreeNodes)
              throw new ImportError(TOO_MANY_TREE_NODES);
            const node = readTreeNode(graph, v3.bytes);
            if (node) save.treeNodes.push(node);
          });
        });
      });
    }
  });
}

/** A Sim id, or null for none (0). */
const simIdOf = (value: ProtoValue): string | null => {
  const id = idOf(value);
  return id === null || id === "0" ? null : id;
};

/** An integer, float or double field as a number (prestige: its type is not published). */
function numericOf(value: ProtoValue): number | null {
  if (value.wire === 0) return value.value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value.value) : null;
  const bytes = new DataView(new ArrayBuffer(8));
  if (value.wire === 5) {
    bytes.setUint32(0, value.value, true);
    const n = bytes.getFloat32(0, true);
    return Number.isFinite(n) ? n : null;
  }
  if (value.wire === 1) {
    bytes.setBigUint64(0, value.value, true);
    const n = bytes.getFloat64(0, true);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export const TOO_MANY_DYNASTIES = `The save holds more than ${SIMS4_LIMITS.maxDynasties.toLocaleString("en-US")} dynasties: Heirloom reads at most ${SIMS4_LIMITS.maxDynasties.toLocaleString("en-US")} per save.`;
export const TOO_MANY_DYNASTY_MEMBERS = `A dynasty in the save has more than ${SIMS4_LIMITS.maxDynastyMembers.toLocaleString("en-US")} members: Heirloom reads at most ${SIMS4_LIMITS.maxDynastyMembers.toLocaleString("en-US")} per dynasty.`;
export const TOO_MANY_DYNASTY_VALUES = `A dynasty in the save has more than ${SIMS4_LIMITS.maxDynastyValues.toLocaleString("en-US")} values: Heirloom reads at most ${SIMS4_LIMITS.maxDynastyValues.toLocaleString("en-US")} per dynasty.`;

/** dynasty_service: dynasty_data=1, each counted before it is decoded. */
function readDynastyService(
  reader: ProtoReader,
  bytes: Uint8Array,
  save: Sims4Save,
  budget: IdBudget,
): void {
  const service = reader.sub(bytes);
  service.each((field, value) => {
    if (field !== 1 || value.wire !== 2) return;
    if (save.dynasties.length >= SIMS4_LIMITS.maxDynasties)
      throw new ImportError(TOO_MANY_DYNASTIES);
    save.dynasties.push(readDynasty(service, value.bytes, budget));
  });
}

/** dynasty_data: name 2, head 4, heir 5, members 6, values 7, description 10, prestige 13. */
function readDynasty(reader: ProtoReader, bytes: Uint8Array, budget: IdBudget): Sims4Dynasty {
  const dynasty: Sims4Dynasty = {
    name: "",
    head: null,
    heir: null,
    members: [],
    values: [],
    description: "",
    prestige: null,
  };
  const seen = new Set<string>();
  let memberFields = 0;
  const data = reader.sub(bytes);
  data.each((field, value) => {
    switch (field) {
      case 2:
        dynasty.name = stringOf(value) ?? "";
        break;
      case 4:
        dynasty.head = simIdOf(value);
        break;
      case 5:
        dynasty.heir = simIdOf(value);
        break;
      case 6: {
        if (value.wire !== 2) break;
        // every occurrence counts, kept or not, so repeats of one member cannot run on unbounded
        if (++memberFields > SIMS4_LIMITS.maxDynastyMembers)
          throw new ImportError(TOO_MANY_DYNASTY_MEMBERS);
        budget.take(1);
        const member = readDynastyMember(data, value.bytes);
        if (member && !seen.has(member.simId)) {
          seen.add(member.simId);
          dynasty.members.push(member);
        }
        break;
      }
      case 7:
        ProtoReader.repeatedInts(
          value,
          "varint",
          dynasty.values,
          SIMS4_LIMITS.maxDynastyValues,
          TOO_MANY_DYNASTY_VALUES,
          budget,
        );
        break;
      case 10:
        dynasty.description = stringOf(value) ?? "";
        break;
      case 13:
        dynasty.prestige = numericOf(value);
        break;
    }
  });
  return dynasty;
}

/** A dynasty member: member_id 1, rank 4, is_black_sheep 6. */
function readDynastyMember(reader: ProtoReader, bytes: Uint8Array): Sims4DynastyMember | null {
  const member: Sims4DynastyMember = { simId: "0", rank: null, outcast: false };
  reader.sub(bytes).each((field, value) => {
    if (field === 1) member.simId = simIdOf(value) ?? "0";
    else if (field === 4) member.rank = numberOf(value);
    else if (field === 6) member.outcast = (intOf(value) ?? 0n) !== 0n;
  });
  return member.simId === "0" ? null : member;
}

function readTreeNode(reader: ProtoReader, bytes: Uint8Array): Sims4TreeNode | null {
  const node: Sims4TreeNode = { id: "0", firstName: "", lastName: "", gender: null, culled: false };
  reader.sub(bytes).each((field, value) => {
    if (field === 1) node.id = idOf(value) ?? "0";
    else if (field === 2) node.firstName = stringOf(value) ?? "";
    else if (field === 3) node.lastName = stringOf(value) ?? "";
    else if (field === 8) node.gender = numberOf(value);
    else if (field === 9) node.culled = (intOf(value) ?? 0n) !== 0n;
  });
  return node.id === "0" ? null : node;
}

const perSave = (max: number, what: string) => {
  const n = max.toLocaleString("en-US");
  return `The save holds more than ${n} ${what}: Heirloom reads at most ${n} ${what} per save.`;
};
export const TOO_MANY_SIMS = perSave(SIMS4_LIMITS.maxSims, "Sims");
export const TOO_MANY_HOUSEHOLDS = perSave(SIMS4_LIMITS.maxHouseholds, "households");
export const TOO_MANY_TREE_NODES = perSave(SIMS4_LIMITS.maxTreeNodes, "Sims in its family tree");

/** Decodes SaveGameData. */
export function readSaveGameData(bytes: Uint8Array): Sims4Save {
  const save: Sims4Save = {
    kind: "save",
    activeHouseholdId: null,
    households: [],
    sims: [],
    treeNodes: [],
    dynasties: [],
  };
  const budget = new IdBudget();
  // every occurrence counts, kept or not, so that repeats of one id cannot run on unbounded
  let simFields = 0;
  let householdFields = 0;
  const nodeFields = { count: 0 };
  const root = new ProtoReader(bytes);
  const seenSims = new Set<string>();
  const seenHouseholds = new Set<string>();
  root.each((field, value) => {
    // field 3 is the account block: skipped unread
    if (value.wire !== 2) return;
    if (field === 2) readSaveSlot(root, value.bytes, save, nodeFields, budget);
    else if (field === 5) {
      if (++householdFields > SIMS4_LIMITS.maxHouseholds)
        throw new ImportError(TOO_MANY_HOUSEHOLDS);
      const household = readHousehold(root, value.bytes);
      if (household.id !== "0" && !seenHouseholds.has(household.id)) {
        seenHouseholds.add(household.id);
        save.households.push(household);
      }
    } else if (field === 6) {
      if (++simFields > SIMS4_LIMITS.maxSims) throw new ImportError(TOO_MANY_SIMS);
      const sim = readSim(root, value.bytes, budget);
      if (sim.id !== "0" && !seenSims.has(sim.id)) {
        seenSims.add(sim.id);
        save.sims.push(sim);
      }
    }
  });
  if (save.activeHouseholdId === "0") save.activeHouseholdId = null;
  return save;
}

/** Reads a .save file: the DBPF package and its SaveGameData. */
export function readSaveFile(bytes: Uint8Array): Sims4Save {
  if (!looksLikeDbpf(bytes)) throw new ImportError("This file is not a Sims 4 save.");
  const entry = readDbpfIndex(bytes).find((e) => e.type === SAVE_GAME_DATA_TYPE);
  if (!entry) throw new ImportError("This package holds no saved game: it has no SaveGameData.");
  return readSaveGameData(readDbpfResource(bytes, entry));
}
