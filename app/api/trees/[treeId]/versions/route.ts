// GET /api/trees/[treeId]/versions - the tree as it was before each Sims 4 sync or restore, newest
// first, without their contents (issue 34)
import { json } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { listVersions } from "@/lib/server/trees/versions";

type Params = { treeId: string };

export const GET = withAuth<Params>(async ({ params, user }) => {
  return json({ versions: await listVersions(user.id, params.treeId) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>("GET");
