"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ApiRequestError } from "@/lib/client/api";

/** A 409 to a write: what the server said, and the ETag of the version that is there now. */
export interface WriteConflict {
  detail: string;
  etag: string | null;
}

export const isConflict = (error: unknown): error is ApiRequestError =>
  error instanceof ApiRequestError && error.status === 409;

/**
 * Says that someone else saved first, while the form keeps the player's text on screen, and offers
 * to reload (see their changes, lose these) or to save over them (overwrite exactly the version
 * the 409 reported; if yet another save came in meanwhile, this notice comes back).
 */
export function WriteConflictNotice({
  conflict,
  onSaveOver,
}: {
  conflict: WriteConflict;
  onSaveOver: (etag: string | null) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const t = useTranslations("WriteConflict");
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 p-4"
    >
      <p className="min-w-0 flex-1 basis-64 text-sm text-neutral-800">{conflict.detail}</p>
      <div className="flex gap-2">
        <Button variant="secondary" onClick={() => window.location.reload()}>
          {t("reload")}
        </Button>
        <Button
          busy={busy}
          onClick={() => {
            setBusy(true);
            void onSaveOver(conflict.etag).finally(() => setBusy(false));
          }}
        >
          {t("saveOver")}
        </Button>
      </div>
    </div>
  );
}
