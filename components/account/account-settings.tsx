"use client";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { api } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { notify } from "@/lib/client/toast";
import { deleteAccountBody, updateEmailBody, updatePasswordBody } from "@/lib/schemas/account";
import { PageHeader, Panel } from "@/components/ui/card";
import {
  checkForm,
  Form,
  FormActions,
  formText,
  SubmitButton,
  type FieldErrors,
} from "@/components/ui/form";
import { Loading } from "@/components/ui/loading";
import { TextField } from "@/components/ui/text-field";
import { ACCOUNT_MESSAGES } from "./messages";

interface User {
  _id: string;
  email: string;
}

type Load = { state: "loading" } | { state: "failed" } | { state: "ready"; user: User };

function UpdateEmail({ email, onUpdated }: { email: string; onUpdated: (email: string) => void }) {
  const [errors, setErrors] = useState<FieldErrors>({});

  async function onSubmit(values: FormData, form: HTMLFormElement) {
    const checked = checkForm(updateEmailBody, { email: formText(values, "email") });
    if (!checked.ok) {
      setErrors(checked.errors);
      notify.warning(checked.message);
      return;
    }
    setErrors({});
    await api("/api/user/email", {
      method: "PUT",
      body: checked.data,
      fallback: ACCOUNT_MESSAGES.emailFailed,
    });
    notify.success(ACCOUNT_MESSAGES.emailUpdated);
    onUpdated(checked.data.email);
    form.reset();
  }

  return (
    <Panel
      title="Update Email"
      description={
        <>
          Your email address is <strong className="text-plum-900">{email}</strong>. We use it only
          to send you password reset links and forgotten usernames.
        </>
      }
    >
      <Form onSubmit={onSubmit}>
        <TextField
          label="New email"
          name="email"
          type="email"
          autoComplete="email"
          error={errors.email}
        />
        <FormActions>
          <SubmitButton>Update Email</SubmitButton>
        </FormActions>
      </Form>
    </Panel>
  );
}

function UpdatePassword() {
  const session = useSession();
  const [errors, setErrors] = useState<FieldErrors>({});

  async function onSubmit(values: FormData, form: HTMLFormElement) {
    const checked = checkForm(updatePasswordBody, {
      oldPassword: formText(values, "oldPassword"),
      newPassword: formText(values, "newPassword"),
      confirmPassword: formText(values, "confirmPassword"),
    });
    if (!checked.ok) {
      setErrors(checked.errors);
      notify.warning(checked.message);
      return;
    }
    setErrors({});
    const { token } = await api<{ token: string }>("/api/user/password", {
      method: "PUT",
      body: checked.data,
      fallback: ACCOUNT_MESSAGES.passwordFailed,
    });
    // Changing the password ends older sessions; the new token keeps this one.
    if (token) session.login(token);
    notify.success(ACCOUNT_MESSAGES.passwordUpdated);
    form.reset();
  }

  return (
    <Panel title="Update Password">
      <Form onSubmit={onSubmit}>
        <TextField
          label="Current password"
          name="oldPassword"
          type="password"
          autoComplete="current-password"
          error={errors.oldPassword}
        />
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          error={errors.newPassword}
        />
        <TextField
          label="Confirm new password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword}
        />
        <FormActions>
          <SubmitButton>Update Password</SubmitButton>
        </FormActions>
      </Form>
    </Panel>
  );
}

function DeleteAccount({ name }: { name: string }) {
  const session = useSession();
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});

  async function onSubmit(values: FormData) {
    const checked = checkForm(deleteAccountBody, { password: formText(values, "password") });
    if (!checked.ok) {
      setErrors(checked.errors);
      notify.warning(checked.message);
      return;
    }
    setErrors({});
    await api("/api/account", {
      method: "DELETE",
      body: checked.data,
      fallback: ACCOUNT_MESSAGES.passwordFailed,
    });
    router.push("/");
    session.logout();
    notify.success(ACCOUNT_MESSAGES.accountDeleted(name));
  }

  return (
    <Panel
      title="Delete Account"
      tone="danger"
      description="This permanently deletes your account and cannot be undone. Enter your password to confirm."
    >
      <Form onSubmit={onSubmit}>
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={errors.password}
        />
        <FormActions>
          <SubmitButton variant="danger">Delete Account</SubmitButton>
        </FormActions>
      </Form>
    </Panel>
  );
}

/** The Account settings screen; render it inside RequireLogin. */
export function AccountSettings() {
  const { username, token } = useSession();
  const [load, setLoad] = useState<Load>({ state: "loading" });
  // Keyed on the user, not the token: a password change swaps the token but not the user.
  const identity = username ?? token;

  useEffect(() => {
    if (!identity) return;
    let current = true;
    api<User>("/api/user", { fallback: ACCOUNT_MESSAGES.accountInfoFailed }).then(
      (user) => current && setLoad({ state: "ready", user }),
      () => current && setLoad({ state: "failed" }),
    );
    return () => {
      current = false;
    };
  }, [identity]);

  if (load.state === "loading") return <Loading label="Loading account" />;
  if (load.state === "failed") {
    return (
      <>
        <PageHeader title="Account Settings" />
        <p className="text-neutral-700">
          {ACCOUNT_MESSAGES.accountInfoFailed}. Refresh the page to try again.
        </p>
      </>
    );
  }

  const { user } = load;
  return (
    <div className="max-w-2xl">
      <PageHeader
        title={
          <>
            Account Settings for <span className="break-all">{user._id}</span>
          </>
        }
      />
      <div className="space-y-6">
        <UpdateEmail
          email={user.email}
          onUpdated={(email) => setLoad({ state: "ready", user: { ...user, email } })}
        />
        <UpdatePassword />
        <DeleteAccount name={user._id} />
      </div>
    </div>
  );
}
