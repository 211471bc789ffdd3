import type { Metadata } from "next";
import { IntentLink } from "@/components/ui/intent-link";
import { resizedImageUrl } from "@/lib/image-url";
import { htmlToPlainText, truncateText } from "@/components/public-tree/plain-text";
import { getEnv } from "@/lib/env";
import { loadPublicHead } from "@/lib/server/published/load-public-tree";
import { ViewSwitch } from "@/components/public-tree/view-switch";
import { LanguageMenu } from "@/components/language-menu/language-menu";

type Props = { params: Promise<{ treeId: string }>; children: React.ReactNode };

/** Link previews show about this much of the description. */
const DESCRIPTION_PREVIEW = 200;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { treeId } = await params;
  const {
    title: rawTitle,
    description: html,
    cover,
    lastPublishDate,
  } = await loadPublicHead(treeId);
  const title = rawTitle || "Untitled Tree";
  const description =
    truncateText(htmlToPlainText(html), DESCRIPTION_PREVIEW) ||
    "A Sims family tree, shared with Heirloom.";
  // The cover when there is one; otherwise the card drawn and stored when the tree was published,
  // addressed by publish date so that a republished tree is fetched afresh.
  const images = cover
    ? [{ url: resizedImageUrl(cover, "1200x640"), width: 1200, height: 640, alt: title }]
    : [
        {
          url: `/api/published/${encodeURIComponent(treeId)}/og?v=${encodeURIComponent(lastPublishDate)}`,
          width: 1200,
          height: 630,
          type: "image/png",
          alt: title,
        },
      ];
  return {
    // Link previews need absolute URLs; APP_URL is the address the site is served at.
    metadataBase: new URL(getEnv().APP_URL),
    title,
    description,
    alternates: { canonical: `/public/${encodeURIComponent(treeId)}` },
    openGraph: {
      type: "website",
      siteName: "Heirloom",
      url: `/public/${encodeURIComponent(treeId)}`,
      title,
      description,
      images,
    },
    twitter: { card: "summary_large_image", title, description, images },
  };
}

/**
 * The public, read-only copy of a tree, outside the app shell: one slim bar with its title and
 * the switch between the canvas and the list, so that the tree itself starts near the top of the
 * screen (the cover and description are in the canvas's Tree Info panel, and atop the list).
 */
export default async function PublicTreeLayout({ params, children }: Props) {
  const { treeId } = await params;
  const { _id, title } = await loadPublicHead(treeId);

  return (
    <div className="min-h-dvh">
      {/* 3.5rem with its border, so the canvas under it ends at the bottom of the screen */}
      <header className="h-14 border-b border-plum-100 bg-white">
        <div className="mx-auto flex h-full max-w-screen-2xl items-center gap-3 px-3 sm:gap-4 sm:px-4">
          <IntentLink
            href="/"
            className="shrink-0 font-bold text-plum-700 hover:text-plum-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-plum-500"
          >
            Heirloom
          </IntentLink>
          <h1 id="tree-title" className="min-w-0 flex-1 truncate text-lg font-bold text-plum-900">
            {title || "Untitled Tree"}
          </h1>
          {/* the canvas puts its Find a Sim field here (components/tree-view/public-tree-view.tsx) */}
          <div id="find-a-sim" className="contents" />
          <ViewSwitch treeId={_id} />
          <LanguageMenu tone="light" />
        </div>
      </header>
      <main>{children}</main>
    </div>
  );
}
