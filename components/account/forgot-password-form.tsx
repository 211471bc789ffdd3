"use client";
import { useTranslations } from "next-intl";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/toast";
import { forgotPasswordBody } from "@/lib/schemas/account";
import { fieldOfSchema, Form, FormActions, formText, SubmitButton } from "@/components/ui/form";
import { TextField } from "@/components/ui/text-field";

export function ForgotPasswordForm() {
  const t = useTranslations("ForgotPasswordForm");
  const tm = useTranslations("AccountMessages");
  async function onSubmit(values: FormData, form: HTMLFormElement) {
    const body = { username: formText(values, "username") };
    const { message } = await api<{ message: string }>("/api/account/forgotpassword", {
      method: "POST",
      auth: false,
      body,
      fallback: tm("unknownError"),
      inline: true,
      fieldOf: fieldOfSchema(forgotPasswordBody, body),
    });
    notify.success(message);
    form.reset();
  }

  return (
    <Form onSubmit={onSubmit}>
      <TextField
        label={t("username")}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        hint={t("usernameHint")}
      />
      <FormActions>
        <SubmitButton className="w-full">{t("submit")}</SubmitButton>
      </FormActions>
    </Form>
  );
}
