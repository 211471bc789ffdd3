// GET /api/trees/[treeId]/export?format=zip|gedcom - download the tree as a backup ZIP or GEDCOM 7
import { exportQuery } from "@/lib/import/schemas";
import { exportTreeGedcom } from "@/lib/server/export/export-tree-gedcom";
import { exportTreeZip } from "@/lib/server/export/export-tree-zip";
import { parseQuery } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";

type Params = { treeId: string };

export const GET = withAuth<Params>(async ({ req, params, user }) => {
  const { format } = parseQuery(req, exportQuery);
  const file =
    format === "gedcom"
      ? await exportTreeGedcom(user.id, params.treeId)
      : await exportTreeZip(user.id, params.treeId);
  return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      "content-type": file.contentType,
      "content-length": String(file.bytes.length),
      "content-disposition": `attachment; filename="${file.filename}"`,
      "x-content-type-options": "nosniff",
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>("GET");
