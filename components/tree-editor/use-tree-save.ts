"use client";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { api, ApiRequestError, isNetworkFailure, NETWORK_FAILURES } from "@/lib/client/api";
import type { KeptTreeWriter } from "@/lib/client/kept-edits";
import { notify } from "@/lib/client/toast";
import type { TreeNode } from "@/lib/schemas/tree";
import { JSON_PATCH_TYPE } from "@/lib/tree/patch-limits";
import { canvasTreeUrl, fromCanvasTree, type CanvasTree } from "./canvas-tree";
import { AUTOSAVE_DELAY, TreeSaver, type SaveStatus } from "./tree-saver";

export const EDITOR_ERROR = "Unknown error occurred";
export const CONFLICT_MESSAGE =
  "This tree was changed in another tab or window, so your latest changes were not saved.";
/** Said when Save Tree is pressed while the changes can only be kept on the device. */
export const KEPT_MESSAGE =
  "You're offline: your changes are kept on this device and will be saved when the connection returns.";

/** How a server refuses a patch it cannot take (or a server without patches answers one). */
const REFUSED_PATCH = [400, 413, 415, 422, 428];

export interface TreeSave {
  status: SaveStatus;
  /** Set once a save met a newer version (409): what to tell the user. */
  conflict: string | null;
  /** The toolbar's Save Tree: saves at once and says "Tree saved". */
  save: () => Promise<void>;
  /** Stops all saving (after the tree was deleted). */
  stop: () => void;
  /**
   * Reloads the page to get the newer tree, without the unsaved-changes warning; what this
   * device kept of the structure is dropped (the player chose the other version).
   */
  reload: () => void;
}

/**
 * Saves the editor's tree: a debounced autosave of every change and an immediate manual save.
 * A save sends a JSON Patch of what changed since the last save (or {data} when that is smaller
 * or the patch is refused), with If-Match of the last version the server gave; a 409 stops saving
 * and offers a reload, so another tab's work is never overwritten. Leaving with unsaved changes
 * warns.
 */
export function useTreeSave({
  treeId,
  data,
  version,
  saved = data,
  writer,
}: {
  treeId: string;
  /** The structure shown: the server's, or what this device kept (then `saved` is the server's). */
  data: TreeNode;
  /** The version `data` was edited from (the If-Match of its save). */
  version: number;
  /** The server's structure as loaded. */
  saved?: TreeNode;
  /** Where changes the network refused are kept on the device. */
  writer?: KeptTreeWriter;
}): TreeSave {
  const router = useRouter();
  const [status, setStatus] = useState<SaveStatus>("saved");
  const [conflict, setConflict] = useState<string | null>(null);
  const leaving = useRef(false);
  const [saver] = useState(
    () =>
      new TreeSaver({
        data: saved,
        kept: data === saved ? undefined : data,
        version,
        delay: AUTOSAVE_DELAY,
        send: (tree, ifVersion) =>
          api<{ _id: string; version: number }>(`/api/trees/${encodeURIComponent(treeId)}`, {
            method: "PATCH",
            body: { data: tree },
            headers: { "If-Match": `"${ifVersion}"` },
            fallback: EDITOR_ERROR,
            // a network failure is kept and retried, without a toast
            expect: [409, ...NETWORK_FAILURES],
          }),
        sendPatch: (operations, ifVersion) =>
          api<{ _id: string; version: number }>(`/api/trees/${encodeURIComponent(treeId)}`, {
            method: "PATCH",
            body: operations,
            headers: { "If-Match": `"${ifVersion}"`, "content-type": JSON_PATCH_TYPE },
            fallback: EDITOR_ERROR,
            // a refused patch is sent again whole, without a toast
            expect: [409, ...REFUSED_PATCH, ...NETWORK_FAILURES],
          }),
        isRefusedPatch: (error) =>
          error instanceof ApiRequestError && REFUSED_PATCH.includes(error.status),
        isConflict: (error) => error instanceof ApiRequestError && error.status === 409,
        onStatus: setStatus,
        onManualSave: () => notify.success("Tree saved"),
        onConflict: (error) =>
          setConflict(
            error instanceof ApiRequestError && error.detail ? error.detail : CONFLICT_MESSAGE,
          ),
        onError: (error) => {
          // A 403 has already logged the user out; without a token there is nothing to retry.
          if (error instanceof ApiRequestError && error.status === 401) router.push("/login");
        },
        isNetworkFailure,
        keep: (tree, fromVersion) => void writer?.keepStructure(tree, fromVersion),
        release: () => void writer?.release("structure"),
        onKept: () => notify.warning(KEPT_MESSAGE, "kept"),
        readServer: async () => {
          const answer = await api<CanvasTree>(canvasTreeUrl(encodeURIComponent(treeId)), {
            silent: true,
          });
          const { tree } = fromCanvasTree(answer);
          return { data: tree.data, version: tree.version };
        },
      }),
  );

  useEffect(() => {
    saver.update(data);
  }, [saver, data]);

  // Leaving the editor inside the app (a menu link) sends what is not saved yet; what the
  // network refuses then stays kept on the device for the next opening.
  useEffect(() => {
    saver.resume();
    return () => {
      saver.flush();
      saver.suspend();
    };
  }, [saver]);

  // Back online: kept changes go at once.
  useEffect(() => {
    const onOnline = () => saver.online();
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, [saver]);

  useEffect(() => {
    if (status === "saved") return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      // Older browsers need returnValue set to show the prompt.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [status]);

  return {
    status,
    conflict,
    save: () => saver.save(true),
    stop: () => saver.stop(),
    reload: () => {
      leaving.current = true;
      const discarded = writer?.discard("structure") ?? Promise.resolve();
      void discarded.finally(() => window.location.reload());
    },
  };
}
