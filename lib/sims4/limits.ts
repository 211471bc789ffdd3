// Bounds of the Sims 4 reader: every loop and every allocation is capped by one of these, so a
// hostile file costs bounded time and memory whatever it declares (issue 32, findings 2 and 6).
//
// The real saves the tests read (shared/data/sims4, SOURCES.txt) hold 70 and 148 Sims in 29 and 80
// households, at most 7 Sims a household, 60 traits, 4 family relations, 5 children and no steady
// partner per Sim, and 2,005 and 2,585 trait, relation and steady ids in all. Every limit below is
// far above that. Past one, the file is refused (ImportError, a 400 whose sentence names the
// limit): nothing is dropped silently, so what is imported is always the whole household.
export const SIMS4_LIMITS = {
  /** The largest resource the reader will inflate (the real saves' SaveGameData is ~1.3 MB). */
  maxResourceBytes: 64 * 1024 * 1024,
  /** Index entries of one package (a save holds ~60). */
  maxIndexEntries: 100_000,
  /** Nested messages the protobuf decoder descends into. */
  maxDepth: 32,
  /**
   * Sims of one save: 200 times the larger real save (148), above the 24,000-Sim legacy the stall
   * bench imports, below the 99,990 of finding 2's hostile save. Reading 30,000 Sims and laying
   * out their families costs a few hundred milliseconds of a worker's time.
   */
  maxSims: 30_000,
  /** Households of one save (real: 29 and 80; the bench's 24,000-Sim legacy has about 8,000). */
  maxHouseholds: 30_000,
  /** Nodes of the game's family-tree graph: Sims the game culled are kept there (real: none). */
  maxTreeNodes: 50_000,
  /** Trait ids of one Sim (real: at most 60, hidden and reward traits included). */
  maxTraitsPerSim: 1_000,
  /** Family relations (genealogy entries) of one Sim: the game saves at most 6 (real: 4). */
  maxRelationsPerSim: 100,
  /** Steady partners of one Sim (SimData field 72; real: none, and a handful in any game). */
  maxSteadiesPerSim: 100,
  /** Children of one Sim (real: at most 5), placeholders for culled parents included. */
  maxChildrenPerSim: 1_000,
  /** Partners of one Sim from either side: spouse, fiancé(e) and steadies (real: at most 1). */
  maxPartnersPerSim: 1_000,
  /**
   * Trait, relation and steady ids of a whole save, counted as they are decoded (real: 2,005 and
   * 2,585): with the per-Sim caps alone, 30,000 Sims could still name 30 million of them.
   */
  maxIdsPerSave: 1_000_000,
  /**
   * Sims the household order's ancestor walk may visit in all (build.ts: each founder's line is
   * walked to rank it); past it the remaining founders keep the save's order.
   */
  maxFounderWalk: 1_000_000,
  /** Dynasties of one save (Royalty & Legacy: a handful in any game). */
  maxDynasties: 10_000,
  /** Members of one dynasty (at most every Sim of the save), counted against maxIdsPerSave too. */
  maxDynastyMembers: 30_000,
  /** Values of one dynasty (the game lets a dynasty hold a few). */
  maxDynastyValues: 1_000,
} as const;

/** The sentence of a per-Sim limit: "A Sim in the save has more than 100 steady partners; …". */
export function perSimLimit(max: number, what: string): string {
  const n = max.toLocaleString("en-US");
  return `A Sim in the save has more than ${n} ${what}: Heirloom reads at most ${n} ${what} per Sim.`;
}
