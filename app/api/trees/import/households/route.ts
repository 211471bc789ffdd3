// POST /api/trees/import/households - the households of a Sims 4 save (or tray item), with member
// and family counts, the active one first; nothing is stored
import { json } from "@/lib/server/http/http";
import { HOUSEHOLDS_PER_USER, listHouseholds } from "@/lib/server/import/list-households";
import { withImportUpload } from "@/lib/server/import/read-import-body";
import { enforceRateLimit } from "@/lib/server/rate-limit";
import { otherMethods, withAuth } from "@/lib/server/http/route";

export const POST = withAuth(async ({ req, user }) => {
  const result = await withImportUpload(
    req,
    user.id,
    () => enforceRateLimit(HOUSEHOLDS_PER_USER, user.id),
    (source) => listHouseholds(source),
  );
  return json(result, 200);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
