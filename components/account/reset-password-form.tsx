"use client";
import { useRouter, useSearchParams } from "next/navigation";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/toast";
import { resetPasswordBody } from "@/lib/schemas/account";
import { TextLink } from "@/components/ui/button";
import {
  checkForm,
  fieldOfSchema,
  Form,
  FormActions,
  FormProblem,
  formText,
  SubmitButton,
  validOrThrow,
} from "@/components/ui/form";
import { TextField } from "@/components/ui/text-field";
import { ACCOUNT_MESSAGES } from "./messages";

/** Reads the reset token (t) and username (u) from the e-mailed link. */
export function ResetPasswordForm() {
  const searchParams = useSearchParams();
  const token = searchParams.get("t") ?? "";
  const username = searchParams.get("u") ?? "";
  const router = useRouter();

  if (!token || !username) {
    return (
      <p className="text-neutral-700">
        This reset link is incomplete. Open the link from your e-mail again, or{" "}
        <TextLink href="/forgot-password">ask for a new one</TextLink>.
      </p>
    );
  }

  async function onSubmit(values: FormData) {
    const password = formText(values, "password");
    if (password !== formText(values, "confirmPassword")) {
      throw new FormProblem(ACCOUNT_MESSAGES.resetMismatch, {
        confirmPassword: ACCOUNT_MESSAGES.resetMismatch,
      });
    }
    const body = validOrThrow(checkForm(resetPasswordBody, { username, password, token }));
    await api("/api/account/resetpassword", {
      method: "POST",
      auth: false,
      body,
      fallback: ACCOUNT_MESSAGES.unknownError,
      inline: true,
      fieldOf: fieldOfSchema(resetPasswordBody, body),
    });
    notify.success(ACCOUNT_MESSAGES.passwordSaved);
    router.push("/login");
  }

  return (
    <Form onSubmit={onSubmit}>
      <p className="text-sm text-neutral-700">
        Choosing a new password for <strong className="text-plum-900">{username}</strong>.
      </p>
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters."
      />
      <TextField
        label="Confirm new password"
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
      />
      <FormActions>
        <SubmitButton className="w-full">Save Password</SubmitButton>
      </FormActions>
    </Form>
  );
}
