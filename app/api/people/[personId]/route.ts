// GET, PUT (full body, or {links} alone) and DELETE /api/people/[personId]
import { z } from "zod";
import { json, parseBody } from "@/lib/server/http";
import { deletePerson } from "@/lib/server/people/delete-person";
import { getPersonOrThrow } from "@/lib/server/people/get-person";
import { parsePersonUpdate } from "@/lib/server/people/parse-person-update";
import { updatePerson } from "@/lib/server/people/update-person";
import { updatePersonLinks } from "@/lib/server/people/update-person-links";
import { otherMethods, withAuth } from "@/lib/server/route";

type Params = { personId: string };

export const GET = withAuth<Params>(async ({ params, user }) =>
  json(await getPersonOrThrow(user.id, params.personId)),
);

export const PUT = withAuth<Params>(async ({ req, params, user }) => {
  const update = parsePersonUpdate(await parseBody(req, z.unknown()));
  const person =
    update.kind === "links"
      ? await updatePersonLinks(user.id, params.personId, update.links)
      : await updatePerson(user.id, params.personId, update.fields);
  return json(person);
});

export const DELETE = withAuth<Params>(async ({ params, user }) => {
  const { tree } = await deletePerson(user.id, params.personId);
  return json({ message: "Person removed", tree });
});

export const { POST, PATCH, OPTIONS } = otherMethods<Params>("GET", "PUT", "DELETE");
