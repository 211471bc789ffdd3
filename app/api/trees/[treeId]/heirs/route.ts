// GET and PUT /api/trees/[treeId]/heirs - the heirs of the tree's generations (issue 26)
import { updateTreeHeirsBody } from "@/lib/schemas/tree";
import { json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { getTreeHeirs, setTreeHeirs } from "@/lib/server/trees/set-tree-heirs";

type Params = { treeId: string };

export const GET = withAuth<Params>(async ({ params, user }) =>
  json(await getTreeHeirs(user.id, params.treeId)),
);

export const PUT = withAuth<Params>(async ({ req, params, user }) => {
  const { heirs } = await parseBody(req, updateTreeHeirsBody);
  return json(await setTreeHeirs(user.id, params.treeId, heirs));
});

export const { POST, PATCH, DELETE, OPTIONS } = otherMethods<Params>("GET", "PUT");
