// GET (anyone), PUT (publish) and DELETE (unpublish) /api/published/[treeId]
import { NextResponse } from "next/server";
import { json, parseBody } from "@/lib/server/http/http";
import { publishBody } from "@/lib/schemas/published";
import { getPublishedTreeJson } from "@/lib/server/published/get-published-tree";
import { publishTree } from "@/lib/server/published/publish-tree";
import { unpublishTree } from "@/lib/server/published/unpublish-tree";
import { otherMethods, withAuth, withPublic } from "@/lib/server/http/route";

type Params = { treeId: string };

// The JSON text as PostgreSQL wrote it (a large snapshot is megabytes, never parsed here).
export const GET = withPublic<Params>(
  async ({ params }) =>
    new NextResponse(await getPublishedTreeJson(params.treeId), {
      headers: { "content-type": "application/json" },
    }),
);

export const PUT = withAuth<Params>(async ({ req, params, user }) =>
  json(await publishTree(user.id, params.treeId, await parseBody(req, publishBody, 4096))),
);

export const DELETE = withAuth<Params>(async ({ params, user }) => {
  await unpublishTree(user.id, params.treeId);
  return json({ message: "Tree is no longer published" });
});

export const { POST, PATCH, OPTIONS } = otherMethods<Params>("GET", "PUT", "DELETE");
