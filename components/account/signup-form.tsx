"use client";
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
      fallback: ACCOUNT_MESSAGES.unknownError,
      inline: true,
      fieldOf: fieldOfSchema(signupBody, body, { [ACCOUNT_MESSAGES.usernameTaken]: "username" }),
    });
    session.login(token);
    notify.success(ACCOUNT_MESSAGES.accountCreated);
    router.push("/");
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
      <TextField label="Email" name="email" type="email" autoComplete="email" />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters."
      />
      <FormActions>
        <SubmitButton className="w-full">Create Account</SubmitButton>
      </FormActions>
    </Form>
  );
}
