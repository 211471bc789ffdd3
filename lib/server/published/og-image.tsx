import "server-only";
import { ImageResponse } from "next/og";
import { logger } from "@/lib/server/logger";
import { getResizedImage } from "@/lib/server/uploads/get-resized-image";
import { ogText, simCount } from "../../tree-image/og-text";

/** What the card shows: the tree's title, its cover (an image name) and how many Sims it holds. */
export interface OgCard {
  title: string;
  cover: string | null;
  sims: number;
}

export const OG_SIZE = { width: 1200, height: 630 } as const;
/** Scrapers may keep the image a while; a republish changes its address (?v=). */
export const OG_CACHE = "public, max-age=3600";

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

const PLUM = { 50: "#faf5fa", 100: "#f3e8f3", 200: "#e6cfe6", 600: "#743b74", 900: "#2e152e" };

/**
 * The Open Graph image of a published tree: its title, its cover and how many Sims it holds,
 * drawn by next/og with the font it bundles (no font or emoji is fetched).
 */
export async function renderTreeOgImage(view: OgCard): Promise<ImageResponse> {
  const title = ogText(view.title) || "A Sims family tree";
  const cover = view.cover ? await coverDataUri(view.cover) : null;
  const count = simCount(view.sims);
  const titleSize = title.length > 60 ? 48 : title.length > 30 ? 60 : 76;

  return new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        background: PLUM[50],
        color: PLUM[900],
        padding: 56,
        gap: 32,
      }}
    >
      <div style={{ display: "flex", flex: 1, gap: 48, alignItems: "center", minHeight: 0 }}>
        {cover && (
          // eslint-disable-next-line @next/next/no-img-element -- next/og draws plain <img>
          <img
            src={cover}
            alt=""
            width={540}
            height={288}
            style={{ borderRadius: 24, objectFit: "cover", border: `4px solid ${PLUM[200]}` }}
          />
        )}
        <div style={{ display: "flex", flexDirection: "column", flex: 1, gap: 24 }}>
          <div
            style={{
              display: "flex",
              fontSize: titleSize,
              lineHeight: 1.1,
              letterSpacing: "-0.02em",
              color: PLUM[900],
            }}
          >
            {title}
          </div>
          <div style={{ display: "flex", fontSize: 40, color: PLUM[600] }}>{count}</div>
        </div>
      </div>
      <div
        style={{
          display: "flex",
          justifyContent: "space-between",
          alignItems: "center",
          borderTop: `3px solid ${PLUM[200]}`,
          paddingTop: 24,
          fontSize: 30,
          color: PLUM[600],
        }}
      >
        <div style={{ display: "flex" }}>A Sims family tree</div>
        <div style={{ display: "flex", color: PLUM[900] }}>Heirloom</div>
      </div>
    </div>,
    { ...OG_SIZE, headers: { "cache-control": OG_CACHE } },
  );
}
