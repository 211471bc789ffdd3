"use client";
import { IntentLink } from "@/components/ui/intent-link";
import {
  useEffect,
  useId,
  useRef,
  useState,
  type ComponentProps,
  type MouseEvent,
  type ReactNode,
} from "react";
import { cx, focusRing } from "./class-names";

export interface DropdownMenuProps {
  /** The button's text, which is also its accessible name. */
  label: ReactNode;
  /** Where the panel lines up with the button. */
  align?: "start" | "end";
  buttonClassName?: string;
  children: ReactNode;
}

/**
 * A button that shows a panel of links and actions (the disclosure pattern). It closes on an
 * outside click, on Escape (returning focus to the button) and when an item is chosen.
 */
export function DropdownMenu({
  label,
  align = "end",
  buttonClassName,
  children,
}: DropdownMenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onFocusIn = (event: FocusEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("focusin", onFocusIn);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("focusin", onFocusIn);
    };
  }, [open]);

  function onPanelClick(event: MouseEvent<HTMLDivElement>) {
    if ((event.target as HTMLElement).closest("a, button")) setOpen(false);
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        className={cx(
          "inline-flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium",
          focusRing,
          buttonClassName,
        )}
      >
        {label}
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
        </svg>
      </button>
      <div
        id={panelId}
        hidden={!open}
        onClick={onPanelClick}
        className={cx(
          "border-plum-100 absolute z-40 mt-2 min-w-52 rounded-md border bg-white py-1 text-neutral-900 shadow-lg",
          align === "end" ? "right-0" : "left-0",
        )}
      >
        {children}
      </div>
    </div>
  );
}

const itemClasses = cx(
  "block w-full px-4 py-2 text-left text-sm hover:bg-plum-50 focus-visible:bg-plum-50",
  focusRing,
  "focus-visible:-outline-offset-2",
);

export function DropdownLink({ className, ...props }: ComponentProps<typeof IntentLink>) {
  return <IntentLink className={cx(itemClasses, className)} {...props} />;
}

export function DropdownButton({ className, type = "button", ...props }: ComponentProps<"button">) {
  return <button type={type} className={cx(itemClasses, className)} {...props} />;
}

/** Non-interactive text inside a dropdown, such as who is signed in. */
export function DropdownText({ className, ...props }: ComponentProps<"p">) {
  return (
    <p
      className={cx("border-plum-100 border-b px-4 py-2 text-sm text-neutral-700", className)}
      {...props}
    />
  );
}
