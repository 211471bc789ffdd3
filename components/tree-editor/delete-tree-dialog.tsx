"use client";
import { useState } from "react";
import {
  forgetPublication,
  markTreeDeleted,
  usePublications,
} from "@/components/account/publications";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { api, ApiRequestError } from "@/lib/client/api";

const TREE_DELETE_ERROR = "Failed to delete your tree";
/** SPEC.md's unpublish error. */
const UNPUBLISH_ERROR = "Unknown error occurred unpublishing your tree";

export interface DeleteTreeDialogProps {
  open: boolean;
  treeId: string;
  onCancel: () => void;
  /** The tree is deleted (and its copy unpublished, when asked). */
  onDeleted: () => void;
}

/**
 * "Are you sure you want to delete this tree?" When the tree is published it says that the public
 * copy stays (SPEC.md: deleting leaves the published copy unless it was unpublished first) and
 * offers to unpublish it first, ticked: a player deleting a tree expects it gone, and a copy kept
 * by mistake stays public (and in the Gallery) until found under Account Settings. Unticked, the
 * copy stays, as the original client's delete always left it. While the publications are not
 * known yet the offer is made anyway: unpublishing a tree that is not published is harmless (404).
 */
export function DeleteTreeDialog({ open, treeId, onCancel, onDeleted }: DeleteTreeDialogProps) {
  const { list } = usePublications();
  const publication = list?.find((item) => item._id === treeId) ?? null;
  const mayBePublished = list === null || publication !== null;
  const [unpublishFirst, setUnpublishFirst] = useState(true);
  const [busy, setBusy] = useState(false);
  const id = encodeURIComponent(treeId);

  async function confirm() {
    setBusy(true);
    const unpublish = mayBePublished && unpublishFirst;
    try {
      if (unpublish) {
        await api(`/api/published/${id}`, {
          method: "DELETE",
          fallback: UNPUBLISH_ERROR,
          expect: [404],
        }).catch((error: unknown) => {
          // 404: not published, which is what was asked (SPEC.md).
          if (!(error instanceof ApiRequestError && error.status === 404)) throw error;
        });
        forgetPublication(treeId);
      }
      await api(`/api/trees/${id}`, { method: "DELETE", fallback: TREE_DELETE_ERROR });
    } catch {
      // The call has told the user; the tree is still there.
      setBusy(false);
      onCancel();
      return;
    }
    if (!unpublish) markTreeDeleted(treeId);
    setBusy(false);
    onDeleted();
  }

  return (
    <ConfirmDialog
      open={open}
      title="Are you sure you want to delete this tree?"
      confirmLabel="Delete Tree"
      tone="danger"
      busy={busy}
      onCancel={onCancel}
      onConfirm={() => void confirm()}
    >
      {mayBePublished ? (
        <>
          <p>
            {publication
              ? `This tree is published${publication.inGallery ? " and shown in the Gallery" : ""}. Its public copy stays${publication.inGallery ? ", in the Gallery too," : ""} after the tree is deleted, unless you unpublish it first.`
              : "If this tree is published, its public copy stays after the tree is deleted, unless you unpublish it first."}
          </p>
          <label className="mt-3 flex items-start gap-2 text-sm font-medium text-neutral-900">
            <input
              type="checkbox"
              checked={unpublishFirst}
              disabled={busy}
              onChange={(event) => setUnpublishFirst(event.target.checked)}
              className="mt-0.5 size-4 shrink-0 accent-plum-600"
            />
            <span>
              Unpublish it first
              {publication?.inGallery ? " and take it out of the Gallery" : ""}
            </span>
          </label>
          <p className="mt-1 pl-6 text-sm text-neutral-600">
            {unpublishFirst
              ? "Its public link stops working."
              : "You can unpublish it later under Account Settings, Public copies of deleted trees."}
          </p>
          <p className="mt-3">Deleted trees can only be recovered by contacting us.</p>
        </>
      ) : (
        <p>This tree is not published. Deleted trees can only be recovered by contacting us.</p>
      )}
    </ConfirmDialog>
  );
}
