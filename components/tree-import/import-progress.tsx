import { cx } from "@/components/ui/class-names";

export type ImportPhase =
  { name: "idle" } | { name: "uploading"; fraction: number } | { name: "importing" };

/**
 * The import's progress: the upload's percentage while the file is sent, then an indeterminate
 * bar while the server reads it and creates the tree.
 */
export function ImportProgress({ phase }: { phase: ImportPhase }) {
  if (phase.name === "idle") return null;
  const uploading = phase.name === "uploading";
  const percent = uploading ? Math.round(phase.fraction * 100) : null;
  const label = uploading ? `Uploading… ${percent}%` : "Importing…";
  return (
    <div className="space-y-2" data-import-phase={phase.name}>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={label}
        className="relative h-3 overflow-hidden rounded-full bg-plum-100"
      >
        <div
          className={cx(
            "absolute inset-y-0 left-0 rounded-full bg-plum-600",
            uploading
              ? "transition-[width] duration-200"
              : "w-1/3 animate-[import-slide_1.2s_ease-in-out_infinite] motion-reduce:w-full motion-reduce:animate-none motion-reduce:opacity-60",
          )}
          style={uploading ? { width: `${percent}%` } : undefined}
        />
      </div>
      <p aria-live="polite" className="text-sm text-neutral-700">
        {label}
      </p>
      <style>{`@keyframes import-slide{0%{transform:translateX(-100%)}100%{transform:translateX(300%)}}`}</style>
    </div>
  );
}
