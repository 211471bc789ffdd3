import type { Metadata } from "next";
import { GUIDES } from "@/components/guides/guide-list";
import { GuideLink } from "@/components/guides/guide-link";
import { PageHeader } from "@/components/ui/card";
import { cx, focusRing } from "@/components/ui/class-names";

export const metadata: Metadata = { title: "Guides" };

export default function GuidesPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Guides"
        description="Everything you need to build a family tree for your Sims legacy, from your first tree to publishing it and linking it to others. New to Heirloom? Read them in order."
      />
      <ol className="space-y-3">
        {GUIDES.map((guide, index) => (
          <li key={guide.slug}>
            <GuideLink
              href={`/guides/${guide.slug}`}
              className={cx(
                "border-plum-100 hover:border-plum-500 flex gap-4 rounded-lg border bg-white p-4 shadow-sm",
                focusRing,
              )}
            >
              <span
                aria-hidden="true"
                className="bg-plum-100 text-plum-900 flex size-8 shrink-0 items-center justify-center rounded-full font-semibold"
              >
                {index + 1}
              </span>
              <span>
                <span className="text-plum-900 block font-semibold">{guide.title}</span>
                <span className="block text-neutral-700">{guide.summary}</span>
              </span>
            </GuideLink>
          </li>
        ))}
      </ol>
    </div>
  );
}
