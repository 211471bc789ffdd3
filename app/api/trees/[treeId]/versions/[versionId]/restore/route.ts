// POST /api/trees/[treeId]/versions/[versionId]/restore - brings a version of the tree back (its
// structure, people and heirs); If-Match as for a structure save; the tree as it was before is
// kept as a version too, so a restore can be undone (issue 34)
import { json } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { enforceRateLimit } from "@/lib/server/rate-limit";
import { expectedVersionFrom } from "@/lib/server/trees/if-match";
import { RESTORES_PER_ACCOUNT, restoreVersion } from "@/lib/server/trees/versions";

type Params = { treeId: string; versionId: string };

export const POST = withAuth<Params>(async ({ req, params, user }) => {
  const expectedVersion = expectedVersionFrom(req.headers.get("if-match"));
  await enforceRateLimit(RESTORES_PER_ACCOUNT, user.id);
  const result = await restoreVersion(user.id, params.treeId, params.versionId, expectedVersion);
  return json(
    { tree: result.tree, restored: result.restored, keptVersion: result.keptVersion },
    { headers: { ETag: result.etag } },
  );
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>("POST");
