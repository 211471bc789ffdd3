// Bounds of the Sims 4 reader: every loop and every allocation is capped by one of these, so a
// hostile file costs bounded time and memory whatever it declares.
export const SIMS4_LIMITS = {
  /** The largest resource the reader will inflate (the real saves' SaveGameData is ~1.3 MB). */
  maxResourceBytes: 64 * 1024 * 1024,
  /** Index entries of one package (a save holds ~60). */
  maxIndexEntries: 100_000,
  /** Nested messages the protobuf decoder descends into. */
  maxDepth: 32,
  /** Sims, households and family-tree nodes of one save. */
  maxSims: 100_000,
  maxHouseholds: 50_000,
  maxTreeNodes: 200_000,
  /** Relations, traits and steadies of one Sim. */
  maxPerSim: 2_000,
} as const;
