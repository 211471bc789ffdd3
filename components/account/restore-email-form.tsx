"use client";
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
import { ACCOUNT_MESSAGES } from "./messages";

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

  if (!token || !username) {
    return (
      <p className="text-neutral-700">
        This link is incomplete. Open the link from your e-mail again.
      </p>
    );
  }

  if (done) {
    return (
      <div className="space-y-3 text-neutral-800" role="status">
        <p>{done}.</p>
        <p>
          <TextLink href="/login">Log in</TextLink> again. If you no longer know your password,{" "}
          <TextLink href="/forgot-password">reset it</TextLink>: the link will come to this
          address.
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
      fallback: ACCOUNT_MESSAGES.unknownError,
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
        The email address of <strong className="text-plum-900">{username}</strong> was changed. If
        that wasn&apos;t you, put this address back: the account is then signed out everywhere,
        including wherever the change was made.
      </p>
      <FormActions>
        <SubmitButton className="w-full">Restore my email and sign out everywhere</SubmitButton>
      </FormActions>
    </Form>
  );
}
