import { headers } from "next/headers";
import { preload } from "react-dom";
import { avatarUrl } from "@/lib/image-url";
import { IntentLink } from "@/components/ui/intent-link";
import { countView } from "@/lib/server/published/count-view";
import { FirstGenerations } from "@/components/public-tree/first-generations";
import { TreePreview } from "@/components/public-tree/tree-preview";
import { htmlToPlainText, truncateText } from "@/components/public-tree/plain-text";
import { PublicTreeLoader } from "@/components/tree-view/public-tree-loader";
import { loadPublicHead, loadPublicPage } from "@/lib/server/published/load-public-tree";
import { RENDER_HEADER, snapshotPath } from "@/lib/server/published/snapshot-url";
import { readerOf } from "@/lib/server/published/view-counter";

type Props = { params: Promise<{ treeId: string }> };

/** The description as the page's HTML carries it; the Tree Info panel shows all of it. */
const DESCRIPTION_IN_PAGE = 400;
const PREVIEW_MARK = `requestAnimationFrame(function(){performance.mark("heirloom:preview-painted")})`;

/**
 * The published tree on the read-only canvas, filling the screen under the bar. The HTML is the
 * same for every reader (the production server keeps it per publication, ADR 014): it names the
 * first generations, and the canvas loads the whole tree from the cached snapshot. ?p= is read by
 * the canvas in the browser: that Sim is centred with their panel open.
 */
export default async function PublicTreeCanvasPage({ params }: Props) {
  const { treeId } = await params;
  const view = await loadPublicHead(treeId);
  const model = await loadPublicPage(treeId, "canvas");
  if (model.kind !== "canvas") throw new Error("the canvas page was asked for");
  const { preview, first } = model;
  // The production server counts the views of the pages it keeps; this render is for it.
  const requestHeaders = await headers();
  if (!requestHeaders.has(RENDER_HEADER)) {
    const address = requestHeaders.get("x-forwarded-for")?.split(",", 1)[0]?.trim();
    countView(treeId, readerOf(address, requestHeaders.get("user-agent") ?? undefined));
  }
  // The drawing's first avatars are its largest paint: asked for with the page, not when the
  // parser reaches them inside the SVG.
  for (const person of preview?.people.slice(0, 4) ?? []) {
    preload(avatarUrl(person.avatar), { as: "image", fetchPriority: "high" });
  }
  // Served by Next, the CSP lets inline scripts run only with this request's nonce (proxy.ts); the
  // page kept by the production server drops the nonce and allows them by hash (front/page-csp.ts).
  const nonce = requestHeaders.get("x-nonce") ?? undefined;
  const description = truncateText(htmlToPlainText(view.description), DESCRIPTION_IN_PAGE);
  const listHref = `/public/${encodeURIComponent(view._id)}/list`;
  return (
    <>
      <section aria-label="Family tree" className="relative h-[calc(100dvh-3.5rem)] bg-plum-50">
        <PublicTreeLoader snapshotUrl={snapshotPath(view._id, view.lastPublishDate)}>
          {preview ? (
            <>
              <TreePreview view={preview} />
              <div className="sr-only">
                <FirstGenerations cut={first} listHref={listHref} />
              </div>
              {/* For the benchmark: the frame that first shows the Sims (bench/public/run.ts). */}
              <script nonce={nonce} dangerouslySetInnerHTML={{ __html: PREVIEW_MARK }} />
            </>
          ) : (
            <FirstGenerations cut={first} listHref={listHref} />
          )}
        </PublicTreeLoader>
      </section>
      <footer className="mx-auto max-w-screen-2xl space-y-2 px-4 py-6 text-sm text-neutral-700">
        {description ? <p className="max-w-prose">{description}</p> : null}
        <p>
          A read-only family tree, published with{" "}
          <IntentLink href="/" className="font-medium text-plum-700 underline">
            Heirloom
          </IntentLink>
          . See{" "}
          <a href={listHref} className="font-medium text-plum-700 underline">
            every Sim as a list
          </a>
          .
        </p>
      </footer>
    </>
  );
}
