import type { Metadata } from "next";
import Image from "next/image";
import { IntentLink } from "@/components/ui/intent-link";
import { resizedImageUrl } from "@/components/image-manager/image-url";
import { htmlToPlainText, truncateText } from "@/components/public-tree/plain-text";
import { RichTextContent } from "@/components/rich-text/rich-text-content";
import { getEnv } from "@/lib/env";
import { loadPublicTree } from "@/lib/server/published/load-public-tree";
import { ViewSwitch } from "@/components/public-tree/view-switch";

type Props = { params: Promise<{ treeId: string }>; children: React.ReactNode };

/** Link previews show about this much of the description. */
const DESCRIPTION_PREVIEW = 200;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { treeId } = await params;
  const { tree, lastPublishDate } = await loadPublicTree(treeId);
  const title = tree.title || "Untitled Tree";
  const description =
    truncateText(htmlToPlainText(tree.description), DESCRIPTION_PREVIEW) ||
    "A Sims family tree, shared with Heirloom.";
  // The cover when there is one; otherwise the generated card with the title and the Sim count,
  // addressed by publish date so that a republished tree is fetched afresh.
  const images = tree.cover
    ? [{ url: resizedImageUrl(tree.cover, "1200x640"), width: 1200, height: 640, alt: title }]
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
 * The public, read-only copy of a tree, outside the app shell: its title, cover and description,
 * server-rendered so that link previews see them, above the canvas or the list view.
 */
export default async function PublicTreeLayout({ params, children }: Props) {
  const { treeId } = await params;
  const { tree } = await loadPublicTree(treeId);
  const title = tree.title || "Untitled Tree";

  return (
    <div className="min-h-screen">
      <header className="border-b border-plum-100 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
          <IntentLink
            href="/"
            className="font-bold text-plum-700 hover:text-plum-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-plum-500"
          >
            Heirloom
          </IntentLink>
          <span className="text-sm text-neutral-600">A public family tree · read-only</span>
        </div>
      </header>
      <main className="mx-auto max-w-6xl space-y-8 px-4 py-6">
        <section aria-labelledby="tree-title" className="space-y-4">
          <h1 id="tree-title" className="text-3xl font-bold break-words text-plum-900">
            {title}
          </h1>
          {tree.cover ? (
            <Image
              src={resizedImageUrl(tree.cover, "600x320")}
              alt={`Cover of ${title}`}
              width={600}
              height={320}
              unoptimized
              priority
              className="aspect-[15/8] w-full max-w-[600px] rounded-lg bg-plum-100 object-cover"
            />
          ) : null}
          <RichTextContent html={tree.description} className="max-w-prose text-neutral-800" />
          <ViewSwitch treeId={tree._id} />
        </section>
        {children}
      </main>
    </div>
  );
}
