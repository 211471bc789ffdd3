// GET, PATCH (details or structure) and DELETE /api/trees/[treeId]
import { NextResponse } from "next/server";
import { z } from "zod";
import { json, parseBody } from "@/lib/server/http";
import { otherMethods, withAuth } from "@/lib/server/route";
import { deleteTree } from "@/lib/server/trees/delete-tree";
import { getTreeJson } from "@/lib/server/trees/get-tree";
import { expectedVersionFrom } from "@/lib/server/trees/if-match";
import { parseTreePatch } from "@/lib/server/trees/parse-tree-patch";
import { saveTreeData } from "@/lib/server/trees/save-tree-data";
import { treeEtag } from "@/lib/server/trees/serialize";
import { updateTreeDetails } from "@/lib/server/trees/update-tree-details";

type Params = { treeId: string };

export const GET = withAuth<Params>(async ({ params, user }) => {
  // The JSON text as PostgreSQL wrote it (a large tree's data is megabytes, never parsed here).
  const tree = await getTreeJson(user.id, params.treeId);
  return new NextResponse(tree.json, {
    headers: { "content-type": "application/json", ETag: treeEtag(tree.version) },
  });
});

export const PATCH = withAuth<Params>(async ({ req, params, user }) => {
  const patch = parseTreePatch(await parseBody(req, z.unknown()));
  const result =
    patch.kind === "data"
      ? await saveTreeData(
          user.id,
          params.treeId,
          patch.data,
          expectedVersionFrom(req.headers.get("if-match")),
        )
      : await updateTreeDetails(user.id, params.treeId, patch.details);
  return json(result, { headers: { ETag: treeEtag(result.version) } });
});

export const DELETE = withAuth<Params>(async ({ params, user }) => {
  await deleteTree(user.id, params.treeId);
  return json({ message: "Tree deleted" });
});

export const { POST, PUT, OPTIONS } = otherMethods<Params>("GET", "PATCH", "DELETE");
