"use client";
import { useRef, useState, type ReactNode } from "react";
import { ApiRequestError } from "@/lib/client/api";
import { notify } from "@/lib/client/toast";
import { syncTree } from "./sims4-client";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The editor's "Update from a newer save": a file picker for a .save or .trayitem, whose household
 * updates the tree (new Sims added in place, known ones updated); the editor then reloads the tree.
 */
export function useUpdateFromSave(
  treeId: string,
  onFlush: () => Promise<void>,
): { open: () => void; busy: boolean; input: ReactNode } {
  const ref = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  async function update(file: File) {
    setBusy(true);
    try {
      await onFlush();
      const { changes } = await syncTree(treeId, file);
      const text =
        changes.added.length + changes.updated.length === 0
          ? "The tree is up to date with this save"
          : `Updated from the save: ${plural(changes.added.length, "Sim", "Sims")} added, ${plural(changes.updated.length, "Sim", "Sims")} updated`;
      notify.success(text);
      window.location.reload();
    } catch (caught) {
      if (caught instanceof ApiRequestError && caught.status === 403) return;
      notify.error(
        caught instanceof ApiRequestError && caught.detail
          ? caught.detail
          : "The tree could not be updated from this save. Try again.",
      );
    } finally {
      setBusy(false);
    }
  }

  return {
    busy,
    open: () => ref.current?.click(),
    input: (
      <input
        ref={ref}
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
    ),
  };
}
