import { useId, type ReactNode } from "react";
import { cx } from "./class-names";

/** A white, rounded surface. */
export function Card({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <div className={cx("border-plum-100 rounded-lg border bg-white p-6 shadow-sm", className)}>
      {children}
    </div>
  );
}

export interface PanelProps {
  title: string;
  description?: ReactNode;
  /** Heading level of the title (default 2). */
  level?: 2 | 3;
  tone?: "default" | "danger";
  className?: string;
  children: ReactNode;
}

/** A titled section on a Card; the title names the region for assistive technology. */
export function Panel({
  title,
  description,
  level = 2,
  tone = "default",
  className,
  children,
}: PanelProps) {
  const headingId = useId();
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section
      aria-labelledby={headingId}
      className={cx(
        "rounded-lg border bg-white p-6 shadow-sm",
        tone === "danger" ? "border-red-200" : "border-plum-100",
        className,
      )}
    >
      <Heading
        id={headingId}
        className={cx(
          "text-lg font-semibold",
          tone === "danger" ? "text-red-800" : "text-plum-900",
        )}
      >
        {title}
      </Heading>
      {description && <div className="mt-1 text-sm text-neutral-700">{description}</div>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The heading block at the top of a page. */
export function PageHeader({
  title,
  description,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-plum-900 text-2xl font-bold sm:text-3xl">{title}</h1>
        {description && <p className="mt-2 max-w-prose text-neutral-700">{description}</p>}
      </div>
      {children && <div className="flex flex-wrap gap-2">{children}</div>}
    </div>
  );
}
