"use client";
import { useTranslations } from "next-intl";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { api } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { notify } from "@/lib/client/toast";
import { restoreEmailBody } from "@/lib/schemas/account";
import { TextLink } from "@/components/ui/button";
import {
  checkForm,
  fieldOfSchema,
  Form,
  FormActions,
  SubmitButton,
  validOrThrow,
} from "@/components/ui/form";

/**
 * Reads the restore token (t) and username (u) from the link mailed to the old address after an
 * email change. A button, not the page load, restores: mail scanners open links on their own.
 */
export function RestoreEmailForm() {
  const searchParams = useSearchParams();
  const token = searchParams.get("t") ?? "";
  const username = searchParams.get("u") ?? "";
  const session = useSession();
  const [done, setDone] = useState<string | null>(null);
  const t = useTranslations("RestoreEmailForm");
  const tm = useTranslations("AccountMessages");

  if (!token || !username) {
    return (
      <p className="text-neutral-700">{t("incomplete")}</p>
    );
  }

  if (done) {
    return (
      <div className="space-y-3 text-neutral-800" role="status">
        <p>{t("done", { message: done })}</p>
        <p>
          {t.rich("next", {
            login: (chunks) => <TextLink href="/login">{chunks}</TextLink>,
            reset: (chunks) => <TextLink href="/forgot-password">{chunks}</TextLink>,
          })}
        </p>
      </div>
    );
  }

  async function onSubmit() {
    const body = validOrThrow(checkForm(restoreEmailBody, { username, token }));
    const { message } = await api<{ message: string }>("/api/account/restoreemail", {
      method: "POST",
      auth: false,
      body,
      fallback: tm("unknownError"),
      inline: true,
      fieldOf: fieldOfSchema(restoreEmailBody, body),
    });
    // Every session of the account has ended, this browser's too if it was signed in to it.
    if (session.username === username) session.logout();
    notify.success(message);
    setDone(message);
  }

  return (
    <Form onSubmit={onSubmit}>
      <p className="text-sm text-neutral-700">
        {t.rich("explain", {
          username,
          strong: (chunks) => <strong className="text-plum-900">{chunks}</strong>,
        })}
      </p>
      <FormActions>
        <SubmitButton className="w-full">{t("submit")}</SubmitButton>
      </FormActions>
    </Form>
  );
}
