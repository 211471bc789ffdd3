import type { ReactNode } from "react";

/** Long-form text styles for the guides (headings, lists, notes, keyboard and UI names). */
export function Prose({ children }: { children: ReactNode }) {
  return (
    <div className="[&_h2]:text-plum-900 [&_h3]:text-plum-900 max-w-prose space-y-4 leading-relaxed text-neutral-800 [&_h2]:mt-10 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-6 [&_h3]:font-semibold [&_li]:mt-1 [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-6 [&_strong]:font-semibold [&_strong]:text-neutral-900 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6">
      {children}
    </div>
  );
}

/** A name as it appears on screen, such as a button or menu item. */
export function Ui({ children }: { children: ReactNode }) {
  return <strong className="text-plum-900 font-semibold">{children}</strong>;
}

/** A highlighted aside: a tip, or something to be careful about. */
export function Note({
  tone = "tip",
  children,
}: {
  tone?: "tip" | "warning";
  children: ReactNode;
}) {
  const warning = tone === "warning";
  return (
    <aside
      aria-label={warning ? "Important" : "Tip"}
      className={
        warning
          ? "rounded-md border-l-4 border-amber-600 bg-amber-50 p-4 text-neutral-900"
          : "border-plum-500 bg-plum-100 rounded-md border-l-4 p-4 text-neutral-900"
      }
    >
      <p className="font-semibold">{warning ? "Important" : "Tip"}</p>
      <div className="mt-1 space-y-2">{children}</div>
    </aside>
  );
}
