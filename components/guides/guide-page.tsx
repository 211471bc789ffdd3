import type { Metadata } from "next";
import { findGuide, GUIDES, type GuideSlug } from "@/components/guides/guide-list";
import { GuideLink } from "@/components/guides/guide-link";
import { GuideMarkdown } from "@/components/guides/guide-markdown";
import { GuidePager } from "@/components/guides/guide-pager";
import { Prose } from "@/components/guides/prose";
import { cx, focusRing } from "@/components/ui/class-names";

/** A guide's title and summary as page metadata. */
export function guideMetadata(slug: GuideSlug): Metadata {
  const found = findGuide(slug);
  return found ? { title: found.guide.title, description: found.guide.summary } : {};
}

/**
 * One guide's page. Each guide has its own route folder (app/(app)/guides/<slug>/page.tsx)
 * rather than a [slug] route calling notFound(): Next serves a notFound() 404 with an empty body
 * that only scripts fill in (vercel/next.js#62228), while an unmatched URL gets the server-rendered
 * app/not-found.tsx, link home included.
 */
export function GuidePage({ slug }: { slug: GuideSlug }) {
  const found = findGuide(slug);
  if (!found) throw new Error(`No guide ${slug}`);
  const { guide, index } = found;
  return (
    <article className="mx-auto max-w-3xl">
      <GuideLink
        href="/guides"
        className={cx("text-sm font-medium text-plum-700 underline underline-offset-2", focusRing)}
      >
        <span aria-hidden="true">← </span>Back to all guides
      </GuideLink>
      <p className="mt-6 text-sm font-medium text-neutral-700">
        Guide {index + 1} of {GUIDES.length}
      </p>
      <h1 className="mt-1 text-2xl font-bold text-plum-900 sm:text-3xl">{guide.title}</h1>
      <p className="mt-2 mb-8 text-lg text-neutral-700">{guide.summary}</p>
      <Prose>
        <GuideMarkdown slug={guide.slug} />
      </Prose>
      <GuidePager previous={GUIDES[index - 1]} next={GUIDES[index + 1]} />
    </article>
  );
}
