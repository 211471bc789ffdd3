"use client";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/toast";
import { resetPasswordBody } from "@/lib/schemas/account";
import { TextLink } from "@/components/ui/button";
import {
  checkForm,
  Form,
  FormActions,
  formText,
  SubmitButton,
  type FieldErrors,
} from "@/components/ui/form";
import { TextField } from "@/components/ui/text-field";
import { ACCOUNT_MESSAGES } from "./messages";

/** Reads the reset token (t) and username (u) from the e-mailed link. */
export function ResetPasswordForm() {
  const searchParams = useSearchParams();
  const token = searchParams.get("t") ?? "";
  const username = searchParams.get("u") ?? "";
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});

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
      setErrors({ confirmPassword: ACCOUNT_MESSAGES.resetMismatch });
      notify.warning(ACCOUNT_MESSAGES.resetMismatch);
      return;
    }
    const checked = checkForm(resetPasswordBody, { username, password, token });
    if (!checked.ok) {
      setErrors(checked.errors);
      notify.warning(checked.message);
      return;
    }
    setErrors({});
    await api("/api/account/resetpassword", {
      method: "POST",
      auth: false,
      body: checked.data,
      fallback: ACCOUNT_MESSAGES.unknownError,
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
        error={errors.password}
      />
      <TextField
        label="Confirm new password"
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword}
      />
      <FormActions>
        <SubmitButton className="w-full">Save Password</SubmitButton>
      </FormActions>
    </Form>
  );
}
