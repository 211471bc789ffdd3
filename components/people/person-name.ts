/** Shown for a person whose first and last names are both empty. */
export const NO_NAME = "~ No Name ~";

/** "firstName lastName" as the people filter matches it (SPEC.md section 5). */
export function searchableName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`;
}

/** A person's full name, or "~ No Name ~" when both names are empty. */
export function fullName(person: { firstName: string; lastName: string }): string {
  return searchableName(person).trim() || NO_NAME;
}

/**
 * The people whose "firstName lastName" contains the typed text, ignoring case. An empty query
 * keeps everyone.
 */
export function filterPeople<P extends { firstName: string; lastName: string }>(
  people: readonly P[],
  query: string,
): P[] {
  const needle = query.toLocaleLowerCase();
  if (!needle) return [...people];
  return people.filter((person) => searchableName(person).toLocaleLowerCase().includes(needle));
}
