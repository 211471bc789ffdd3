import type { Person } from "@/lib/schemas/person";

/** Lower case without accents: "Jünö" -> "juno". */
export function foldName(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();
}

export interface SearchEntry {
  id: string;
  person: Person;
  first: string;
  last: string;
  full: string;
}

/** The people folded once, sorted by name, so each keystroke only compares strings. */
export function buildSearchIndex(people: Iterable<Person>): SearchEntry[] {
  const entries: SearchEntry[] = [];
  for (const person of people) {
    const first = foldName(person.firstName);
    const last = foldName(person.lastName);
    entries.push({ id: person._id, person, first, last, full: `${first} ${last}`.trim() });
  }
  return entries.sort((a, b) => (a.full < b.full ? -1 : a.full > b.full ? 1 : 0));
}

/**
 * The Sims whose first name, last name or full name matches the typed text, ignoring case and
 * accents, ranked: exact, then starts with, then contains; alphabetical within a rank.
 */
export function searchSims(
  index: readonly SearchEntry[],
  input: string,
  limit = 20,
): SearchEntry[] {
  const needle = foldName(input).replace(/\s+/g, " ");
  if (!needle) return [];
  const tiers: SearchEntry[][] = [[], [], []];
  for (const entry of index) {
    const { first, last, full } = entry;
    if (first === needle || last === needle || full === needle) tiers[0]!.push(entry);
    else if (first.startsWith(needle) || last.startsWith(needle) || full.startsWith(needle))
      tiers[1]!.push(entry);
    else if (full.includes(needle)) tiers[2]!.push(entry);
  }
  const out: SearchEntry[] = [];
  for (const tier of tiers) {
    for (const entry of tier) {
      if (out.length >= limit) return out;
      out.push(entry);
    }
  }
  return out;
}
