"use client";
import { useTranslations } from "next-intl";
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
import { AccountLanguage } from "./account-language";
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
  const t = useTranslations("AccountSettings");
  const tm = useTranslations("AccountMessages");

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
        fallback: tm("emailFailed"),
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
    notify.success(tm("emailUpdated"));
    onUpdated(body.email);
    form.reset();
  }

  return (
    <Panel
      title={t("updateEmail")}
      description={t.rich("emailText", {
        email,
        strong: (chunks) => <strong className="text-plum-900">{chunks}</strong>,
      })}
    >
      <Form onSubmit={onSubmit}>
        <TextField label={t("newEmail")} name="email" type="email" autoComplete="email" />
        {needsPassword && (
          <TextField
            label={t("currentPassword")}
            name="password"
            type="password"
            autoComplete="current-password"
            hint={t("currentPasswordHint")}
          />
        )}
        <FormActions>
          <SubmitButton>{t("updateEmail")}</SubmitButton>
        </FormActions>
      </Form>
    </Panel>
  );
}

function UpdatePassword() {
  const session = useSession();
  const t = useTranslations("AccountSettings");
  const tm = useTranslations("AccountMessages");

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
      fallback: tm("passwordFailed"),
      inline: true,
      fieldOf: fieldOfSchema(updatePasswordBody, body, {
        [ACCOUNT_MESSAGES.wrongCurrentPassword]: "oldPassword",
      }),
    });
    // Changing the password ends older sessions; the new token keeps this one.
    if (token) session.login(token);
    notify.success(tm("passwordUpdated"));
    form.reset();
  }

  return (
    <Panel title={t("updatePassword")}>
      <Form onSubmit={onSubmit}>
        <TextField
          label={t("currentPassword")}
          name="oldPassword"
          type="password"
          autoComplete="current-password"
        />
        <TextField
          label={t("newPassword")}
          name="newPassword"
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
          <SubmitButton>{t("updatePassword")}</SubmitButton>
        </FormActions>
      </Form>
    </Panel>
  );
}

/** The user's public copies, those of deleted trees too: account deletion unpublishes them all. */
function PublishedList() {
  const { list, failed } = usePublications();
  const t = useTranslations("AccountSettings");
  if (list === null) {
    return (
      <p className="text-sm text-neutral-700">
        {failed ? t("publishedCheckFailed") : t("publishedChecking")}
      </p>
    );
  }
  if (list.length === 0) {
    return <p className="text-sm text-neutral-700">{t("publishedNone")}</p>;
  }
  return (
    <div className="text-sm text-neutral-800">
      <p>{t("publishedWillGo", { count: list.length })}</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-6" aria-label={t("publishedListLabel")}>
        {list.map((tree) => (
          <li key={tree._id} className="break-words">
            <TextLink href={`/public/${encodeURIComponent(tree._id)}`}>
              {tree.title.trim() || t("untitledTree")}
            </TextLink>
            {tree.treeDeleted && <span className="text-neutral-600"> {t("treeDeleted")}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function DeleteAccount({ name }: { name: string }) {
  const session = useSession();
  const router = useRouter();
  const t = useTranslations("AccountSettings");
  const tm = useTranslations("AccountMessages");

  async function onSubmit(values: FormData) {
    const body = validOrThrow(
      checkForm(deleteAccountBody, { password: formText(values, "password") }),
    );
    await api("/api/account", {
      method: "DELETE",
      body,
      fallback: tm("passwordFailed"),
      inline: true,
      fieldOf: (detail, status) => (status === 400 ? "password" : null),
    });
    router.push("/");
    session.logout();
    notify.success(tm("accountDeleted", { name }));
  }

  const treeCount = session.trees?.length ?? 0;
  return (
    <Panel
      title={t("deleteAccount")}
      tone="danger"
      description={t("deleteText", { count: treeCount })}
    >
      <div className="mb-4">
        <PublishedList />
      </div>
      <Form onSubmit={onSubmit}>
        <TextField
          label={t("password")}
          name="password"
          type="password"
          autoComplete="current-password"
        />
        <FormActions>
          <SubmitButton variant="danger">{t("deleteAccount")}</SubmitButton>
        </FormActions>
      </Form>
    </Panel>
  );
}

/** The Account settings screen; render it inside RequireLogin. */
export function AccountSettings() {
  const { username, token } = useSession();
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const t = useTranslations("AccountSettings");
  const tm = useTranslations("AccountMessages");
  // Keyed on the user, not the token: a password change swaps the token but not the user.
  const identity = username ?? token;

  useEffect(() => {
    if (!identity) return;
    let current = true;
    api<User>("/api/user", { fallback: tm("accountInfoFailed") }).then(
      (user) => current && setLoad({ state: "ready", user }),
      () => current && setLoad({ state: "failed" }),
    );
    return () => {
      current = false;
    };
  }, [identity, tm]);

  if (load.state === "loading") return <Loading label={t("loading")} />;
  if (load.state === "failed") {
    return (
      <>
        <PageHeader title={t("title")} />
        <p className="text-neutral-700">{tm("accountInfoFailedRefresh")}</p>
      </>
    );
  }

  const { user } = load;
  return (
    <div className="max-w-2xl">
      <PageHeader
        title={t.rich("titleFor", {
          username: user._id,
          name: (chunks) => <span className="break-all">{chunks}</span>,
        })}
      />
      <div className="space-y-6">
        <UpdateEmail
          email={user.email}
          onUpdated={(email) => setLoad({ state: "ready", user: { ...user, email } })}
        />
        <UpdatePassword />
        <AccountLanguage />
        <DeletedTreeCopies />
        <DeleteAccount name={user._id} />
      </div>
    </div>
  );
}
