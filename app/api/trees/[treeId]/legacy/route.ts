// GET and PUT /api/trees/[treeId]/legacy - the legacy's founder and succession laws (issue 33),
// kept beside the tree's structure; If-Match with the ETag of the GET, like the tree's.
import { updateLegacyBody } from "@/lib/legacy/settings";
import { json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { expectedLegacyVersionFrom, getLegacy, setLegacy } from "@/lib/server/legacy/legacy";

type Params = { treeId: string };

export const GET = withAuth<Params>(async ({ params, user }) => {
  const { legacy, etag } = await getLegacy(user.id, params.treeId);
  return json(legacy, { headers: { ETag: etag } });
});

export const PUT = withAuth<Params>(async ({ req, params, user }) => {
  const expected = expectedLegacyVersionFrom(req.headers.get("if-match"));
  const body = await parseBody(req, updateLegacyBody);
  const { legacy, etag } = await setLegacy(user.id, params.treeId, body, expected);
  return json(legacy, { headers: { ETag: etag } });
});

export const { POST, PATCH, DELETE, OPTIONS } = otherMethods<Params>("GET", "PUT");
