// What a scale seed wrote and how to sign in as its users; shared by the seed and the benchmark.
import type pg from "pg";
import type { SizeSummary } from "./distribution";
import { FIRST_NAMES, LAST_NAMES } from "../legacy/generate";

/** Every seeded user signs in with this password; one argon2id hash of it is shared by all. */
export const SEED_PASSWORD = "plumbob-legacy-2025";
/** The Setting row that records what was seeded (the API benchmark reads it). */
export const SEED_SETTING_KEY = "seed-scale";

export interface SeedMeta {
  users: number;
  trees: number;
  people: number;
  published: number;
  uploads: number;
  seed: number;
  seconds: number;
  rowsPerSecond: number;
  passwordNote: string;
  sizes: SizeSummary;
  treesPerUser: Record<string, number>;
  seededAt: string;
}

/** The username of the `index`th seeded user, e.g. "BellaGoth_42". */
export function seedUsername(index: number): string {
  const first = FIRST_NAMES[index % FIRST_NAMES.length]!;
  const last = LAST_NAMES[Math.floor(index / FIRST_NAMES.length) % LAST_NAMES.length]!;
  return `${first}${last}_${index}`;
}

export async function readSeedMeta(client: pg.ClientBase | pg.Pool): Promise<SeedMeta | null> {
  const { rows } = await client.query<{ value: string }>(
    `SELECT "value" FROM "Setting" WHERE "key" = $1`,
    [SEED_SETTING_KEY],
  );
  return rows[0] ? (JSON.parse(rows[0].value) as SeedMeta) : null;
}
