import type { Guide } from "./guide-list";
import { GuideLink } from "./guide-link";
import { cx, focusRing } from "@/components/ui/class-names";

const cardClasses = cx(
  "flex flex-1 flex-col rounded-lg border border-plum-100 bg-white p-4 shadow-sm hover:border-plum-500",
  focusRing,
);

/** Previous and next guide links at the end of a guide. */
export function GuidePager({ previous, next }: { previous?: Guide; next?: Guide }) {
  return (
    <nav
      aria-label="Guides"
      className="border-plum-100 mt-12 flex flex-col gap-4 border-t pt-6 sm:flex-row"
    >
      {previous ? (
        <GuideLink href={`/guides/${previous.slug}`} className={cardClasses}>
          <span className="text-sm text-neutral-700">
            <span aria-hidden="true">← </span>Previous:
          </span>{" "}
          <span className="text-plum-900 font-semibold">{previous.title}</span>
        </GuideLink>
      ) : (
        <span className="hidden flex-1 sm:block" />
      )}
      <GuideLink
        href="/guides"
        className={cx(cardClasses, "flex-none items-center justify-center")}
      >
        <span className="text-plum-900 font-semibold">All guides</span>
      </GuideLink>
      {next ? (
        <GuideLink href={`/guides/${next.slug}`} className={cx(cardClasses, "sm:text-right")}>
          <span className="text-sm text-neutral-700">
            Next:<span aria-hidden="true"> →</span>
          </span>{" "}
          <span className="text-plum-900 font-semibold">{next.title}</span>
        </GuideLink>
      ) : (
        <span className="hidden flex-1 sm:block" />
      )}
    </nav>
  );
}
