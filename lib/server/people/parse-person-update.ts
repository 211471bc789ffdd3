import "server-only";
import { z } from "zod";
import {
  type PersonLink,
  updatePersonFieldsBody,
  updatePersonLinksBody,
} from "@/lib/schemas/person";
import type { PersonFields } from "./update-person";

export type PersonUpdate =
  { kind: "links"; links: PersonLink[] } | { kind: "fields"; fields: PersonFields };

const anyObject = z.record(z.string(), z.unknown(), {
  error: "The body must be an object: the person's fields, or {links}",
});

/**
 * Picks the PUT branch by the keys sent: `{links}` alone is a links update; anything else is the
 * full edit body, whose `links` (if a client echoes them back) are ignored. (`updatePersonBody`, a
 * zod union, would take an invalid `{links}` for a full body of defaults and erase the person.)
 */
export function parsePersonUpdate(body: unknown): PersonUpdate {
  const fields = anyObject.parse(body);
  const keys = Object.keys(fields);
  if (keys.length === 1 && keys[0] === "links") {
    return { kind: "links", links: updatePersonLinksBody.parse(fields).links };
  }
  return { kind: "fields", fields: updatePersonFieldsBody.parse(fields) };
}
