"use client";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ApiRequestError, api } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { notify } from "@/lib/client/toast";
import {
  EMAIL_CHANGE_NEEDS_PASSWORD,
  deleteAccountBody,
  updateEmailBody,
  updatePasswordBody,
} from "@/lib/schemas/account";
import { TextLink } from "@/components/ui/button";
import { PageHeader, Panel } from "@/components/ui/card";
import {
  checkForm,
  fieldOfSchema,
  Form,
  FormActions,
  formText,
  SubmitButton,
  validOrThrow,
} from "@/components/ui/form";
import { Loading } from "@/components/ui/loading";
import { TextField } from "@/components/ui/text-field";
import { DeletedTreeCopies } from "./deleted-tree-copies";
import { ACCOUNT_MESSAGES } from "./messages";
import { usePublications } from "./publications";

interface User {
  _id: string;
  email: string;
}

type Load = { state: "loading" } | { state: "failed" } | { state: "ready"; user: User };

// Each form's problems, its own checks and the server's, show beside their fields (Form).

function UpdateEmail({ email, onUpdated }: { email: string; onUpdated: (email: string) => void }) {
  // Within 10 minutes of signing in the address alone will do; after that the server asks for
  // the current password (issue 22.5), and the field appears.
  const [needsPassword, setNeedsPassword] = useState(false);

  async function onSubmit(values: FormData, form: HTMLFormElement) {
    const body = validOrThrow(
      checkForm(updateEmailBody, {
        email: formText(values, "email"),
        ...(needsPassword ? { password: formText(values, "password") } : {}),
      }),
    );
    try {
      await api("/api/user/email", {
        method: "PUT",
        body,
        fallback: ACCOUNT_MESSAGES.emailFailed,
        inline: true,
        fieldOf: (detail, status) =>
          detail === EMAIL_CHANGE_NEEDS_PASSWORD || detail === ACCOUNT_MESSAGES.wrongPassword
            ? "password"
            : status === 400 || status === 409
              ? "email"
              : null,
      });
    } catch (error) {
      if (error instanceof ApiRequestError && error.detail === EMAIL_CHANGE_NEEDS_PASSWORD) {
        setNeedsPassword(true);
      }
      throw error;
    }
    notify.success(ACCOUNT_MESSAGES.emailUpdated);
    onUpdated(body.email);
    form.reset();
  }

  return (
    <Panel
      title="Update Email"
      description={
        <>
          Your email address is <strong className="text-plum-900">{email}</strong>. We use it only
          to send you password reset links and forgotten usernames. When it changes, this address
          is told, with a link to undo the change.
        </>
      }
    >
      <Form onSubmit={onSubmit}>
        <TextField label="New email" name="email" type="email" autoComplete="email" />
        {needsPassword && (
          <TextField
            label="Current password"
            name="password"
            type="password"
            autoComplete="current-password"
            hint="Needed when you signed in more than 10 minutes ago."
          />
        )}
        <FormActions>
          <SubmitButton>Update Email</SubmitButton>
        </FormActions>
      </Form>
    </Panel>
  );
}

function UpdatePassword() {
  const session = useSession();

  async function onSubmit(values: FormData, form: HTMLFormElement) {
    const body = validOrThrow(
      checkForm(updatePasswordBody, {
        oldPassword: formText(values, "oldPassword"),
        newPassword: formText(values, "newPassword"),
        confirmPassword: formText(values, "confirmPassword"),
      }),
    );
    const { token } = await api<{ token: string }>("/api/user/password", {
      method: "PUT",
      body,
      fallback: ACCOUNT_MESSAGES.passwordFailed,
      inline: true,
      fieldOf: fieldOfSchema(updatePasswordBody, body, {
        [ACCOUNT_MESSAGES.wrongCurrentPassword]: "oldPassword",
      }),
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
        />
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
        />
        <TextField
          label="Confirm new password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
        />
        <FormActions>
          <SubmitButton>Update Password</SubmitButton>
        </FormActions>
      </Form>
    </Panel>
  );
}

/** The user's public copies, those of deleted trees too: account deletion unpublishes them all. */
function PublishedList() {
  const { list, failed } = usePublications();
  if (list === null) {
    return (
      <p className="text-sm text-neutral-700">
        {failed
          ? "Your public copies could not be checked; deleting the account unpublishes them all."
          : "Checking which of your trees are public…"}
      </p>
    );
  }
  if (list.length === 0) {
    return <p className="text-sm text-neutral-700">None of your trees is published.</p>;
  }
  return (
    <div className="text-sm text-neutral-800">
      <p>
        {list.length === 1
          ? "This published tree will be unpublished, and its public link will stop working:"
          : `These ${list.length} published trees will be unpublished, and their public links will stop working:`}
      </p>
      <ul className="mt-1 list-disc space-y-0.5 pl-6" aria-label="Trees that will be unpublished">
        {list.map((tree) => (
          <li key={tree._id} className="break-words">
            <TextLink href={`/public/${encodeURIComponent(tree._id)}`}>
              {tree.title.trim() || "Untitled Tree"}
            </TextLink>
            {tree.treeDeleted && <span className="text-neutral-600"> (tree deleted)</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function DeleteAccount({ name }: { name: string }) {
  const session = useSession();
  const router = useRouter();

  async function onSubmit(values: FormData) {
    const body = validOrThrow(
      checkForm(deleteAccountBody, { password: formText(values, "password") }),
    );
    await api("/api/account", {
      method: "DELETE",
      body,
      fallback: ACCOUNT_MESSAGES.passwordFailed,
      inline: true,
      fieldOf: (detail, status) => (status === 400 ? "password" : null),
    });
    router.push("/");
    session.logout();
    notify.success(ACCOUNT_MESSAGES.accountDeleted(name));
  }

  const treeCount = session.trees?.length ?? 0;
  return (
    <Panel
      title="Delete Account"
      tone="danger"
      description={
        <>
          This permanently deletes your account
          {treeCount > 0 &&
            ` and your ${treeCount === 1 ? "tree" : `${treeCount} trees`} with everyone in them`}
          , and cannot be undone. Enter your password to confirm.
        </>
      }
    >
      <div className="mb-4">
        <PublishedList />
      </div>
      <Form onSubmit={onSubmit}>
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
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
        <DeletedTreeCopies />
        <DeleteAccount name={user._id} />
      </div>
    </div>
  );
}
