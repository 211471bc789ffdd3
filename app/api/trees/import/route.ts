// POST /api/trees/import - a Plum Tree, PruneTree or Heirloom backup ZIP, or a GEDCOM file, as a new tree
import { importQuery } from "@/lib/import/schemas";
import { json, parseQuery } from "@/lib/server/http/http";
import { IMPORT_PER_USER, importFile } from "@/lib/server/import/import-file";
import { withImportUpload } from "@/lib/server/import/read-import-body";
import { enforceRateLimit } from "@/lib/server/rate-limit";
import { otherMethods, withAuth } from "@/lib/server/http/route";

export const POST = withAuth(async ({ req, user }) => {
  const query = parseQuery(req, importQuery);
  const result = await withImportUpload(
    req,
    () => enforceRateLimit(IMPORT_PER_USER, user.id),
    (input) => importFile(user.id, input, query),
  );
  return json(result, 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
