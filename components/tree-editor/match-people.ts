import { searchableName } from "@/components/people/person-name";
import { rankMatches } from "@/components/ui/rank-matches";
import type { Person } from "@/lib/schemas/person";

/** react-select renders every option it is given, and a legacy can hold 10,000 Sims. */
export const MAX_OPTIONS = 100;

/**
 * The first `limit` people whose "firstName lastName" contains the typed text, ignoring case
 * (the people filter of SPEC.md section 5), ranked: exact names, then names starting with the
 * text, then the rest; everyone, up to the limit, for an empty text.
 */
export function matchPeople(
  people: readonly Person[],
  input: string,
  limit: number = MAX_OPTIONS,
): Person[] {
  return rankMatches(people, input, (person) => searchableName(person).trim(), limit);
}
