// POST /api/trees/import - a Plum Tree, PruneTree or Heirloom backup ZIP, a GEDCOM file, or one or
// more households of a Sims 4 save (?household=A&household=B), as a new tree
import { importQuery } from "@/lib/import/schemas";
import { parseQuery } from "@/lib/server/http/http";
import { IMPORT_PER_USER, importFile } from "@/lib/server/import/import-file";
import { importResultJson } from "@/lib/server/import/import-tree";
import { withImportUpload } from "@/lib/server/import/read-import-body";
import { enforceRateLimit } from "@/lib/server/rate-limit";
import { otherMethods, withAuth } from "@/lib/server/http/route";

export const POST = withAuth(async ({ req, user }) => {
  // every ?household= of the query, in order (issue 34: several households into one tree); a
  // repeated parameter is otherwise read as its last value
  const all = new URL(req.url).searchParams.getAll("household");
  const query = importQuery.parse({
    ...parseQuery(req, importQuery.omit({ households: true })),
    ...(all.length > 1 ? { households: all } : {}),
  });
  const result = await withImportUpload(
    req,
    user.id,
    () => enforceRateLimit(IMPORT_PER_USER, user.id),
    // a multipart upload's file name stands in for ?fileName= (format detection, the title)
    (source, upload) =>
      importFile(user.id, source, {
        ...query,
        fileName: query.fileName ?? upload.fileName?.slice(0, 1_000) ?? undefined,
      }),
  );
  // The tree's structure is the worker's JSON text, sent as it is (import-tree.ts).
  return new Response(importResultJson(result), {
    status: 201,
    headers: { "content-type": "application/json" },
  });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
