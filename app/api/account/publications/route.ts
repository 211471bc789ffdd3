// GET /api/account/publications - the signed-in user's public copies, those of deleted trees
// included (issue 25). Heirloom's own route, not in SPEC.md; DELETE /api/published/{treeId}
// withdraws any of them.
import { json } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { listOwnerPublications } from "@/lib/server/published/list-owner-publications";

export const GET = withAuth(async ({ user }) => json(await listOwnerPublications(user.id)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
