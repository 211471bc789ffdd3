// GET (anyone), PUT (publish) and DELETE (unpublish) /api/published/[treeId]
import { json } from "@/lib/server/http";
import { getPublishedTree } from "@/lib/server/published/get-published-tree";
import { publishTree } from "@/lib/server/published/publish-tree";
import { unpublishTree } from "@/lib/server/published/unpublish-tree";
import { withAuth, withPublic } from "@/lib/server/route";

type Params = { treeId: string };

export const GET = withPublic<Params>(async ({ params }) =>
  json(await getPublishedTree(params.treeId)),
);

export const PUT = withAuth<Params>(async ({ params, user }) =>
  json(await publishTree(user.id, params.treeId)),
);

export const DELETE = withAuth<Params>(async ({ params, user }) => {
  await unpublishTree(user.id, params.treeId);
  return json({ message: "Tree is no longer published" });
});
