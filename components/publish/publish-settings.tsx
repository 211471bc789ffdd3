"use client";
import { useEffect, useId, useState } from "react";
import { LinkButton, TextLink } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { Form, FormActions, SubmitButton } from "@/components/ui/form";
import { Loading } from "@/components/ui/loading";
import { api, ApiRequestError } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { notify } from "@/lib/client/toast";
import { formatLongDate } from "@/lib/format-date";
import type { Tree } from "@/lib/schemas/tree";
import { CopyLink } from "./copy-link";

interface PublishStatus {
  lastPublishDate: string;
  viewCount?: number;
  /** Listed in the Gallery (issue 25). */
  publishToGallery?: boolean;
}

type Load =
  | { status: "loading" }
  | { status: "failed" }
  | { status: "ready"; title: string; published: PublishStatus | null };

/** A 404 from GET /api/published/{treeId} means "not published", not a failure. */
async function loadPublishStatus(treeId: string): Promise<PublishStatus | null> {
  try {
    return await api<PublishStatus>(`/api/published/${encodeURIComponent(treeId)}`, {
      fallback: "Failed to get tree info",
      expect: [404],
    });
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return null;
    throw error;
  }
}

/** What Save Settings will do, from the tree's real state and the checkbox (#15). */
export function saveHint(published: boolean, isPublic: boolean): string {
  if (published && isPublic) {
    return "Saving publishes a fresh snapshot of your tree as it is now, in place of the current public copy.";
  }
  if (published) return "Saving removes the public copy, and its link stops working.";
  if (isPublic) return "Saving publishes a snapshot of your tree as it is now.";
  return "This tree has no public copy. Tick Is Public and save to publish it.";
}

/** The publish page (SPEC.md section 2): publishes a snapshot of the tree, or unpublishes it. */
export function PublishSettings({ treeId }: { treeId: string }) {
  const { ready } = useSession();
  const checkboxId = useId();
  const galleryId = useId();
  const galleryHintId = useId();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [isPublic, setIsPublic] = useState(false);
  const [inGallery, setInGallery] = useState(false);

  useEffect(() => {
    if (!ready) return;
    let current = true;
    Promise.all([
      api<Tree>(`/api/trees/${encodeURIComponent(treeId)}`, {
        fallback: "Failed to get tree info",
      }),
      loadPublishStatus(treeId),
    ]).then(
      ([tree, published]) => {
        if (!current) return;
        setLoad({ status: "ready", title: tree.title, published });
        setIsPublic(published !== null);
        setInGallery(published?.publishToGallery === true);
      },
      () => current && setLoad({ status: "failed" }),
    );
    return () => {
      current = false;
    };
  }, [treeId, ready]);

  const setPublished = (published: PublishStatus | null) =>
    setLoad((state) => (state.status === "ready" ? { ...state, published } : state));

  async function onSave() {
    const path = `/api/published/${encodeURIComponent(treeId)}`;
    if (isPublic) {
      const status = await api<PublishStatus>(path, {
        method: "PUT",
        body: { publishToGallery: inGallery },
        fallback: "Unknown error occurred publishing your tree",
      });
      setPublished(status);
      notify.success("Tree published");
      return;
    }
    try {
      await api(path, {
        method: "DELETE",
        fallback: "Unknown error occurred unpublishing your tree",
        expect: [404],
      });
      notify.success("Tree is no longer published");
    } catch (error) {
      if (!(error instanceof ApiRequestError && error.status === 404)) throw error;
      notify.success("Tree is already not published");
    }
    setPublished(null);
  }

  const header = (
    <PageHeader
      title="Publish Your Tree"
      description="Publishing makes a read-only copy of your tree that anyone with its link can view, without an account. The copy is a snapshot: changes you make later show up only after you publish again."
    />
  );

  if (!ready || load.status === "loading") {
    return (
      <>
        {header}
        <Loading label="Loading publish settings" />
      </>
    );
  }
  if (load.status === "failed") {
    return (
      <>
        {header}
        <p className="text-neutral-700">
          The publish settings could not be loaded.{" "}
          <TextLink href={`/trees/${treeId}`}>Back to your tree</TextLink>
        </p>
      </>
    );
  }

  // Rendered only in the browser (after the load), so window is there.
  const publicUrl = `${window.location.origin}/public/${encodeURIComponent(treeId)}`;
  const { published } = load;
  const views = published?.viewCount;
  return (
    <>
      {header}
      <Card className="max-w-3xl space-y-6">
        <section aria-label="Publication status" className="space-y-1 text-neutral-800">
          <p>
            <span className="font-semibold">{load.title || "Untitled Tree"}</span>{" "}
            {published ? "is public." : "is not published."}
          </p>
          {published ? <p>Last published on {formatLongDate(published.lastPublishDate)}.</p> : null}
          {published ? (
            <p>
              {published.publishToGallery
                ? "It is shown in the Gallery."
                : "It is not shown in the Gallery."}
            </p>
          ) : null}
          {published && views !== undefined ? (
            <p>
              The public page has been viewed {views.toLocaleString("en-US")}{" "}
              {views === 1 ? "time" : "times"}.
            </p>
          ) : null}
        </section>
        <div className="space-y-2">
          <CopyLink
            label="Public URL"
            url={publicUrl}
            openLabel={published ? "Open public page" : undefined}
          />
          <p className="text-sm text-neutral-600">
            {published
              ? "Share this link with anyone. It works while the tree is public; if you unpublish, visitors see a page that does not exist. Deleting the tree keeps its public copy unless you unpublish it first."
              : "This will be the tree's public link. It works once you publish the tree; until then, visitors see a page that does not exist."}
          </p>
        </div>
        <Form onSubmit={onSave} aria-label="Publish settings">
          <div className="flex items-center gap-3">
            <input
              id={checkboxId}
              type="checkbox"
              checked={isPublic}
              onChange={(event) => {
                setIsPublic(event.target.checked);
                if (!event.target.checked) setInGallery(false);
              }}
              className="size-5 accent-plum-600"
            />
            <label htmlFor={checkboxId} className="font-medium text-neutral-800">
              Is Public
            </label>
          </div>
          <div className="flex items-center gap-3">
            <input
              id={galleryId}
              type="checkbox"
              checked={inGallery}
              disabled={!isPublic}
              aria-describedby={galleryHintId}
              onChange={(event) => setInGallery(event.target.checked)}
              className="size-5 accent-plum-600 disabled:opacity-50"
            />
            <label
              htmlFor={galleryId}
              className={isPublic ? "font-medium text-neutral-800" : "font-medium text-neutral-500"}
            >
              Show in the Gallery
            </label>
          </div>
          <p id={galleryHintId} className="text-sm text-neutral-600">
            The <TextLink href="/gallery">Gallery</TextLink> is where readers browse and search
            published legacies, by title, description and the names of their Sims. Only public trees
            can be shown there; untick it to keep the tree reachable by its link alone.
          </p>
          <p className="text-sm text-neutral-600">{saveHint(published !== null, isPublic)}</p>
          <FormActions>
            <SubmitButton>Save Settings</SubmitButton>
            <LinkButton variant="secondary" href={`/trees/${treeId}`}>
              Cancel
            </LinkButton>
          </FormActions>
        </Form>
      </Card>
    </>
  );
}
