"use client";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/toast";
import { forgotUsernameBody } from "@/lib/schemas/account";
import {
  checkForm,
  fieldOfSchema,
  Form,
  FormActions,
  formText,
  SubmitButton,
  validOrThrow,
} from "@/components/ui/form";
import { TextField } from "@/components/ui/text-field";
import { ACCOUNT_MESSAGES } from "./messages";

export function ForgotUsernameForm() {
  async function onSubmit(values: FormData, form: HTMLFormElement) {
    const body = validOrThrow(checkForm(forgotUsernameBody, { email: formText(values, "email") }));
    const { message } = await api<{ message: string }>("/api/account/forgotusername", {
      method: "POST",
      auth: false,
      body,
      fallback: ACCOUNT_MESSAGES.unknownError,
      inline: true,
      fieldOf: fieldOfSchema(forgotUsernameBody, body),
    });
    notify.success(message);
    form.reset();
  }

  return (
    <Form onSubmit={onSubmit}>
      <TextField label="Email" name="email" type="email" autoComplete="email" />
      <FormActions>
        <SubmitButton className="w-full">Email My Username</SubmitButton>
      </FormActions>
    </Form>
  );
}
