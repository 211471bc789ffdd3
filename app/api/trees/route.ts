// GET /api/trees - the caller's trees as {_id, title}; POST /api/trees - create a tree
import { createTreeBody } from "@/lib/schemas/tree";
import { json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { createTree } from "@/lib/server/trees/create-tree";
import { listTrees } from "@/lib/server/trees/list-trees";
import { treeEtag } from "@/lib/server/trees/serialize";

export const GET = withAuth(async ({ user }) => json(await listTrees(user.id)));

export const POST = withAuth(async ({ req, user }) => {
  const body = await parseBody(req, createTreeBody);
  const tree = await createTree(user.id, body);
  // a new tree's details are at their first version
  return json(tree, { headers: { ETag: treeEtag(tree.version, 1) } });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
