// What the reader takes out of a save or a tray item. Sim and household ids are decimal strings:
// they are 64-bit and above 2^53, where two ids can be the same JavaScript number.

/** Relation types the game saves in a Sim's genealogy (the others follow from shared parents). */
export const RELATION = {
  mother: 0,
  father: 1,
  mothersMother: 2,
  mothersFather: 3,
  fathersMother: 4,
  fathersFather: 5,
} as const;

export interface Sims4Relation {
  type: number;
  simId: string;
}

export interface Sims4Sim {
  id: string;
  householdId: string;
  firstName: string;
  lastName: string;
  /** 4096 male, 8192 female. */
  gender: number | null;
  /** 1 baby, 2 toddler, 4 child, 8 teen, 16 young adult, 32 adult, 64 elder, 128 infant. */
  age: number | null;
  spouse: string | null;
  fiance: string | null;
  steadies: string[];
  /** The aspiration's tuning id, and its name when the file says it (tray items). */
  aspiration: string | null;
  aspirationName: string | null;
  /** Trait tuning ids, and trait names the file spells out (tray items). */
  traits: string[];
  traitNames: string[];
  relations: Sims4Relation[];
  /** Bits: 1 human, 2 alien, 4 vampire, 8 mermaid, 16 spellcaster, 32 werewolf. */
  occult: number;
  /**
   * SimData.extended_species (60): 1 human, 2 large dog, 3 cat, 4 small dog, 5 fox, 6 horse
   * (SPECIES, build.ts); null where the file does not say (tray items, older saves).
   */
  species: number | null;
}

/** A node of the game's family-tree graph (1.121+): names Sims no longer in the save. */
export interface Sims4TreeNode {
  id: string;
  firstName: string;
  lastName: string;
  gender: number | null;
  culled: boolean;
}

export interface Sims4Household {
  id: string;
  name: string;
}

/** A member of a dynasty (Royalty & Legacy): member_id 1, rank 4, is_black_sheep 6. */
export interface Sims4DynastyMember {
  simId: string;
  rank: number | null;
  /** The dynasty's black sheep: an outcast the dynasty still lists. */
  outcast: boolean;
}

/**
 * A dynasty of the save's dynasty service (save_slot 2 → gameplay_data 8 → dynasty_service 60 →
 * dynasty_data 1): name 2, head 4, heir 5, members 6, values 7, description 10, total prestige 13.
 * No real save at hand holds one; the fields are the (issue 34), and the tests build a
 * save with the test writer (testing.ts).
 */
export interface Sims4Dynasty {
  name: string;
  head: string | null;
  heir: string | null;
  members: Sims4DynastyMember[];
  /** The dynasty's values, as the game's tuning ids (decimal strings). */
  values: string[];
  description: string;
  prestige: number | null;
}

export interface Sims4Save {
  kind: "save" | "tray";
  activeHouseholdId: string | null;
  households: Sims4Household[];
  sims: Sims4Sim[];
  treeNodes: Sims4TreeNode[];
  /** The save's dynasties (none in a tray item, or before Royalty & Legacy). */
  dynasties: Sims4Dynasty[];
}
