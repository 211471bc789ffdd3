"use client";
import type { Person } from "@/lib/schemas/person";
import { api, NETWORK_FAILURES } from "./api";

// The editor loads what it draws (ADR 032): its people come as GET /api/people?tree=&fields=canvas
// answers them (ids, avatars, names and links), with the tree in GET /api/trees/{id}?fields=canvas
// (ADR 038, components/tree-editor/canvas-tree.ts), and each person's bio, lists and custom rows
// come from GET /api/people/{id} when the details panel opens. The original client's
// GET /api/people?tree= is unchanged.

/** What the canvas answer holds of a person (not the tree's id: the editor knows it). */
export type CanvasPerson = Pick<Person, "_id" | "avatar" | "firstName" | "lastName" | "links">;

/** The people the editor holds whose details were not loaded: empty until the panel fetches them. */
const lean = new WeakSet<Person>();

/**
 * The canvas answer as Person objects for the editor's components, with the fields it leaves out
 * empty. Only the details panel reads those fields, and it asks `needsDetails` first.
 */
export function fromCanvasPeople(rows: readonly CanvasPerson[], treeId: string): Person[] {
  return rows.map((row) => {
    const person: Person = {
      _id: row._id,
      tree: treeId,
      avatar: row.avatar,
      firstName: row.firstName,
      lastName: row.lastName,
      bio: "",
      traits: [],
      aspirations: [],
      lifeStates: [],
      custom: [],
      links: row.links,
    };
    lean.add(person);
    return person;
  });
}

/** True for a person from the canvas answer: their bio, lists and custom rows are not loaded. */
export const needsDetails = (person: Person): boolean => lean.has(person);

/** A person's details, fetched once per person object while the page lives. */
const details = new WeakMap<Person, Promise<Person>>();

/** The whole person (GET /api/people/{id}), for a person of the canvas answer. */
export function loadPersonDetails(person: Person): Promise<Person> {
  let found = details.get(person);
  if (!found) {
    found = api<Person>(`/api/people/${encodeURIComponent(person._id)}`, {
      fallback: "Failed to load this Sim's details",
      // offline, the panel says so itself and asks again when the connection returns
      expect: NETWORK_FAILURES,
    });
    // a failure is shown by the toast (or the panel) and retried on the next opening
    found.catch(() => details.delete(person));
    details.set(person, found);
  }
  return found;
}
