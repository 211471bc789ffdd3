import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { GUIDE_CONTENT } from "@/components/guides/guide-content";
import { findGuide, GUIDES } from "@/components/guides/guide-list";
import { GuideLink } from "@/components/guides/guide-link";
import { GuidePager } from "@/components/guides/guide-pager";
import { Prose } from "@/components/guides/prose";
import { cx, focusRing } from "@/components/ui/class-names";

// Only the six guides exist; any other /guides/* path is a 404 from notFound() below, rendered
// on the server inside the app shell. (dynamicParams = false answered 404 with an empty body that
// only the client filled in.)
export function generateStaticParams() {
  return GUIDES.map((guide) => ({ slug: guide.slug }));
}

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = findGuide((await params).slug);
  return found ? { title: found.guide.title, description: found.guide.summary } : {};
}

export default async function GuidePage({ params }: Props) {
  const found = findGuide((await params).slug);
  if (!found) notFound();
  const { guide, index } = found;
  const Content = GUIDE_CONTENT[guide.slug];
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
        <Content />
      </Prose>
      <GuidePager previous={GUIDES[index - 1]} next={GUIDES[index + 1]} />
    </article>
  );
}
