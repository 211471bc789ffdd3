"use client";
import { useTranslations } from "next-intl";
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

/** Reads the reset token (t) and username (u) from the e-mailed link. */
export function ResetPasswordForm() {
  const searchParams = useSearchParams();
  const token = searchParams.get("t") ?? "";
  const username = searchParams.get("u") ?? "";
  const router = useRouter();
  const t = useTranslations("ResetPasswordForm");
  const tm = useTranslations("AccountMessages");

  if (!token || !username) {
    return (
      <p className="text-neutral-700">
        {t.rich("incomplete", {
          link: (chunks) => <TextLink href="/forgot-password">{chunks}</TextLink>,
        })}
      </p>
    );
  }

  async function onSubmit(values: FormData) {
    const password = formText(values, "password");
    if (password !== formText(values, "confirmPassword")) {
      throw new FormProblem(tm("resetMismatch"), { confirmPassword: tm("resetMismatch") });
    }
    const body = validOrThrow(checkForm(resetPasswordBody, { username, password, token }));
    await api("/api/account/resetpassword", {
      method: "POST",
      auth: false,
      body,
      fallback: tm("unknownError"),
      inline: true,
      fieldOf: fieldOfSchema(resetPasswordBody, body),
    });
    notify.success(tm("passwordSaved"));
    router.push("/login");
  }

  return (
    <Form onSubmit={onSubmit}>
      <p className="text-sm text-neutral-700">
        {t.rich("choosing", {
          username,
          strong: (chunks) => <strong className="text-plum-900">{chunks}</strong>,
        })}
      </p>
      <TextField
        label={t("newPassword")}
        name="password"
        type="password"
        autoComplete="new-password"
        hint={t("passwordHint")}
      />
      <TextField
        label={t("confirmPassword")}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
      />
      <FormActions>
        <SubmitButton className="w-full">{t("submit")}</SubmitButton>
      </FormActions>
    </Form>
  );
}
