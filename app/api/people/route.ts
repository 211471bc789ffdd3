// GET /api/people?tree= - the people of a tree; POST /api/people - add a person to a tree
import { NextResponse } from "next/server";
import { createPersonBody, peopleQuery } from "@/lib/schemas/person";
import { json, parseBody, parseQuery } from "@/lib/server/http/http";
import { createPerson } from "@/lib/server/people/create-person";
import { listPeopleJson } from "@/lib/server/people/list-people";
import { otherMethods, withAuth } from "@/lib/server/http/route";

export const GET = withAuth(async ({ req, user }) => {
  const { tree, fields } = parseQuery(req, peopleQuery);
  // The JSON text as PostgreSQL wrote it (large trees: megabytes, never parsed here).
  return new NextResponse(await listPeopleJson(user.id, tree, fields ?? "all"), {
    headers: { "content-type": "application/json" },
  });
});

export const POST = withAuth(async ({ req, user }) => {
  const body = await parseBody(req, createPersonBody);
  const { person, etag } = await createPerson(user.id, body);
  return json(person, { headers: { ETag: etag } });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
