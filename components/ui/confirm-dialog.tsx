"use client";
import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "./button";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The question or warning under the title. */
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** "danger" paints the confirm button red, for deletions. */
  tone?: "default" | "danger";
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A modal question built on <dialog>: focus is trapped, Escape cancels, Cancel gets focus first. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  tone = "default",
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const t = useTranslations("ConfirmDialog");
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={children ? bodyId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg bg-white p-6 text-neutral-900 shadow-xl backdrop:bg-black/50"
    >
      <h2 id={titleId} className="text-plum-900 text-lg font-semibold">
        {title}
      </h2>
      {children && (
        <div id={bodyId} className="mt-2 text-neutral-700">
          {children}
        </div>
      )}
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={onCancel} disabled={busy} autoFocus>
          {cancelLabel ?? t("cancel")}
        </Button>
        <Button variant={tone === "danger" ? "danger" : "primary"} onClick={onConfirm} busy={busy}>
          {confirmLabel ?? t("confirm")}
        </Button>
      </div>
    </dialog>
  );
}
