"use client";
import { useRouter } from "next/navigation";
import { api } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { usernameFromToken } from "@/lib/client/session-store";
import { notify } from "@/lib/client/toast";
import { fieldOfSchema, Form, FormActions, formText, SubmitButton } from "@/components/ui/form";
import { TextField } from "@/components/ui/text-field";
import { ACCOUNT_MESSAGES } from "./messages";

// Login has no client-side checks (SPEC.md section 5): the server's messages are shown, each
// beside the field it is about ("Incorrect username or password" beside the password).
export function LoginForm() {
  const session = useSession();
  const router = useRouter();

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
      fallback: ACCOUNT_MESSAGES.unknownError,
      inline: true,
      fieldOf: fieldOfSchema(signinBody, body, { [ACCOUNT_MESSAGES.badLogin]: "password" }),
    });
    session.login(token);
    notify.success(ACCOUNT_MESSAGES.welcomeBack(usernameFromToken(token) ?? username));
    router.push("/");
    await session.loadTrees({ fallback: ACCOUNT_MESSAGES.treesFailed, silent: false });
  }

  return (
    <Form onSubmit={onSubmit}>
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
      />
      <TextField label="Password" name="password" type="password" autoComplete="current-password" />
      <FormActions>
        <SubmitButton className="w-full">Login</SubmitButton>
      </FormActions>
    </Form>
  );
}
