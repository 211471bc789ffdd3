"use client";
import { useId, useState, type HTMLAttributes, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

/**
 * A small button over the canvas that shows and hides a panel beside it, named by `title` for
 * screen readers (the Legacy panel, the marks' legend). `children` is given a way to close it.
 */
export function Disclosure({
  label,
  title,
  panelClassName,
  panelAttributes,
  children,
}: {
  /** The button's words. */
  label: string;
  /** The panel's accessible name. */
  title: string;
  panelClassName: string;
  panelAttributes?: HTMLAttributes<HTMLDivElement> & Record<`data-${string}`, string>;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="relative">
      <Button
        variant="secondary"
        size="sm"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((shown) => !shown)}
        className="shadow"
      >
        {label}
      </Button>
      {open && (
        <div
          {...panelAttributes}
          id={panelId}
          role="region"
          aria-label={title}
          className={panelClassName}
        >
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}
