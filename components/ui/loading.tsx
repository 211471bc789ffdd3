import { useTranslations } from "next-intl";
import { cx } from "./class-names";

/** A spinner with text, announced politely to screen readers. */
export function Loading({ label, className }: { label?: string; className?: string }) {
  const t = useTranslations("Loading");
  return (
    <div
      role="status"
      aria-live="polite"
      className={cx("flex items-center gap-3 py-6 text-neutral-700", className)}
    >
      <span
        aria-hidden="true"
        className="border-plum-200 border-t-plum-600 size-5 shrink-0 animate-spin rounded-full border-2"
      />
      <span>{label ?? t("label")}</span>
    </div>
  );
}
