// POST /api/trees/[treeId]/import?household= - a newer Sims 4 save of the household the tree came
// from: new Sims are added in place, known ones updated by game id; nothing is removed
import { z } from "zod";
import { importQuery } from "@/lib/import/schemas";
import { json, parseQuery } from "@/lib/server/http/http";
import { IMPORT_PER_USER } from "@/lib/server/import/import-file";
import { withImportUpload } from "@/lib/server/import/read-import-body";
import { syncHousehold } from "@/lib/server/import/sync-household";
import { enforceRateLimit } from "@/lib/server/rate-limit";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { expectedVersionFrom } from "@/lib/server/trees/if-match";

type Params = { treeId: string };

const syncQuery = z.object({ household: importQuery.shape.household });

export const POST = withAuth<Params>(async ({ req, params, user }) => {
  const query = parseQuery(req, syncQuery);
  const expectedVersion = expectedVersionFrom(req.headers.get("if-match"));
  const result = await withImportUpload(
    req,
    user.id,
    () => enforceRateLimit(IMPORT_PER_USER, user.id),
    (input) =>
      syncHousehold(
        user.id,
        params.treeId,
        input,
        { household: query.household, signal: req.signal },
        expectedVersion,
      ),
  );
  return json({ tree: result.tree, changes: result.changes }, { headers: { ETag: result.etag } });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>("POST");
