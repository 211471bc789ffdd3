"use client";
import { useLocale, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { ApiRequestError, api } from "@/lib/client/api";
import { notify } from "@/lib/client/toast";
import { formatLongDate } from "@/lib/format-date";
import type { AccountPublication } from "@/lib/schemas/account-publications";
import { Button, LinkButton, TextLink } from "@/components/ui/button";
import { Panel } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { forgetPublication, refreshPublications, usePublications } from "./publications";

function CopyItem({ copy, onUnpublish }: { copy: AccountPublication; onUnpublish: () => void }) {
  const titleId = useId();
  const t = useTranslations("DeletedTreeCopies");
  const locale = useLocale();
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-plum-100 py-3 first:border-t-0 first:pt-0">
      <div className="min-w-0 flex-1 basis-56">
        <p id={titleId} className="font-medium break-words text-plum-900">
          {copy.title.trim() || t("untitledTree")}
        </p>
        <p className="text-sm text-neutral-600">
          {t("published", { date: formatLongDate(copy.lastPublishDate, undefined, locale) })} ·{" "}
          {t("views", { count: copy.viewCount })} ·{" "}
          <span
            data-gallery-state
            className={copy.inGallery ? "text-plum-800 font-semibold" : undefined}
          >
            {copy.inGallery
              ? t("inGallery")
              : copy.hiddenFromGallery
                ? t("hiddenBySite")
                : t("notInGallery")}
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
          {t("open")}
        </LinkButton>
        <Button variant="danger" size="sm" onClick={onUnpublish} aria-describedby={titleId}>
          {t("unpublish")}
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
  const t = useTranslations("DeletedTreeCopies");

  async function unpublish(copy: AccountPublication) {
    setBusy(true);
    try {
      await api(`/api/published/${encodeURIComponent(copy._id)}`, {
        method: "DELETE",
        fallback: t("unpublishFailed"),
        expect: [404],
      });
      notify.success(t("unpublished"));
    } catch (error) {
      if (!(error instanceof ApiRequestError && error.status === 404)) {
        setBusy(false);
        setAsking(null);
        return;
      }
      notify.success(t("alreadyUnpublished"));
    }
    forgetPublication(copy._id);
    setBusy(false);
    setAsking(null);
    void refreshPublications();
  }

  return (
    <Panel
      title={t("title")}
      description={t.rich("explain", {
        gallery: (chunks) => <TextLink href="/gallery">{chunks}</TextLink>,
      })}
    >
      {copies === null ? (
        <p className="text-sm text-neutral-700">{failed ? t("loadFailed") : t("loading")}</p>
      ) : copies.length === 0 ? (
        <p className="text-sm text-neutral-700">{t("none")}</p>
      ) : (
        <ul aria-label={t("title")}>
          {copies.map((copy) => (
            <CopyItem key={copy._id} copy={copy} onUnpublish={() => setAsking(copy)} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={t("confirmTitle", { title: asking?.title.trim() || t("untitledTree") })}
        confirmLabel={t("unpublish")}
        cancelLabel={t("cancel")}
        tone="danger"
        busy={busy}
        onCancel={() => setAsking(null)}
        onConfirm={() => asking && void unpublish(asking)}
      >
        {asking?.inGallery ? t("confirmTextListed") : t("confirmText")}
      </ConfirmDialog>
    </Panel>
  );
}
