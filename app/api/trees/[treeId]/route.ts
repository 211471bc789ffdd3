// GET, PATCH (details, structure, or a JSON Patch of the structure) and DELETE /api/trees/[treeId]
import { NextResponse } from "next/server";
import { z } from "zod";
import { JSON_PATCH_TYPE, treeJsonPatch } from "@/lib/schemas/tree";
import { json, parseBody, parseJsonText, parseQuery, readBodyText } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { deleteTree } from "@/lib/server/trees/delete-tree";
import { getTreeCanvasJson, getTreeJson } from "@/lib/server/trees/get-tree";
import { expectedDetailsVersionFrom, expectedVersionFrom } from "@/lib/server/trees/if-match";
import { parseTreePatch } from "@/lib/server/trees/parse-tree-patch";
import { patchTreeData, saveTreeData } from "@/lib/server/trees/save-tree-data";
import { OFF_THREAD_CHARS } from "@/lib/server/trees/structure-work";
import { structureAnswer } from "@/lib/server/trees/write-tree-data";
import { updateTreeDetails } from "@/lib/server/trees/update-tree-details";
import { runInWorker } from "@/lib/server/workers/pool";

type Params = { treeId: string };

/**
 * `fields=canvas`: what the editor draws, its people with it and each reference by position
 * (ADR 038); absent: the tree as the original client reads it, references with names (issue 13).
 */
const treeQuery = z.object({
  fields: z.enum(["canvas"], { error: "fields must be canvas" }).optional(),
});

export const GET = withAuth<Params>(async ({ req, params, user }) => {
  const { fields } = parseQuery(req, treeQuery);
  // The JSON text as PostgreSQL wrote it (a large tree's data is megabytes, never parsed here).
  const tree =
    fields === "canvas"
      ? await getTreeCanvasJson(user.id, params.treeId)
      : await getTreeJson(user.id, params.treeId);
  return new NextResponse(tree.json, {
    headers: { "content-type": "application/json", ETag: tree.etag },
  });
});

/**
 * A `{data}` or details body. A large one (a whole tree of more than a few hundred Sims) is read,
 * validated and serialized in the worker pool when it is exactly `{data}` (issue 32, ADR 043);
 * anything else is parsed here, with the usual errors.
 */
async function readTreeBody(req: Request) {
  const text = await readBodyText(req);
  if (text.length > OFF_THREAD_CHARS) {
    const prepared = structureAnswer(await runInWorker("treeBody", { text }));
    if (prepared) return { kind: "prepared", prepared } as const;
  }
  return parseTreePatch(parseJsonText(text, z.unknown()));
}

/** The handler's own time, for bench:save (Server-Timing is read by browsers' devtools too). */
const serverTiming = (started: number) => `save;dur=${(performance.now() - started).toFixed(1)}`;

export const PATCH = withAuth<Params>(async ({ req, params, user }) => {
  const started = performance.now();
  const ifMatch = req.headers.get("if-match");
  const contentType = req.headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase();
  if (contentType === JSON_PATCH_TYPE) {
    const operations = await parseBody(req, treeJsonPatch);
    const result = await patchTreeData(
      user.id,
      params.treeId,
      operations,
      expectedVersionFrom(ifMatch),
    );
    return json(result.saved, {
      headers: { ETag: result.etag, "Server-Timing": serverTiming(started) },
    });
  }
  const patch = await readTreeBody(req);
  if (patch.kind !== "details") {
    const result = await saveTreeData(
      user.id,
      params.treeId,
      patch.kind === "prepared" ? { prepared: patch.prepared } : patch.data,
      expectedVersionFrom(ifMatch),
    );
    return json(result.saved, {
      headers: { ETag: result.etag, "Server-Timing": serverTiming(started) },
    });
  }
  const result = await updateTreeDetails(
    user.id,
    params.treeId,
    patch.details,
    expectedDetailsVersionFrom(ifMatch),
  );
  return json(result.tree, { headers: { ETag: result.etag } });
});

export const DELETE = withAuth<Params>(async ({ params, user }) => {
  await deleteTree(user.id, params.treeId);
  return json({ message: "Tree deleted" });
});

export const { POST, PUT, OPTIONS } = otherMethods<Params>("GET", "PATCH", "DELETE");
