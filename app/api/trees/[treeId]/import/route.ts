// POST /api/trees/[treeId]/import?household= - a newer Sims 4 save of the household (or
// households: ?household=A&household=B) the tree came from: new Sims are added in place, known ones
// updated by game id; nothing is removed.
// `preview=1` writes nothing and answers what the sync would do; a save that shares no Sim with
// the tree is refused with 409 unless `force=1` (issue 34).
import { z } from "zod";
import { importQuery } from "@/lib/import/schemas";
import { json, parseQuery } from "@/lib/server/http/http";
import { IMPORT_PER_USER } from "@/lib/server/import/import-file";
import { withImportUpload } from "@/lib/server/import/read-import-body";
import { previewSync, syncHousehold } from "@/lib/server/import/sync-household";
import { enforceRateLimit } from "@/lib/server/rate-limit";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { expectedVersionFrom } from "@/lib/server/trees/if-match";

type Params = { treeId: string };

/** A yes/no query flag: `1` or `true` is yes, `0`, `false` or none is no. */
const flag = (name: string) =>
  z
    .enum(["1", "0", "true", "false"], { error: `${name} must be 1 or 0` })
    .optional()
    .transform((value) => value === "1" || value === "true");

const syncQuery = z.object({
  household: importQuery.shape.household,
  preview: flag("preview"),
  force: flag("force"),
});

export const POST = withAuth<Params>(async ({ req, params, user }) => {
  const query = parseQuery(req, syncQuery);
  // every ?household= of the query, in order (issue 34: a tree of several households is synced
  // with all of them, their families merged as the import merged them)
  const all = new URL(req.url).searchParams.getAll("household");
  const households = all.length > 1 ? importQuery.shape.households.parse(all) : undefined;
  const expectedVersion = expectedVersionFrom(req.headers.get("if-match"));
  if (query.preview) {
    const result = await withImportUpload(
      req,
      user.id,
      () => enforceRateLimit(IMPORT_PER_USER, user.id),
      (input) =>
        previewSync(
          user.id,
          params.treeId,
          input,
          { household: query.household, households },
          expectedVersion,
        ),
    );
    return json({ tree: result.tree, preview: result.preview }, { headers: { ETag: result.etag } });
  }
  const result = await withImportUpload(
    req,
    user.id,
    () => enforceRateLimit(IMPORT_PER_USER, user.id),
    (input) =>
      syncHousehold(
        user.id,
        params.treeId,
        input,
        { household: query.household, households, signal: req.signal, force: query.force },
        expectedVersion,
      ),
  );
  return json(
    { tree: result.tree, changes: result.changes, keptVersion: result.keptVersion },
    { headers: { ETag: result.etag } },
  );
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>("POST");
