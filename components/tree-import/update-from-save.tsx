"use client";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { SaveStatus } from "@/components/tree-editor/tree-saver";
import { Button } from "@/components/ui/button";
import { ApiRequestError } from "@/lib/client/api";
import { syncTree, type SyncChanges } from "./sims4-client";

export const SYNC_CONFLICT =
  "This tree was changed in another tab or window, so it was not updated from the save. Reload to see those changes, then update from the save again.";
export const SYNC_UNSAVED =
  "Your latest changes could not be saved, so the tree was not updated from the save. Save the tree, then try again.";
export const SYNC_ERROR = "The tree could not be updated from this save. Try again.";

type Step =
  | { kind: "closed" }
  | { kind: "saving" }
  | { kind: "updating"; progress: number }
  | { kind: "done"; changes: SyncChanges }
  | { kind: "refused"; text: string; reload: boolean };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const nameOf = (p: { firstName: string; lastName: string }) =>
  `${p.firstName} ${p.lastName}`.trim() || "A Sim without a name";
const FIELD_NAMES: Readonly<Record<string, string>> = {
  firstName: "first name",
  lastName: "last name",
  traits: "traits",
  lifeStates: "life states",
  age: "age",
};

/** How long the editor's save may take to report how it ended, after the flush resolved. */
const SETTLE_MS = 5000;

/**
 * The editor's "Update from a newer save": a file picker for a .save or .trayitem and a modal
 * dialog. The editor's changes are saved first (its save carries If-Match of the editor's
 * version, so a tree changed elsewhere meets a 409 there, and then nothing is sent); the sync
 * goes only when that save went through. The dialog lists what the sync changed; the editor then
 * opens the updated tree (a reload: the editor's history and saved version are the editor's own).
 */
export function useUpdateFromSave(
  treeId: string,
  onFlush: () => Promise<void>,
  status: SaveStatus = "saved",
): { open: () => void; busy: boolean; input: ReactNode } {
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

  async function update(file: File) {
    if (statusRef.current === "conflict") {
      setStep({ kind: "refused", text: SYNC_CONFLICT, reload: true });
      return;
    }
    setStep({ kind: "saving" });
    try {
      await onFlush();
      const saved = await settledStatus();
      if (saved === "conflict") {
        setStep({ kind: "refused", text: SYNC_CONFLICT, reload: true });
        return;
      }
      if (saved !== "saved") {
        setStep({ kind: "refused", text: SYNC_UNSAVED, reload: false });
        return;
      }
      setStep({ kind: "updating", progress: 0 });
      const { changes } = await syncTree(treeId, file, {
        onProgress: (progress) => setStep({ kind: "updating", progress }),
      });
      setStep({ kind: "done", changes });
    } catch (caught) {
      if (caught instanceof ApiRequestError && caught.status === 403) {
        setStep({ kind: "closed" });
        return;
      }
      if (caught instanceof ApiRequestError && caught.status === 409) {
        setStep({ kind: "refused", text: SYNC_CONFLICT, reload: true });
        return;
      }
      const text = caught instanceof ApiRequestError && caught.detail ? caught.detail : SYNC_ERROR;
      setStep({ kind: "refused", text, reload: false });
    }
  }

  const reload = () => window.location.reload();
  const working = step.kind === "saving" || step.kind === "updating";

  return {
    busy: step.kind !== "closed",
    open: () => inputRef.current?.click(),
    input: (
      <>
        <input
          ref={inputRef}
          type="file"
          accept=".save,.trayitem"
          aria-label="A newer Sims 4 save"
          data-update-from-save=""
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (file) void update(file);
          }}
        />
        <dialog
          ref={dialogRef}
          aria-labelledby={titleId}
          aria-busy={working}
          data-update-from-save-dialog=""
          onCancel={(event) => {
            // Escape closes only a refusal: while working, and once the tree changed, the
            // editor's copy is behind and the way on is the updated tree.
            event.preventDefault();
            if (step.kind === "refused") setStep({ kind: "closed" });
          }}
          className="m-auto max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] overflow-y-auto rounded-lg bg-white p-6 text-neutral-900 shadow-xl backdrop:bg-black/50"
        >
          <h2 id={titleId} className="text-lg font-semibold text-plum-900">
            {step.kind === "done"
              ? "Updated from the save"
              : step.kind === "refused"
                ? "Not updated"
                : "Updating from the save"}
          </h2>
          <div className="mt-2 text-sm text-neutral-700">
            {step.kind === "saving" && <p role="status">Saving your changes first…</p>}
            {step.kind === "updating" && (
              <p role="status">
                {step.progress < 1
                  ? `Sending the save… ${Math.round(step.progress * 100)}%`
                  : "Reading the save and updating the tree…"}
              </p>
            )}
            {step.kind === "refused" && <p role="alert">{step.text}</p>}
            {step.kind === "done" && <SyncReport changes={step.changes} />}
          </div>
          {(step.kind === "done" || step.kind === "refused") && (
            <div className="mt-6 flex justify-end gap-3">
              {step.kind === "refused" && (
                <Button
                  variant={step.reload ? "secondary" : "primary"}
                  onClick={() => setStep({ kind: "closed" })}
                  autoFocus
                >
                  Close
                </Button>
              )}
              {(step.kind === "done" || step.reload) && (
                <Button onClick={reload} autoFocus={step.kind === "done"}>
                  {step.kind === "done" ? "Show the updated tree" : "Reload"}
                </Button>
              )}
            </div>
          )}
        </dialog>
      </>
    ),
  };
}

/** What the sync changed: the Sims added, those updated (and what of them), the notes. */
function SyncReport({ changes }: { changes: SyncChanges }) {
  const { added, updated, unchanged, notes } = changes;
  if (added.length + updated.length === 0) {
    return (
      <p data-sync-summary="">
        The tree is up to date with this save: nothing changed ({plural(unchanged, "Sim", "Sims")}{" "}
        as before).
      </p>
    );
  }
  return (
    <div className="space-y-3">
      <p data-sync-summary="">
        {plural(added.length, "Sim", "Sims")} added, {plural(updated.length, "Sim", "Sims")}{" "}
        updated, {unchanged} unchanged.
      </p>
      {added.length > 0 && (
        <section>
          <h3 className="font-semibold text-neutral-900">Added</h3>
          <ul className="list-disc pl-5" data-sync-added="">
            {added.map((person) => (
              <li key={person._id}>{nameOf(person)}</li>
            ))}
          </ul>
        </section>
      )}
      {updated.length > 0 && (
        <section>
          <h3 className="font-semibold text-neutral-900">Updated</h3>
          <ul className="list-disc pl-5" data-sync-updated="">
            {updated.map((person) => (
              <li key={person._id}>
                {nameOf(person)}: {person.fields.map((f) => FIELD_NAMES[f] ?? f).join(", ")}
              </li>
            ))}
          </ul>
        </section>
      )}
      {notes.length > 0 && (
        <section>
          <h3 className="font-semibold text-neutral-900">Notes</h3>
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
