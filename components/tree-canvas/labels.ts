import { NO_NAME, searchableName } from "@/components/people/person-name";
import type { Person } from "@/lib/schemas/person";
import type { ParentType } from "@/lib/schemas/tree";

/** A Sim's accessible name on the canvas: "{firstName} {lastName}" (or "~ No Name ~"). */
export function simName(person: Pick<Person, "firstName" | "lastName"> | undefined): string {
  return (person && searchableName(person).trim()) || NO_NAME;
}

export function publicPersonUrl(treeId: string, personId: string): string {
  return `/public/${encodeURIComponent(treeId)}?p=${encodeURIComponent(personId)}`;
}

/** How a conception type is offered in the node editor. */
export const PARENT_TYPE_LABELS: Record<ParentType, string> = {
  NONE: "WooHoo",
  ABDUCTION: "Alien Abduction",
  CLONE: "Cloning",
};

/** The label next to "Biological Parents" in the details panel, if any. */
export const PARENT_TYPE_BADGES: Record<ParentType, string | null> = {
  NONE: null,
  ABDUCTION: "Alien Abduction",
  CLONE: "Clone",
};

/** Shortens text to `maxChars`, ending with an ellipsis when cut. */
export function truncate(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(1, maxChars - 1))}…`;
}

/** How many characters of a name fit under an avatar of radius `r` (11px text). */
export function nameChars(r: number): number {
  return Math.max(4, Math.floor((2 * r + 10) / 6.2));
}

// Made on first use: building an ICU collator at module load sat on the editor's critical path
// (a CPU profile of the wide 10,000-Sim load, issue 15), and only the node editor sorts.
let collator: Intl.Collator | undefined;

/** People sorted by name, for pickers. */
export function sortPeople(people: Iterable<Person>): Person[] {
  collator ??= new Intl.Collator(undefined, { sensitivity: "base" });
  const { compare } = collator;
  return [...people]
    .map((person) => ({ person, name: simName(person) }))
    .sort((a, b) => compare(a.name, b.name))
    .map(({ person }) => person);
}
