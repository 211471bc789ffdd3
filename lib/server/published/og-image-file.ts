import "server-only";
import { OG_CACHE, type OgCard } from "@/lib/server/published/og-image";
import { logger } from "@/lib/server/logger";
import { getStorage } from "@/lib/server/storage";
import { getResizedImage } from "@/lib/server/uploads/get-resized-image";
import { runInWorker } from "@/lib/server/workers/pool";

/** Where a published tree's Open Graph card is kept, beside the uploads; replaced on republish. */
export const ogImageKey = (treeId: string) => `og/${treeId}.png`;

/** The tree's cover, 1200×640 as the server already makes it, as a data: URI; null if missing. */
async function coverDataUri(cover: string): Promise<string | null> {
  try {
    const image = await getResizedImage("1200x640", cover);
    const bytes = Buffer.isBuffer(image.body)
      ? image.body
      : Buffer.from(await new Response(image.body).arrayBuffer());
    return `data:${image.contentType};base64,${bytes.toString("base64")}`;
  } catch (error) {
    // A tree whose cover file is gone still gets its image, without the cover.
    logger.warn({ err: error, cover }, "open graph image without its cover");
    return null;
  }
}

/** The tree's Open Graph card as PNG bytes, drawn in a worker thread (og-image.tsx). */
export async function renderTreeOgImage(card: OgCard): Promise<Buffer> {
  const coverUri = card.cover ? await coverDataUri(card.cover) : null;
  const png = await runInWorker("ogImage", {
    title: card.title,
    coverDataUri: coverUri,
    sims: card.sims,
  });
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}

/**
 * Draws the tree's Open Graph card and stores it, so that a link-preview bot is served a file
 * instead of waiting seconds for a render. A failure is logged: the tree is published anyway, and
 * the image route draws the card on its first request instead.
 */
export async function storeOgImage(treeId: string, card: OgCard): Promise<Buffer | null> {
  try {
    const png = await renderTreeOgImage(card);
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
