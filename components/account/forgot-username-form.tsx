"use client";
import { useState } from "react";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/toast";
import { forgotUsernameBody } from "@/lib/schemas/account";
import { checkForm, Form, FormActions, formText, SubmitButton } from "@/components/ui/form";
import { TextField } from "@/components/ui/text-field";
import { ACCOUNT_MESSAGES } from "./messages";

export function ForgotUsernameForm() {
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(values: FormData, form: HTMLFormElement) {
    const checked = checkForm(forgotUsernameBody, { email: formText(values, "email") });
    if (!checked.ok) {
      setError(checked.message);
      notify.warning(checked.message);
      return;
    }
    setError(null);
    const { message } = await api<{ message: string }>("/api/account/forgotusername", {
      method: "POST",
      auth: false,
      body: checked.data,
      fallback: ACCOUNT_MESSAGES.unknownError,
    });
    notify.success(message);
    form.reset();
  }

  return (
    <Form onSubmit={onSubmit}>
      <TextField label="Email" name="email" type="email" autoComplete="email" error={error} />
      <FormActions>
        <SubmitButton className="w-full">Email My Username</SubmitButton>
      </FormActions>
    </Form>
  );
}
