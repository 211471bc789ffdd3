import "server-only";
import { objectId } from "@/lib/schemas/common";
import { db } from "@/lib/server/db";
import { ApiError, notFound } from "@/lib/server/http/errors";
import { NOT_PUBLISHED } from "./get-publish-status";
import { getPublishedTree } from "./get-published-tree";
import { OG_CACHE } from "./og-image";
import { storedOgImageResponse, storeOgImage } from "./og-image-file";

/** Cards being drawn, per publication: readers who arrive meanwhile wait for the one drawing. */
const drawing = new Map<string, Promise<Buffer | null>>();
/** Publications whose card could not be drawn: not tried again on every request. */
const failed = new Set<string>();

export const OG_IMAGE_FAILED = "The preview image of this tree could not be drawn";

/**
 * The published tree's Open Graph card, read from storage (issue 22): it is drawn and stored when
 * the tree is published, so a request costs one primary-key lookup and a file read, never a read
 * of the published copy. A tree published before cards were stored (or whose drawing failed at
 * publish) gets its card drawn once per publication, by the first request; 404 when not published.
 */
export async function getOgImage(treeId: string): Promise<Response> {
  if (!objectId.safeParse(treeId).success) throw notFound(NOT_PUBLISHED);
  const row = await db.publishedTree.findUnique({
    where: { treeId },
    select: { publishedAt: true },
  });
  if (!row) throw notFound(NOT_PUBLISHED);
  const stored = await storedOgImageResponse(treeId);
  if (stored) return stored;
  const key = `${treeId}:${row.publishedAt.getTime()}`;
  if (failed.has(key)) throw new ApiError(503, OG_IMAGE_FAILED);
  let draw = drawing.get(key);
  if (!draw) {
    draw = getPublishedTree(treeId)
      .then((view) => storeOgImage(view._id, { ...view, sims: view.people.length }))
      .finally(() => drawing.delete(key));
    drawing.set(key, draw);
  }
  const png = await draw;
  if (!png) {
    if (failed.size > 10_000) failed.clear();
    failed.add(key);
    throw new ApiError(503, OG_IMAGE_FAILED);
  }
  return new Response(new Uint8Array(png), {
    headers: { "content-type": "image/png", "cache-control": OG_CACHE },
  });
}
