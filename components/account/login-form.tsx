"use client";
import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { api } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { usernameFromToken } from "@/lib/client/session-store";
import { notify } from "@/lib/client/toast";
import type { AccountLocale } from "@/lib/i18n/account-locale";
import { fieldOfSchema, Form, FormActions, formText, SubmitButton } from "@/components/ui/form";
import { TextField } from "@/components/ui/text-field";
import { ACCOUNT_MESSAGES } from "./messages";

/**
 * The account's language, read once signed in: its answer sets the NEXT_LOCALE cookie (ADR 041),
 * so this device speaks the account's language from the next render on. Null when the account
 * has none, or when the read failed (the page then stays in the language it has).
 */
async function accountLocale(): Promise<string | null> {
  try {
    return (await api<AccountLocale>("/api/user/locale", { silent: true })).locale;
  } catch {
    return null;
  }
}

// Login has no client-side checks (SPEC.md section 5): the server's messages are shown, each
// beside the field it is about ("Incorrect username or password" beside the password).
export function LoginForm() {
  const session = useSession();
  const router = useRouter();
  const current = useLocale();
  const t = useTranslations("LoginForm");
  const tm = useTranslations("AccountMessages");

  async function onSubmit(values: FormData) {
    // zod and the account schemas are loaded with the first submit, not with the page: the login
    // page is one of the first a visitor opens (issue 14's Lighthouse run).
    const { signinBody } = await import("@/lib/schemas/account");
    const username = formText(values, "username");
    const body = { username, password: formText(values, "password") };
    const { token } = await api<{ token: string }>("/api/account/signin", {
      method: "POST",
      auth: false,
      body,
      fallback: tm("unknownError"),
      inline: true,
      fieldOf: fieldOfSchema(signinBody, body, { [ACCOUNT_MESSAGES.badLogin]: "password" }),
    });
    session.login(token);
    const locale = await accountLocale();
    notify.success(tm("welcomeBack", { name: usernameFromToken(token) ?? username }));
    router.push("/");
    // the root layout (<html lang>, the catalog) is rendered again only by a refresh
    if (locale && locale !== current) router.refresh();
    await session.loadTrees({ fallback: tm("treesFailed"), silent: false });
  }

  return (
    <Form onSubmit={onSubmit}>
      <TextField
        label={t("username")}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
      />
      <TextField
        label={t("password")}
        name="password"
        type="password"
        autoComplete="current-password"
      />
      <FormActions>
        <SubmitButton className="w-full">{t("submit")}</SubmitButton>
      </FormActions>
    </Form>
  );
}
