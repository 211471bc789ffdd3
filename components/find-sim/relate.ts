import type { Person } from "@/lib/schemas/person";
import type { Kinship } from "@/lib/tree/placements";
import { describeRelationship, type Relationship } from "@/lib/tree/relationship";

/**
 * Fetches a Sim's whole record when the one held lacks its custom rows (the editor's people,
 * ADR 032); answers null when the one held is already whole (the public view's people).
 */
export type LoadWhole = (person: Person) => Promise<Person> | null;

/**
 * How A is related to B (describeRelationship), in the words of A's Gender row. The sentence
 * names A's relation, so only A's gender counts: when the Sim held for A came without its custom
 * rows, A's whole record is fetched first. If that fetch fails, the answer uses the neutral
 * words ("parent's sibling"), as for a Sim with no Gender row.
 */
export async function relateWithGender(
  kin: Kinship,
  people: ReadonlyMap<string, Person>,
  a: string,
  b: string,
  loadWhole: LoadWhole,
): Promise<Relationship> {
  const held = people.get(a);
  const loading = held ? loadWhole(held) : null;
  if (!loading) return describeRelationship(kin, people, a, b);
  let whole: Person;
  try {
    whole = await loading;
  } catch {
    return describeRelationship(kin, people, a, b);
  }
  const withA = new Map(people);
  withA.set(a, whole);
  return describeRelationship(kin, withA, a, b);
}
