"use client";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/toast";
import { forgotPasswordBody } from "@/lib/schemas/account";
import { fieldOfSchema, Form, FormActions, formText, SubmitButton } from "@/components/ui/form";
import { TextField } from "@/components/ui/text-field";
import { ACCOUNT_MESSAGES } from "./messages";

export function ForgotPasswordForm() {
  async function onSubmit(values: FormData, form: HTMLFormElement) {
    const body = { username: formText(values, "username") };
    const { message } = await api<{ message: string }>("/api/account/forgotpassword", {
      method: "POST",
      auth: false,
      body,
      fallback: ACCOUNT_MESSAGES.unknownError,
      inline: true,
      fieldOf: fieldOfSchema(forgotPasswordBody, body),
    });
    notify.success(message);
    form.reset();
  }

  return (
    <Form onSubmit={onSubmit}>
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        hint="Usernames are case sensitive."
      />
      <FormActions>
        <SubmitButton className="w-full">Send Reset Link</SubmitButton>
      </FormActions>
    </Form>
  );
}
