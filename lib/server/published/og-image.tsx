// The Open Graph card's drawing: pure, run in a worker thread (lib/server/workers/tasks.ts).
// og-image-file.ts reads the cover and stores the result.
import "server-only";
import { ImageResponse } from "next/og";
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

const PLUM = { 50: "#faf5fa", 100: "#f3e8f3", 200: "#e6cfe6", 600: "#743b74", 900: "#2e152e" };

/** What the worker draws: the card with its cover already read, as a data: URI (or null). */
export interface OgCardDrawing {
  title: string;
  coverDataUri: string | null;
  sims: number;
}

/**
 * The Open Graph image of a published tree as PNG bytes: its title, its cover and how many Sims
 * it holds, drawn by next/og with the font it bundles (no font or emoji is fetched).
 */
export async function drawOgCard(view: OgCardDrawing): Promise<Uint8Array> {
  const title = ogText(view.title) || "A Sims family tree";
  const cover = view.coverDataUri;
  const count = simCount(view.sims);
  const titleSize = title.length > 60 ? 48 : title.length > 30 ? 60 : 76;

  const image = new ImageResponse(
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
    OG_SIZE,
  );
  return new Uint8Array(await image.arrayBuffer());
}
