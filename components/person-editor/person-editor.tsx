"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ImageManager } from "@/components/image-manager/image-manager";
import { RichTextEditor } from "@/components/rich-text/rich-text-editor";
import {
  isConflict,
  type WriteConflict,
  WriteConflictNotice,
} from "@/components/tree-details/write-conflict";
import { LinkButton, TextLink } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { checkForm, Form, FormActions, SubmitButton } from "@/components/ui/form";
import { Loading } from "@/components/ui/loading";
import { TextField } from "@/components/ui/text-field";
import { api, ApiRequestError } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { notify } from "@/lib/client/toast";
import {
  createPersonBody,
  PERSON_LIMITS,
  updatePersonFieldsBody,
  type Person,
} from "@/lib/schemas/person";
import { SUGGESTIONS } from "@/lib/suggestions";
import { CustomRows, newRowKey, type CustomRow } from "./custom-rows";
import { SuggestionSelect } from "./suggestion-select";

type PersonFields = Pick<
  Person,
  "avatar" | "firstName" | "lastName" | "bio" | "traits" | "aspirations" | "lifeStates" | "custom"
>;

const EMPTY: PersonFields = {
  avatar: null,
  firstName: "",
  lastName: "",
  bio: "",
  traits: [],
  aspirations: [],
  lifeStates: [],
  custom: [],
};

type Load =
  | { status: "loading" }
  | { status: "failed" }
  | { status: "ready"; person: PersonFields; etag: string | null };

const needsLogin = (error: unknown) => error instanceof ApiRequestError && error.needsLogin;

/**
 * The person editor (SPEC.md section 2): create mode without a personId, edit mode (which loads
 * the person first) with one. A call that fails because the user must log in sends them to
 * /login without a toast.
 */
export function PersonEditor({ treeId, personId }: { treeId: string; personId?: string }) {
  const router = useRouter();
  const { ready } = useSession();
  const t = useTranslations("PersonEditor");
  const [load, setLoad] = useState<Load>(
    personId ? { status: "loading" } : { status: "ready", person: EMPTY, etag: null },
  );

  useEffect(() => {
    if (!ready || !personId) return;
    let current = true;
    let etag: string | null = null;
    api<Person>(`/api/people/${encodeURIComponent(personId)}`, {
      fallback: t("loadFailedToast"),
      expect: [401],
      onHeaders: (headers) => (etag = headers.get("etag")),
    }).then(
      (person) => current && setLoad({ status: "ready", person, etag }),
      (error: unknown) => {
        if (!current) return;
        if (needsLogin(error)) router.replace("/login");
        else setLoad({ status: "failed" });
      },
    );
    return () => {
      current = false;
    };
  }, [ready, personId, router, t]);

  const heading = personId ? t("editTitle") : t("createTitle");
  if (!ready || load.status === "loading") {
    return (
      <>
        <PageHeader title={heading} />
        <Loading label={t("loading")} />
      </>
    );
  }
  if (load.status === "failed") {
    return (
      <>
        <PageHeader title={heading} />
        <p className="text-neutral-700">
          {t("loadFailed")}{" "}
          <TextLink href={`/trees/${treeId}/people`}>{t("backToPeople")}</TextLink>
        </p>
      </>
    );
  }
  return (
    <PersonForm
      treeId={treeId}
      personId={personId}
      heading={heading}
      initial={load.person}
      initialEtag={load.etag}
    />
  );
}

function PersonForm({
  treeId,
  personId,
  heading,
  initial,
  initialEtag,
}: {
  treeId: string;
  personId?: string;
  heading: string;
  initial: PersonFields;
  /** The person's ETag when it was loaded: an edit is sent with If-Match of it. */
  initialEtag: string | null;
}) {
  const router = useRouter();
  const [avatar, setAvatar] = useState(initial.avatar);
  const [firstName, setFirstName] = useState(initial.firstName);
  const [lastName, setLastName] = useState(initial.lastName);
  const [bio, setBio] = useState(initial.bio);
  const [traits, setTraits] = useState(initial.traits);
  const [aspirations, setAspirations] = useState(initial.aspirations);
  const [lifeStates, setLifeStates] = useState(initial.lifeStates);
  const [custom, setCustom] = useState<CustomRow[]>(() =>
    initial.custom.map((row) => ({ ...row, key: newRowKey() })),
  );
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [etag, setEtag] = useState(initialEtag);
  const [conflict, setConflict] = useState<WriteConflict | null>(null);
  const t = useTranslations("PersonEditor");

  /** Saves the form; `ifMatch` is the version it overwrites (the loaded one, or a 409's). */
  async function onSubmit(ifMatch = etag) {
    const values = {
      tree: treeId,
      avatar,
      firstName,
      lastName,
      bio,
      traits,
      aspirations,
      lifeStates,
      // Rows left completely empty are dropped rather than stored.
      custom: custom
        .filter((row) => row.title.trim() || row.value.trim())
        .map(({ title, value }) => ({ title, value })),
    };
    const checked = checkForm(personId ? updatePersonFieldsBody : createPersonBody, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      if (!checked.errors.firstName && !checked.errors.lastName) notify.error(checked.message);
      return;
    }
    setErrors({});
    try {
      if (personId) {
        let answered: string | null = null;
        try {
          await api(`/api/people/${encodeURIComponent(personId)}`, {
            method: "PUT",
            body: checked.data,
            headers: ifMatch ? { "If-Match": ifMatch } : undefined,
            fallback: t("updateFailed"),
            expect: [401, 409],
            onHeaders: (headers) => (answered = headers.get("etag")),
          });
        } catch (error) {
          // Someone else saved first: keep everything typed here, and say so beside the form.
          if (!isConflict(error)) throw error;
          setConflict({
            detail: error.detail ?? t("changedElsewhere"),
            etag: answered,
          });
          return;
        }
        setConflict(null);
        setEtag(answered);
        notify.success(t("updated"));
        router.back();
      } else {
        await api("/api/people", {
          method: "POST",
          body: checked.data,
          fallback: t("createFailed"),
          expect: [401],
        });
        notify.success(t("created"));
        router.push(`/trees/${treeId}/people`);
      }
    } catch (error) {
      if (needsLogin(error)) router.push("/login");
      else throw error;
    }
  }

  return (
    <>
      <PageHeader
        title={heading}
        description={t("intro")}
      />
      <Card className="max-w-3xl">
        <Form onSubmit={() => onSubmit()} aria-label={heading}>
          <ImageManager
            label={t("avatar")}
            dir="avatar"
            value={avatar}
            onChange={setAvatar}
            aspect={1}
            previewSize="200x200"
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={t("firstName")}
              name="firstName"
              value={firstName}
              maxLength={PERSON_LIMITS.name}
              autoComplete="off"
              error={errors.firstName}
              onChange={(event) => setFirstName(event.target.value)}
            />
            <TextField
              label={t("lastName")}
              name="lastName"
              value={lastName}
              maxLength={PERSON_LIMITS.name}
              autoComplete="off"
              error={errors.lastName}
              onChange={(event) => setLastName(event.target.value)}
            />
          </div>
          <RichTextEditor label={t("bio")} initialValue={initial.bio} onChange={setBio} />
          <SuggestionSelect
            label={t("traits")}
            suggestions={SUGGESTIONS.traits}
            value={traits}
            onChange={setTraits}
            maxLength={PERSON_LIMITS.listItem}
          />
          <SuggestionSelect
            label={t("aspirations")}
            suggestions={SUGGESTIONS.aspirations}
            value={aspirations}
            onChange={setAspirations}
            maxLength={PERSON_LIMITS.listItem}
          />
          <SuggestionSelect
            label={t("lifeStates")}
            suggestions={SUGGESTIONS.lifeStates}
            value={lifeStates}
            onChange={setLifeStates}
            maxLength={PERSON_LIMITS.listItem}
          />
          <CustomRows
            rows={custom}
            onChange={setCustom}
            focusKey={focusKey}
            onAdd={() => {
              const key = newRowKey();
              setCustom((rows) => [...rows, { key, title: "", value: "" }]);
              setFocusKey(key);
            }}
          />
          {conflict && (
            <WriteConflictNotice conflict={conflict} onSaveOver={(current) => onSubmit(current)} />
          )}
          <FormActions>
            <SubmitButton>{personId ? t("update") : t("create")}</SubmitButton>
            <LinkButton variant="secondary" href={`/trees/${treeId}/people`}>
              {t("cancel")}
            </LinkButton>
          </FormActions>
        </Form>
      </Card>
    </>
  );
}
