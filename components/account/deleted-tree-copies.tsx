"use client";
import { useId, useState } from "react";
import { ApiRequestError, api } from "@/lib/client/api";
import { notify } from "@/lib/client/toast";
import { formatLongDate } from "@/lib/format-date";
import type { AccountPublication } from "@/lib/schemas/account-publications";
import { Button, LinkButton, TextLink } from "@/components/ui/button";
import { Panel } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { forgetPublication, refreshPublications, usePublications } from "./publications";

/** SPEC.md's unpublish texts. */
const UNPUBLISHED = "Tree is no longer published";
const ALREADY_UNPUBLISHED = "Tree is already not published";
const UNPUBLISH_ERROR = "Unknown error occurred unpublishing your tree";

const untitled = (title: string) => title.trim() || "Untitled Tree";

function galleryState(copy: AccountPublication): string {
  if (copy.inGallery) return "In the Gallery";
  if (copy.hiddenFromGallery) return "Hidden from the Gallery by the site";
  return "Not in the Gallery";
}

function CopyItem({ copy, onUnpublish }: { copy: AccountPublication; onUnpublish: () => void }) {
  const titleId = useId();
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-plum-100 py-3 first:border-t-0 first:pt-0">
      <div className="min-w-0 flex-1 basis-56">
        <p id={titleId} className="font-medium break-words text-plum-900">
          {untitled(copy.title)}
        </p>
        <p className="text-sm text-neutral-600">
          Published {formatLongDate(copy.lastPublishDate)} ·{" "}
          {copy.viewCount === 1 ? "1 view" : `${copy.viewCount.toLocaleString()} views`} ·{" "}
          <span
            data-gallery-state
            className={copy.inGallery ? "text-plum-800 font-semibold" : undefined}
          >
            {galleryState(copy)}
          </span>
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <LinkButton
          variant="secondary"
          size="sm"
          href={`/public/${encodeURIComponent(copy._id)}`}
          aria-describedby={titleId}
        >
          Open
        </LinkButton>
        <Button variant="danger" size="sm" onClick={onUnpublish} aria-describedby={titleId}>
          Unpublish
        </Button>
      </div>
    </li>
  );
}

/**
 * "Public copies of deleted trees" (issue 25): SPEC.md keeps a deleted tree's public copy, and its
 * tree's publish page went with the tree; here its owner can open it, see whether it is in the
 * Gallery, and unpublish it (DELETE /api/published/{id} works from the copy's owner).
 */
export function DeletedTreeCopies() {
  const { list, failed } = usePublications();
  const [asking, setAsking] = useState<AccountPublication | null>(null);
  const [busy, setBusy] = useState(false);
  const copies = list?.filter((copy) => copy.treeDeleted) ?? null;

  async function unpublish(copy: AccountPublication) {
    setBusy(true);
    try {
      await api(`/api/published/${encodeURIComponent(copy._id)}`, {
        method: "DELETE",
        fallback: UNPUBLISH_ERROR,
        expect: [404],
      });
      notify.success(UNPUBLISHED);
    } catch (error) {
      if (!(error instanceof ApiRequestError && error.status === 404)) {
        setBusy(false);
        setAsking(null);
        return;
      }
      notify.success(ALREADY_UNPUBLISHED);
    }
    forgetPublication(copy._id);
    setBusy(false);
    setAsking(null);
    void refreshPublications();
  }

  return (
    <Panel
      title="Public copies of deleted trees"
      description={
        <>
          When you delete a published tree without unpublishing it, its public copy stays readable
          by anyone with the link, and stays in the <TextLink href="/gallery">Gallery</TextLink> if
          it was listed there. Unpublish a copy to take it down.
        </>
      }
    >
      {copies === null ? (
        <p className="text-sm text-neutral-700">
          {failed
            ? "Your public copies could not be loaded. Refresh the page to try again."
            : "Loading your public copies…"}
        </p>
      ) : copies.length === 0 ? (
        <p className="text-sm text-neutral-700">None of your deleted trees has a public copy.</p>
      ) : (
        <ul aria-label="Public copies of deleted trees">
          {copies.map((copy) => (
            <CopyItem key={copy._id} copy={copy} onUnpublish={() => setAsking(copy)} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={`Unpublish “${untitled(asking?.title ?? "")}”?`}
        confirmLabel="Unpublish"
        tone="danger"
        busy={busy}
        onCancel={() => setAsking(null)}
        onConfirm={() => asking && void unpublish(asking)}
      >
        Its public link stops working
        {asking?.inGallery ? " and it leaves the Gallery" : ""}. Its tree was deleted, so it cannot
        be published again.
      </ConfirmDialog>
    </Panel>
  );
}
