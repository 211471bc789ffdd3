"use client";
import { useTranslations } from "next-intl";
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

export function ForgotUsernameForm() {
  const t = useTranslations("ForgotUsernameForm");
  const tm = useTranslations("AccountMessages");
  async function onSubmit(values: FormData, form: HTMLFormElement) {
    const body = validOrThrow(checkForm(forgotUsernameBody, { email: formText(values, "email") }));
    const { message } = await api<{ message: string }>("/api/account/forgotusername", {
      method: "POST",
      auth: false,
      body,
      fallback: tm("unknownError"),
      inline: true,
      fieldOf: fieldOfSchema(forgotUsernameBody, body),
    });
    notify.success(message);
    form.reset();
  }

  return (
    <Form onSubmit={onSubmit}>
      <TextField label={t("email")} name="email" type="email" autoComplete="email" />
      <FormActions>
        <SubmitButton className="w-full">{t("submit")}</SubmitButton>
      </FormActions>
    </Form>
  );
}
