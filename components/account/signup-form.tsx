"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { api } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { notify } from "@/lib/client/toast";
import { signupBody } from "@/lib/schemas/account";
import { fieldOfSchema, Form, FormActions, formText, SubmitButton } from "@/components/ui/form";
import { TextField } from "@/components/ui/text-field";
import { ACCOUNT_MESSAGES } from "./messages";

// Signup has no client-side checks (SPEC.md section 5): the server's messages are shown, each
// beside the field it is about.
export function SignupForm() {
  const session = useSession();
  const router = useRouter();
  const t = useTranslations("SignupForm");
  const tm = useTranslations("AccountMessages");

  async function onSubmit(values: FormData) {
    const body = {
      username: formText(values, "username"),
      email: formText(values, "email"),
      password: formText(values, "password"),
    };
    const { token } = await api<{ token: string }>("/api/account/signup", {
      method: "POST",
      auth: false,
      body,
      fallback: tm("unknownError"),
      inline: true,
      fieldOf: fieldOfSchema(signupBody, body, { [ACCOUNT_MESSAGES.usernameTaken]: "username" }),
    });
    session.login(token);
    notify.success(tm("accountCreated"));
    router.push("/");
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
      <TextField label={t("email")} name="email" type="email" autoComplete="email" />
      <TextField
        label={t("password")}
        name="password"
        type="password"
        autoComplete="new-password"
        hint={t("passwordHint")}
      />
      <FormActions>
        <SubmitButton className="w-full">{t("submit")}</SubmitButton>
      </FormActions>
    </Form>
  );
}
