// GET, PUT (full body, or {links} alone) and DELETE /api/people/[personId]
import { z } from "zod";
import { json, parseBody } from "@/lib/server/http/http";
import { deletePerson } from "@/lib/server/people/delete-person";
import { getPersonOrThrow } from "@/lib/server/people/get-person";
import { parsePersonUpdate } from "@/lib/server/people/parse-person-update";
import { updatePerson } from "@/lib/server/people/update-person";
import { updatePersonLinks } from "@/lib/server/people/update-person-links";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { expectedPersonVersionFrom } from "@/lib/server/trees/if-match";

type Params = { personId: string };

export const GET = withAuth<Params>(async ({ params, user }) => {
  const { person, etag } = await getPersonOrThrow(user.id, params.personId);
  return json(person, { headers: { ETag: etag } });
});

export const PUT = withAuth<Params>(async ({ req, params, user }) => {
  const expected = expectedPersonVersionFrom(req.headers.get("if-match"));
  const update = parsePersonUpdate(await parseBody(req, z.unknown()));
  const { person, etag } =
    update.kind === "links"
      ? await updatePersonLinks(user.id, params.personId, update.links, expected)
      : await updatePerson(user.id, params.personId, update.fields, expected);
  return json(person, { headers: { ETag: etag } });
});

export const DELETE = withAuth<Params>(async ({ params, user }) => {
  const { tree } = await deletePerson(user.id, params.personId);
  return json({ message: "Person removed", tree });
});

export const { POST, PATCH, OPTIONS } = otherMethods<Params>("GET", "PUT", "DELETE");
