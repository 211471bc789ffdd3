// GET /api/published/[treeId]/og - the published tree's Open Graph image (1200×630 PNG)
import { getPublishedTree } from "@/lib/server/published/get-published-tree";
import { storedOgImageResponse, storeOgImage } from "@/lib/server/published/og-image-file";
import { otherMethods, withPublic } from "@/lib/server/http/route";
import { OG_CACHE } from "@/lib/server/published/og-image";

type Params = { treeId: string };

// The card is drawn and stored when the tree is published; this serves the file. A tree published
// before cards were stored gets its card drawn and stored on the first request.
export const GET = withPublic<Params>(async ({ params }) => {
  const view = await getPublishedTree(params.treeId);
  const stored = await storedOgImageResponse(view._id);
  if (stored) return stored;
  const png = await storeOgImage(view._id, { ...view, sims: view.people.length });
  if (!png) throw new Error("open graph image could not be drawn");
  return new Response(new Uint8Array(png), {
    headers: { "content-type": "image/png", "cache-control": OG_CACHE },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>("GET");
