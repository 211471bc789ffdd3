// Gallery and Library households (Tray/*.trayitem): an 8-byte header (two u32; the second is the
// payload's length), then TrayMetadata: name=4, id=1, metadata=10 → hh_metadata=2 → sim_data=2.
import { ImportError } from "@/lib/import/types";
import { SIMS4_LIMITS } from "./limits";
import type { Sims4Save, Sims4Sim } from "./model";
import { IdBudget, intOf, numberOf, ProtoReader, stringOf } from "./protobuf";
import {
  emptySim,
  readRelation,
  readTraitIds,
  takeRelation,
  TOO_MANY_SIMS,
  TOO_MANY_TRAITS,
} from "./save";
import { looksLikeTrayItem, TRAY_HEADER, u32le as u32 } from "./sniff";

export { looksLikeTrayItem };

const HEADER = TRAY_HEADER;

function readTraySim(
  reader: ProtoReader,
  bytes: Uint8Array,
  householdId: string,
  budget: IdBudget,
): Sims4Sim {
  const sim = emptySim();
  sim.householdId = householdId;
  const simReader = reader.sub(bytes);
  simReader.each((field, value) => {
    switch (field) {
      case 1:
        if (value.wire === 2) readTraitIds(simReader, value.bytes, sim.traits, budget);
        break;
      case 3:
        sim.firstName = stringOf(value) ?? "";
        break;
      case 4:
        sim.lastName = stringOf(value) ?? "";
        break;
      case 5:
        sim.id = intOf(value)?.toString() ?? "0";
        break;
      case 6:
        sim.gender = numberOf(value);
        break;
      case 7: {
        const id = intOf(value);
        sim.aspiration = id && id !== 0n ? id.toString() : null;
        break;
      }
      case 8:
        if (value.wire === 2) {
          takeRelation(sim, budget);
          const relation = readRelation(simReader, value.bytes);
          if (relation) sim.relations.push(relation);
        }
        break;
      case 9:
        sim.age = numberOf(value);
        break;
      case 10:
        if (value.wire === 2) {
          simReader.sub(value.bytes).each((f, v) => {
            if (f !== 2 || v.wire !== 2) return;
            if (sim.traitNames.length >= SIMS4_LIMITS.maxTraitsPerSim)
              throw new ImportError(TOO_MANY_TRAITS);
            budget.take(1);
            const name = stringOf(v);
            if (name) sim.traitNames.push(name);
          });
        }
        break;
      case 11:
        if (value.wire === 2) {
          simReader.sub(value.bytes).each((f, v) => {
            if (f === 2) sim.aspirationName = stringOf(v) || null;
          });
        }
        break;
      case 14:
        sim.occult = numberOf(value) ?? 0;
        break;
    }
  });
  return sim;
}

/** Reads a .trayitem: one household, which is also the "active" one. */
export function readTrayItem(bytes: Uint8Array): Sims4Save {
  if (!looksLikeTrayItem(bytes)) {
    throw new ImportError("This file is not a Sims 4 tray item, or it is truncated.");
  }
  const payload = bytes.subarray(HEADER, HEADER + u32(bytes, 4));
  const save: Sims4Save = {
    kind: "tray",
    activeHouseholdId: null,
    households: [],
    sims: [],
    treeNodes: [],
    dynasties: [],
  };
  let id = "0";
  let name = "";
  const simBlobs: Uint8Array[] = [];
  const root = new ProtoReader(payload);
  root.each((field, value) => {
    if (field === 1) id = intOf(value)?.toString() ?? "0";
    else if (field === 4) name = stringOf(value) ?? "";
    else if (field === 10 && value.wire === 2) {
      const specific = root.sub(value.bytes);
      specific.each((f, v) => {
        if (f !== 2 || v.wire !== 2) return;
        specific.sub(v.bytes).each((f2, v2) => {
          if (f2 !== 2 || v2.wire !== 2) return;
          if (simBlobs.length >= SIMS4_LIMITS.maxSims) throw new ImportError(TOO_MANY_SIMS);
          simBlobs.push(v2.bytes);
        });
      });
    }
  });
  if (simBlobs.length === 0)
    throw new ImportError("This tray item holds no household: it has no Sims.");
  // a household without an id of its own still needs one: the item's id, or "1"
  const householdId = id === "0" ? "1" : id;
  const depth = new ProtoReader(payload, 2);
  const seen = new Set<string>();
  const budget = new IdBudget();
  for (const blob of simBlobs) {
    const sim = readTraySim(depth, blob, householdId, budget);
    if (sim.id === "0" || seen.has(sim.id)) continue;
    seen.add(sim.id);
    save.sims.push(sim);
  }
  save.households.push({ id: householdId, name: name || save.sims[0]?.lastName || "Household" });
  save.activeHouseholdId = householdId;
  return save;
}
