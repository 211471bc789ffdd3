"use client";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import type { SaveStatus } from "@/components/tree-editor/tree-saver";
import { Button } from "@/components/ui/button";
import { ApiRequestError, api, uploadFile } from "@/lib/client/api";
import type { SyncChanges } from "./sims4-client";

/** What POST /api/trees/{id}/import?preview=1 answers (lib/server/import/sync-household.ts). */
interface SyncPreview {
  sharesNoSim: boolean;
  added: { gameId: string; firstName: string; lastName: string }[];
  addedCount: number;
  updated: {
    _id: string;
    firstName: string;
    lastName: string;
    changes: { field: string; from: string | string[]; to: string | string[] }[];
  }[];
  updatedCount: number;
  unchanged: number;
  missing: { _id: string; firstName: string; lastName: string }[];
  missingCount: number;
}

type Refusal = "conflict" | "unsaved" | "error";

type Step =
  | { kind: "closed" }
  | { kind: "saving" }
  | { kind: "reading"; progress: number }
  | { kind: "preview"; preview: SyncPreview; etag: string; file: File }
  | { kind: "updating"; progress: number }
  | { kind: "done"; changes: SyncChanges; undo: { versionId: string; etag: string } | null }
  | { kind: "undoing" }
  | { kind: "undone" }
  | { kind: "refused"; refusal: Refusal; detail?: string; reload: boolean };

const syncUrl = (treeId: string, query: string) =>
  `/api/trees/${encodeURIComponent(treeId)}/import${query}`;

/** How long the editor's save may take to report how it ended, after the flush resolved. */
const SETTLE_MS = 5000;

/**
 * The editor's "Update from a newer save": a file picker for a .save or .trayitem and a modal
 * dialog. The editor's changes are saved first (its save carries If-Match of the editor's
 * version, so a tree changed elsewhere meets a 409 there, and then nothing is sent); the save is
 * then previewed (`?preview=1`, which writes nothing) and the dialog shows what the update would
 * do: it is applied only when the player confirms, with the preview's ETag as If-Match, so what is
 * applied is what was shown (issue 34). A save that shares no Sim with the tree is said so plainly,
 * with no default action: adding its strangers anyway (`force=1`) is a choice, never a default.
 * The dialog then lists what the sync changed; the editor opens the updated tree (a reload: the
 * editor's history and saved version are the editor's own).
 */
export function useUpdateFromSave(
  treeId: string,
  onFlush: () => Promise<void>,
  status: SaveStatus = "saved",
): { open: () => void; busy: boolean; input: ReactNode } {
  const t = useTranslations("Sync");
  const inputRef = useRef<HTMLInputElement>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [step, setStep] = useState<Step>({ kind: "closed" });
  // The editor's save status as last drawn: read after the flush to learn how it ended.
  const statusRef = useRef(status);
  useEffect(() => {
    statusRef.current = status;
  }, [status]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (step.kind !== "closed" && !dialog.open) dialog.showModal();
    if (step.kind === "closed" && dialog.open) dialog.close();
  }, [step.kind]);

  async function settledStatus(): Promise<SaveStatus> {
    const until = Date.now() + SETTLE_MS;
    while (
      (statusRef.current === "saving" || statusRef.current === "pending") &&
      Date.now() < until
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return statusRef.current;
  }

  /** A refusal of the server (or of the network) as the dialog says it. */
  function refuse(caught: unknown) {
    if (caught instanceof ApiRequestError && caught.status === 403) {
      setStep({ kind: "closed" });
      return;
    }
    if (caught instanceof ApiRequestError && caught.status === 409) {
      // a save with no Sim of the tree is refused with its own sentence; else the tree changed
      const other = caught.detail?.includes("force=1");
      setStep(
        other
          ? { kind: "refused", refusal: "error", detail: caught.detail ?? undefined, reload: false }
          : { kind: "refused", refusal: "conflict", reload: true },
      );
      return;
    }
    const detail = caught instanceof ApiRequestError && caught.detail ? caught.detail : undefined;
    setStep({ kind: "refused", refusal: "error", detail, reload: false });
  }

  async function preview(file: File) {
    if (statusRef.current === "conflict") {
      setStep({ kind: "refused", refusal: "conflict", reload: true });
      return;
    }
    setStep({ kind: "saving" });
    try {
      await onFlush();
      const saved = await settledStatus();
      if (saved === "conflict") {
        setStep({ kind: "refused", refusal: "conflict", reload: true });
        return;
      }
      if (saved !== "saved") {
        setStep({ kind: "refused", refusal: "unsaved", reload: false });
        return;
      }
      setStep({ kind: "reading", progress: 0 });
      const answer = await uploadFile<{ tree: { version: number }; preview: SyncPreview }>(
        syncUrl(treeId, "?preview=1"),
        file,
        { onProgress: (progress) => setStep({ kind: "reading", progress }) },
      );
      // the structure's version the preview was made from: the If-Match of the update
      const etag = `"${answer.tree.version}"`;
      setStep({ kind: "preview", preview: answer.preview, etag, file });
    } catch (caught) {
      refuse(caught);
    }
  }

  async function apply(previewed: Extract<Step, { kind: "preview" }>) {
    setStep({ kind: "updating", progress: 0 });
    try {
      const answer = await uploadFile<{
        tree: { version: number };
        changes: SyncChanges;
        keptVersion: string | null;
      }>(syncUrl(treeId, previewed.preview.sharesNoSim ? "?force=1" : ""), previewed.file, {
        onProgress: (progress) => setStep({ kind: "updating", progress }),
        headers: previewed.etag ? { "if-match": previewed.etag } : {},
      });
      // the tree as it was is kept as a version: restoring it undoes the update (issue 34)
      const undo = answer.keptVersion
        ? { versionId: answer.keptVersion, etag: `"${answer.tree.version}"` }
        : null;
      setStep({ kind: "done", changes: answer.changes, undo });
    } catch (caught) {
      refuse(caught);
    }
  }

  async function undo(kept: { versionId: string; etag: string }) {
    setStep({ kind: "undoing" });
    try {
      await api(
        `/api/trees/${encodeURIComponent(treeId)}/versions/${encodeURIComponent(kept.versionId)}/restore`,
        { method: "POST", headers: { "if-match": kept.etag }, expect: [409], silent: true },
      );
      setStep({ kind: "undone" });
    } catch (caught) {
      refuse(caught);
    }
  }

  const reload = () => window.location.reload();
  const close = () => setStep({ kind: "closed" });
  const working =
    step.kind === "saving" ||
    step.kind === "reading" ||
    step.kind === "updating" ||
    step.kind === "undoing";
  const nothingToDo =
    step.kind === "preview" && step.preview.addedCount + step.preview.updatedCount === 0;

  return {
    busy: step.kind !== "closed",
    open: () => inputRef.current?.click(),
    input: (
      <>
        <input
          ref={inputRef}
          type="file"
          accept=".save,.trayitem"
          aria-label={t("fileLabel")}
          data-update-from-save=""
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (file) void preview(file);
          }}
        />
        <dialog
          ref={dialogRef}
          aria-labelledby={titleId}
          aria-busy={working}
          data-update-from-save-dialog=""
          onCancel={(event) => {
            // Escape closes a refusal and a preview (nothing was written); while working, and once
            // the tree changed, the editor's copy is behind and the way on is the updated tree.
            event.preventDefault();
            if (step.kind === "refused" || step.kind === "preview") close();
          }}
          className="m-auto max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] overflow-y-auto rounded-lg bg-white p-6 text-neutral-900 shadow-xl backdrop:bg-black/50"
        >
          <h2 id={titleId} className="text-lg font-semibold text-plum-900">
            {step.kind === "done"
              ? t("titleDone")
              : step.kind === "undone" || step.kind === "undoing"
                ? t("titleUndone")
                : step.kind === "refused"
                  ? t("titleRefused")
                  : step.kind === "preview"
                    ? t("titlePreview")
                    : t("titleWorking")}
          </h2>
          <div className="mt-2 text-sm text-neutral-700">
            {step.kind === "saving" && <p role="status">{t("savingFirst")}</p>}
            {step.kind === "undoing" && <p role="status">{t("undoing")}</p>}
            {step.kind === "undone" && <p data-sync-undone="">{t("undone")}</p>}
            {(step.kind === "reading" || step.kind === "updating") && (
              <p role="status">
                {step.progress < 1
                  ? t("sending", { percent: Math.round(step.progress * 100) })
                  : step.kind === "reading"
                    ? t("reading")
                    : t("updating")}
              </p>
            )}
            {step.kind === "refused" && (
              <p role="alert">
                {step.refusal === "conflict"
                  ? t("conflict")
                  : step.refusal === "unsaved"
                    ? t("unsaved")
                    : (step.detail ?? t("error"))}
              </p>
            )}
            {step.kind === "preview" && <PreviewReport preview={step.preview} />}
            {step.kind === "done" && <SyncReport changes={step.changes} />}
          </div>
          {step.kind === "preview" && (
            <div className="mt-6 flex flex-wrap justify-end gap-3">
              {/* With no Sim in common nothing is focused first: Enter must not add strangers. */}
              <Button
                variant={nothingToDo || step.preview.sharesNoSim ? "primary" : "secondary"}
                onClick={close}
                autoFocus={!step.preview.sharesNoSim}
              >
                {nothingToDo ? t("close") : t("cancel")}
              </Button>
              {!nothingToDo &&
                (step.preview.sharesNoSim ? (
                  <Button variant="danger" onClick={() => void apply(step)} data-sync-force="">
                    {t("force")}
                  </Button>
                ) : (
                  <Button onClick={() => void apply(step)} data-sync-confirm="">
                    {t("confirm")}
                  </Button>
                ))}
            </div>
          )}
          {(step.kind === "done" || step.kind === "refused" || step.kind === "undone") && (
            <div className="mt-6 flex flex-wrap justify-end gap-3">
              {step.kind === "done" && step.undo && (
                <Button
                  variant="secondary"
                  onClick={() => step.undo && void undo(step.undo)}
                  data-sync-undo=""
                >
                  {t("undo")}
                </Button>
              )}
              {step.kind === "refused" && (
                <Button variant={step.reload ? "secondary" : "primary"} onClick={close} autoFocus>
                  {t("close")}
                </Button>
              )}
              {(step.kind === "done" || step.kind === "undone" || step.reload) && (
                <Button onClick={reload} autoFocus={step.kind !== "refused"}>
                  {step.kind === "done"
                    ? t("showUpdated")
                    : step.kind === "undone"
                      ? t("showTree")
                      : t("reload")}
                </Button>
              )}
            </div>
          )}
        </dialog>
      </>
    ),
  };
}

/** A Sim's name as the dialog lists it. */
function useNameOf() {
  const t = useTranslations("Sync");
  return (p: { firstName: string; lastName: string }) =>
    `${p.firstName} ${p.lastName}`.trim() || t("noName");
}

/** A field's name in the player's language. */
function useFieldName() {
  const t = useTranslations("Sync");
  return (field: string) => {
    switch (field) {
      case "firstName":
        return t("fieldFirstName");
      case "lastName":
        return t("fieldLastName");
      case "traits":
        return t("fieldTraits");
      case "lifeStates":
        return t("fieldLifeStates");
      case "age":
        return t("fieldAge");
      default:
        return field;
    }
  };
}

/** What the update would do, before anything is written. */
function PreviewReport({ preview }: { preview: SyncPreview }) {
  const t = useTranslations("Sync");
  const nameOf = useNameOf();
  const fieldName = useFieldName();
  const more = (shown: number, count: number) =>
    count > shown ? <li>{t("andMore", { count: count - shown })}</li> : null;
  /** A change as the player reads it: names from → to; lists by what the game added. */
  const changeText = (change: SyncPreview["updated"][number]["changes"][number]) => {
    if (Array.isArray(change.from) && Array.isArray(change.to)) {
      const from = change.from;
      const gained = change.to.filter((value) => !from.includes(value));
      return t("gained", { field: fieldName(change.field), values: gained.join(", ") });
    }
    return t("changed", {
      field: fieldName(change.field),
      from: String(change.from),
      to: String(change.to),
    });
  };
  if (preview.sharesNoSim) {
    return (
      <p role="alert" data-sync-no-sim-in-common="">
        {t("noSimInCommon", { count: preview.addedCount })}
      </p>
    );
  }
  if (preview.addedCount + preview.updatedCount === 0) {
    return <p data-sync-preview-summary="">{t("upToDate")}</p>;
  }
  return (
    <div className="space-y-3">
      <p data-sync-preview-summary="">
        {t("previewSummary", {
          added: preview.addedCount,
          updated: preview.updatedCount,
          unchanged: preview.unchanged,
        })}
      </p>
      {preview.addedCount > 0 && (
        <section>
          <h3 className="font-semibold text-neutral-900">{t("toAdd")}</h3>
          <ul className="list-disc pl-5" data-sync-to-add="">
            {preview.added.map((person) => (
              <li key={person.gameId}>{nameOf(person)}</li>
            ))}
            {more(preview.added.length, preview.addedCount)}
          </ul>
        </section>
      )}
      {preview.updatedCount > 0 && (
        <section>
          <h3 className="font-semibold text-neutral-900">{t("toUpdate")}</h3>
          <ul className="list-disc pl-5" data-sync-to-update="">
            {preview.updated.map((person) => (
              <li key={person._id}>
                {nameOf(person)}: {person.changes.map(changeText).join("; ")}
              </li>
            ))}
            {more(preview.updated.length, preview.updatedCount)}
          </ul>
        </section>
      )}
      {preview.missingCount > 0 && (
        <section>
          <h3 className="font-semibold text-neutral-900">{t("missing")}</h3>
          <ul className="list-disc pl-5" data-sync-missing="">
            {preview.missing.map((person) => (
              <li key={person._id}>{nameOf(person)}</li>
            ))}
            {more(preview.missing.length, preview.missingCount)}
          </ul>
        </section>
      )}
    </div>
  );
}

/** What the sync changed: the Sims added, those updated (and what of them), the notes. */
function SyncReport({ changes }: { changes: SyncChanges }) {
  const t = useTranslations("Sync");
  const nameOf = useNameOf();
  const fieldName = useFieldName();
  const { added, updated, unchanged, notes } = changes;
  if (added.length + updated.length === 0) {
    return <p data-sync-summary="">{t("upToDate")}</p>;
  }
  return (
    <div className="space-y-3">
      <p data-sync-summary="">
        {t("doneSummary", { added: added.length, updated: updated.length, unchanged })}
      </p>
      {added.length > 0 && (
        <section>
          <h3 className="font-semibold text-neutral-900">{t("added")}</h3>
          <ul className="list-disc pl-5" data-sync-added="">
            {added.map((person) => (
              <li key={person._id}>{nameOf(person)}</li>
            ))}
          </ul>
        </section>
      )}
      {updated.length > 0 && (
        <section>
          <h3 className="font-semibold text-neutral-900">{t("updated")}</h3>
          <ul className="list-disc pl-5" data-sync-updated="">
            {updated.map((person) => (
              <li key={person._id}>
                {nameOf(person)}: {person.fields.map(fieldName).join(", ")}
              </li>
            ))}
          </ul>
        </section>
      )}
      {notes.length > 0 && (
        <section>
          <h3 className="font-semibold text-neutral-900">{t("notes")}</h3>
          <ul className="list-disc pl-5" data-sync-notes="">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
