import "server-only";
import { OG_CACHE, type OgCard, renderTreeOgImage } from "@/lib/server/published/og-image";
import { logger } from "@/lib/server/logger";
import { getStorage } from "@/lib/server/storage";

/** Where a published tree's Open Graph card is kept, beside the uploads; replaced on republish. */
export const ogImageKey = (treeId: string) => `og/${treeId}.png`;

/**
 * Draws the tree's Open Graph card and stores it, so that a link-preview bot is served a file
 * instead of waiting seconds for a render. A failure is logged: the tree is published anyway, and
 * the image route draws the card on its first request instead.
 */
export async function storeOgImage(treeId: string, card: OgCard): Promise<Buffer | null> {
  try {
    const png = Buffer.from(await (await renderTreeOgImage(card)).arrayBuffer());
    await getStorage().put(ogImageKey(treeId), png, "image/png");
    return png;
  } catch (error) {
    logger.error({ err: error, treeId }, "could not store the open graph image");
    return null;
  }
}

/** The stored card's response, or null when there is none (published before cards were stored). */
export async function storedOgImageResponse(treeId: string): Promise<Response | null> {
  const stored = await getStorage().get(ogImageKey(treeId));
  if (!stored) return null;
  return new Response(stored.stream(), {
    headers: {
      "content-type": "image/png",
      "content-length": String(stored.size),
      "cache-control": OG_CACHE,
    },
  });
}

/** Removes the card of a tree that is no longer published. */
export async function deleteOgImage(treeId: string): Promise<void> {
  await getStorage()
    .delete(ogImageKey(treeId))
    .catch((error: unknown) => logger.warn({ err: error, treeId }, "open graph image not removed"));
}
