"use client";
import { useTranslations } from "next-intl";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/text-field";
import {
  exportTreeImage,
  planImageExport,
  saveBlob,
  type ImageFormat,
} from "@/lib/tree-image/export-image";
import { notify } from "@/lib/client/toast";
import type { Person } from "@/lib/schemas/person";
import type { Bounds, TreeLayout } from "@/lib/tree/layout";
import { CANVAS_LIMITS, EXPORT_SCALE } from "../../lib/tree-image/scale";

export const IMAGE_EXPORT_ERROR = "The image could not be made";

const SCALES: number[] = [];
for (let s = EXPORT_SCALE.min; s <= EXPORT_SCALE.max; s += EXPORT_SCALE.step) SCALES.push(s);

export interface ExportImageDialogProps {
  open: boolean;
  onClose: () => void;
  layout: TreeLayout;
  people: ReadonlyMap<string, Person>;
  title: string;
  /** The part of the tree on screen now, in layout coordinates; null when unknown. */
  getViewport: () => Bounds | null;
}

/**
 * "Export image": PNG or SVG, of the whole tree or of the part on screen, at a chosen scale. The
 * pixel size is shown before the file is made, with a note when a PNG had to be made smaller.
 */
export function ExportImageDialog({
  open,
  onClose,
  layout,
  people,
  title,
  getViewport,
}: ExportImageDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [format, setFormat] = useState<ImageFormat>("png");
  const [part, setPart] = useState<"whole" | "visible">("whole");
  const [scale, setScale] = useState<number>(EXPORT_SCALE.initial);
  const [viewport, setViewport] = useState<Bounds | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useTranslations("ExportImage");

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      // The view is read when the dialog opens: the canvas behind it cannot move meanwhile.
      setViewport(getViewport());
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open, getViewport]);

  const region = part === "visible" && viewport ? viewport : "whole";
  const plan = useMemo(
    () => planImageExport({ layout, region, scale, format }),
    [layout, region, scale, format],
  );

  async function onExport() {
    setBusy(true);
    try {
      const made = await exportTreeImage({ layout, people, title, format, region, scale });
      saveBlob(made.blob, made.filename);
      onClose();
    } catch {
      notify.error(t("error"));
    } finally {
      setBusy(false);
    }
  }

  const radio = "size-4 accent-plum-600";
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      className="m-auto w-[min(30rem,calc(100vw-2rem))] rounded-lg bg-white p-6 text-neutral-900 shadow-xl backdrop:bg-black/50"
    >
      <h2 id={titleId} className="text-lg font-semibold text-plum-900">
        {t("title")}
      </h2>
      <form
        className="mt-4 space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          void onExport();
        }}
      >
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">{t("format")}</legend>
          <div className="flex gap-6">
            {(["png", "svg"] as const).map((value) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="format"
                  value={value}
                  checked={format === value}
                  onChange={() => setFormat(value)}
                  className={radio}
                />
                {value.toUpperCase()}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">{t("part")}</legend>
          <div className="flex flex-wrap gap-6">
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="part"
                checked={part === "whole"}
                onChange={() => setPart("whole")}
                className={radio}
              />
              {t("whole")}
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="part"
                checked={part === "visible"}
                disabled={!viewport}
                onChange={() => setPart("visible")}
                className={radio}
              />
              {t("visible")}
            </label>
          </div>
        </fieldset>
        <label className="block space-y-1 text-sm font-medium">
          <span>{t("scale")}</span>
          <select
            value={scale}
            onChange={(event) => setScale(Number(event.target.value))}
            className={inputClasses}
          >
            {SCALES.map((value) => (
              <option key={value} value={value}>
                {t("scaleOption", { scale: value })}
              </option>
            ))}
          </select>
        </label>
        <div role="status" className="space-y-1 rounded-md bg-plum-50 p-3 text-sm">
          <p data-export-size={`${plan.width}x${plan.height}`}>
            {t("size", { width: plan.width, height: plan.height })}
          </p>
          {plan.clamped && (
            <p className="text-neutral-700">
              {t("clamped", {
                made: Math.round(plan.scale * 1000) / 1000,
                scale,
                maxSide: CANVAS_LIMITS.maxSide,
                maxArea: CANVAS_LIMITS.maxArea,
              })}
            </p>
          )}
        </div>
        <div className="flex justify-end gap-3">
          <Button type="button" variant="secondary" onClick={onClose} disabled={busy}>
            {t("cancel")}
          </Button>
          <Button type="submit" busy={busy}>
            {t("export", { format: format.toUpperCase() })}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
