// A small Sims 4 household for the sync tests: a couple and their daughter, and in the newer
// save a baby (and, where asked, the daughter renamed). Ids are 64-bit, above 2^60.
import { writeSave, type FixtureSave } from "@/lib/sims4/testing";

const BIG = 2n ** 60n;
/** A Sim's (or the household's) game id. */
export const familyId = (n: number) => BIG + BigInt(n);
/** The household's game id. */
export const FAMILY_HOUSEHOLD = familyId(100);

export interface FamilyOptions {
  /** The household's name, and every Sim's last name. */
  name: string;
  /** The daughter's age (16 unless given). */
  daughterAge?: number;
  /** The daughter's first name in the newer save ("Cora" unless given). */
  renamedDaughter?: string;
}

/** The household's save: the older one (the couple and Cora), or the newer one with the baby. */
export function familySave(newer: boolean, options: FamilyOptions): Uint8Array {
  const { name } = options;
  const HH = FAMILY_HOUSEHOLD;
  const id = familyId;
  const ofBoth: [number, bigint][] = [
    [0, id(1)],
    [1, id(2)],
  ];
  const sims: FixtureSave["sims"] = [
    { id: id(1), householdId: HH, firstName: "Ada", lastName: name, spouse: id(2), age: 32 },
    { id: id(2), householdId: HH, firstName: "Bram", lastName: name, spouse: id(1), age: 32 },
    {
      id: id(3),
      householdId: HH,
      firstName: newer ? (options.renamedDaughter ?? "Cora") : "Cora",
      lastName: name,
      age: options.daughterAge ?? 16,
      relations: ofBoth,
    },
  ];
  if (newer) {
    sims.push({
      id: id(4),
      householdId: HH,
      firstName: "Baby",
      lastName: name,
      age: 1,
      relations: ofBoth,
    });
  }
  return writeSave({ activeHouseholdId: HH, households: [{ id: HH, name }], sims });
}
