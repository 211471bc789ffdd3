"use client";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useId, useState, type ReactNode } from "react";
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

const strong = (chunks: ReactNode) => <span className="font-semibold">{chunks}</span>;

/** A 404 from GET /api/published/{treeId} means "not published", not a failure. */
async function loadPublishStatus(treeId: string, failed: string): Promise<PublishStatus | null> {
  try {
    return await api<PublishStatus>(`/api/published/${encodeURIComponent(treeId)}`, {
      fallback: failed,
      expect: [404],
    });
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return null;
    throw error;
  }
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
  const t = useTranslations("PublishSettings");
  const locale = useLocale();

  useEffect(() => {
    if (!ready) return;
    let current = true;
    Promise.all([
      api<Tree>(`/api/trees/${encodeURIComponent(treeId)}`, {
        fallback: t("loadFailedToast"),
      }),
      loadPublishStatus(treeId, t("loadFailedToast")),
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
  }, [treeId, ready, t]);

  const setPublished = (published: PublishStatus | null) =>
    setLoad((state) => (state.status === "ready" ? { ...state, published } : state));

  async function onSave() {
    const path = `/api/published/${encodeURIComponent(treeId)}`;
    if (isPublic) {
      const status = await api<PublishStatus>(path, {
        method: "PUT",
        body: { publishToGallery: inGallery },
        fallback: t("publishFailed"),
      });
      setPublished(status);
      notify.success(t("published"));
      return;
    }
    try {
      await api(path, {
        method: "DELETE",
        fallback: t("unpublishFailed"),
        expect: [404],
      });
      notify.success(t("unpublished"));
    } catch (error) {
      if (!(error instanceof ApiRequestError && error.status === 404)) throw error;
      notify.success(t("alreadyUnpublished"));
    }
    setPublished(null);
  }

  const header = (
    <PageHeader
      title={t("title")}
      description={t("intro")}
    />
  );

  if (!ready || load.status === "loading") {
    return (
      <>
        {header}
        <Loading label={t("loading")} />
      </>
    );
  }
  if (load.status === "failed") {
    return (
      <>
        {header}
        <p className="text-neutral-700">
          {t("loadFailed")} <TextLink href={`/trees/${treeId}`}>{t("backToTree")}</TextLink>
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
        <section aria-label={t("statusLabel")} className="space-y-1 text-neutral-800">
          <p>
            {published
              ? t.rich("isPublic", { title: load.title || t("untitledTree"), strong })
              : t.rich("isNotPublished", { title: load.title || t("untitledTree"), strong })}
          </p>
          {published ? (
            <p>
              {t("lastPublished", {
                date: formatLongDate(published.lastPublishDate, undefined, locale),
              })}
            </p>
          ) : null}
          {published ? (
            <p>{published.publishToGallery ? t("shownInGallery") : t("notShownInGallery")}</p>
          ) : null}
          {published && views !== undefined ? <p>{t("views", { count: views })}</p> : null}
        </section>
        <div className="space-y-2">
          <CopyLink
            label={t("publicUrl")}
            url={publicUrl}
            openLabel={published ? t("openPublicPage") : undefined}
          />
          <p className="text-sm text-neutral-600">
            {published ? t("shareHint") : t("futureLinkHint")}
          </p>
        </div>
        <Form onSubmit={onSave} aria-label={t("formLabel")}>
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
              {t("isPublicLabel")}
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
              {t("showInGallery")}
            </label>
          </div>
          <p id={galleryHintId} className="text-sm text-neutral-600">
            {t.rich("galleryHint", {
              gallery: (chunks) => <TextLink href="/gallery">{chunks}</TextLink>,
            })}
          </p>
          {/* what Save Settings will do, from the tree's real state and the checkbox (#15) */}
          <p className="text-sm text-neutral-600">
            {published !== null && isPublic
              ? t("saveRepublish")
              : published !== null
                ? t("saveUnpublish")
                : isPublic
                  ? t("savePublish")
                  : t("saveNothing")}
          </p>
          <FormActions>
            <SubmitButton>{t("save")}</SubmitButton>
            <LinkButton variant="secondary" href={`/trees/${treeId}`}>
              {t("cancel")}
            </LinkButton>
          </FormActions>
        </Form>
      </Card>
    </>
  );
}
