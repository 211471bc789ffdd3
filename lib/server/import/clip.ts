import "server-only";
import type { ImportedPerson } from "@/lib/import/types";
import { PERSON_LIMITS } from "@/lib/schemas/person";
import { DESCRIPTION_MAX, TITLE_MAX } from "@/lib/schemas/tree";
import { sanitizeRichText } from "@/lib/server/sanitize";

// Imported text is clipped to Heirloom's limits rather than refused: a legacy that Plum Tree
// accepted should come home whole, and what is cut is the tail of an over-long field.

/** Text PostgreSQL can store: no NUL, no unpaired surrogate. */
export function storableText(value: string): string {
  return value.replace(/\u0000/g, "").toWellFormed();
}

/** At most `max` characters, never splitting a surrogate pair. */
export function clip(value: string, max: number): string {
  if (value.length <= max) return value;
  const last = value.charCodeAt(max - 1);
  return value.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

export const clipLine = (value: string, max: number) => clip(storableText(value).trim(), max);

/** Sanitized rich text of at most `max` characters (the source is cut until the result fits). */
export function clipRichText(html: string, max: number): string {
  let source = storableText(html);
  let clean = sanitizeRichText(source);
  while (clean.length > max) {
    source = source.slice(0, Math.max(0, source.length - (clean.length - max) - 64));
    clean = sanitizeRichText(source);
  }
  return clean;
}

function clipList(values: string[]): string[] {
  const kept = new Set<string>();
  for (const value of values) {
    const item = clipLine(value, PERSON_LIMITS.listItem);
    if (item) kept.add(item);
    if (kept.size === PERSON_LIMITS.listItems) break;
  }
  return [...kept];
}

export interface ClippedPerson {
  firstName: string;
  lastName: string;
  bio: string;
  traits: string[];
  aspirations: string[];
  lifeStates: string[];
  custom: { title: string; value: string }[];
  gameId: string | null;
}

/** A person's fields within PERSON_LIMITS, with the bio sanitized. */
export function clipPerson(person: ImportedPerson): ClippedPerson {
  return {
    firstName: clipLine(person.firstName, PERSON_LIMITS.name),
    lastName: clipLine(person.lastName, PERSON_LIMITS.name),
    bio: clipRichText(person.bio, PERSON_LIMITS.bio),
    traits: clipList(person.traits),
    aspirations: clipList(person.aspirations),
    lifeStates: clipList(person.lifeStates),
    custom: person.custom.slice(0, PERSON_LIMITS.customRows).map((row) => ({
      title: clip(storableText(row.title), PERSON_LIMITS.customTitle),
      value: clip(storableText(row.value), PERSON_LIMITS.customValue),
    })),
    gameId: person.gameId && /^\d{1,20}$/.test(person.gameId) ? person.gameId : null,
  };
}

export const clipTitle = (title: string) => clipLine(title, TITLE_MAX);
export const clipDescription = (html: string) => clipRichText(html, DESCRIPTION_MAX);
