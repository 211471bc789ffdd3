import { headers } from "next/headers";
import { IntentLink } from "@/components/ui/intent-link";
import { countView } from "@/lib/server/published/count-view";
import { FirstGenerations } from "@/components/public-tree/first-generations";
import { htmlToPlainText, truncateText } from "@/components/public-tree/plain-text";
import { PublicTreeLoader } from "@/components/tree-view/public-tree-loader";
import { loadPublicTree } from "@/lib/server/published/load-public-tree";
import { RENDER_HEADER, snapshotPath } from "@/lib/server/published/snapshot-url";

type Props = { params: Promise<{ treeId: string }> };

/** The description as the page's HTML carries it; the Tree Info panel shows all of it. */
const DESCRIPTION_IN_PAGE = 400;

/**
 * The published tree on the read-only canvas, filling the screen under the bar. The HTML is the
 * same for every reader (the production server keeps it per publication, ADR 014): it names the
 * first generations, and the canvas loads the whole tree from the cached snapshot. ?p= is read by
 * the canvas in the browser: that Sim is centred with their panel open.
 */
export default async function PublicTreeCanvasPage({ params }: Props) {
  const { treeId } = await params;
  const view = await loadPublicTree(treeId);
  // The production server counts the views of the pages it keeps; this render is for it.
  if (!(await headers()).has(RENDER_HEADER)) countView(treeId);
  const peopleById = new Map(view.people.map((person) => [person._id, person]));
  const description = truncateText(htmlToPlainText(view.description), DESCRIPTION_IN_PAGE);
  const listHref = `/public/${encodeURIComponent(view._id)}/list`;
  return (
    <>
      <section aria-label="Family tree" className="relative h-[calc(100dvh-3.5rem)] bg-plum-50">
        <PublicTreeLoader snapshotUrl={snapshotPath(view._id, view.lastPublishDate)}>
          <FirstGenerations data={view.data} people={peopleById} listHref={listHref} />
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
