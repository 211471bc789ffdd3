// GET /api/trees/[treeId]/avatars?size=100x100|200x200 - every distinct avatar of the owner's
// tree in one answer, as data: URIs (the image export embeds them without a request per avatar)
import { parseQuery } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { getTreeAvatars, treeAvatarsQuery } from "@/lib/server/uploads/get-tree-avatars";

type Params = { treeId: string };

export const GET = withAuth<Params>(async ({ req, params, user }) => {
  const { size } = parseQuery(req, treeAvatarsQuery);
  const body = await getTreeAvatars(user.id, params.treeId, size);
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>("GET");
