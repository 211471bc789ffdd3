import Image from "next/image";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { countView } from "@/lib/server/published/count-view";
import { PublicTreeList } from "@/components/public-tree/public-tree-list";
import { resizedImageUrl } from "@/lib/image-url";
import { RichTextContent } from "@/components/rich-text/rich-text-content";
import { loadPublicHead, loadPublicPage } from "@/lib/server/published/load-public-tree";
import { LIST_PAGES_META, RENDER_HEADER } from "@/lib/server/published/snapshot-url";
import { readerOf } from "@/lib/server/published/view-counter";

type Props = {
  params: Promise<{ treeId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * The published tree as a nested list, readable without JavaScript and by screen readers, in
 * pages of bounded size (components/public-tree/list-pages.ts): ?page=N, from 1. The production
 * server keeps each page per publication and reads no other query (ADR 014, 024).
 */
export default async function PublicTreeListPage({ params, searchParams }: Props) {
  const { treeId } = await params;
  const { page: pageParam } = await searchParams;
  const wanted =
    typeof pageParam === "string" && /^[1-9][0-9]{0,3}$/.test(pageParam) ? +pageParam : 1;
  const view = await loadPublicHead(treeId);
  const model = await loadPublicPage(treeId, "list", wanted);
  if (model.kind !== "list") throw new Error("a list page was asked for");
  const page = model.list;
  const listPath = `/public/${encodeURIComponent(view._id)}/list`;
  // Past the last page: the last page's address.
  if (page.number !== wanted)
    redirect(page.number > 1 ? `${listPath}?page=${page.number}` : listPath);
  // The production server counts the views of the pages it keeps; its own render is not one.
  const requestHeaders = await headers();
  if (!requestHeaders.has(RENDER_HEADER)) {
    const address = requestHeaders.get("x-forwarded-for")?.split(",", 1)[0]?.trim();
    countView(treeId, readerOf(address, requestHeaders.get("user-agent") ?? undefined));
  }
  const title = view.title || "Untitled Tree";
  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-6">
      <meta name={LIST_PAGES_META} content={String(page.count)} />
      {page.number === 1 ? (
        <section aria-label="About this tree" className="space-y-4">
          {view.cover ? (
            <Image
              src={resizedImageUrl(view.cover, "600x320")}
              alt={`Cover of ${title}`}
              width={600}
              height={320}
              unoptimized
              priority
              className="aspect-[15/8] w-full max-w-[600px] rounded-lg bg-plum-100 object-cover"
            />
          ) : null}
          <RichTextContent html={view.description} className="max-w-prose text-neutral-800" />
        </section>
      ) : null}
      <PublicTreeList treeId={view._id} page={page} />
    </div>
  );
}
