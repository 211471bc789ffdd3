"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { fullName } from "@/components/people/person-name";
import { Button, LinkButton, TextLink } from "@/components/ui/button";
import { Card, PageHeader, Panel } from "@/components/ui/card";
import { checkForm, Form, FormActions, SubmitButton } from "@/components/ui/form";
import { Loading } from "@/components/ui/loading";
import { TextField } from "@/components/ui/text-field";
import { api, ApiRequestError } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { notify } from "@/lib/client/toast";
import { PERSON_LIMITS, personLink, type Person, type PersonLink } from "@/lib/schemas/person";

type Load =
  | { status: "loading" }
  | { status: "failed" }
  | { status: "ready"; name: string; links: PersonLink[] };

const needsLogin = (error: unknown) => error instanceof ApiRequestError && error.needsLogin;

/**
 * The person linker (SPEC.md section 2): links a Sim to the same Sim in another, public tree.
 * Every change sends the whole list with `PUT {links}` and shows the list the server answers.
 */
export function PersonLinker({ treeId, personId }: { treeId: string; personId: string }) {
  const router = useRouter();
  const { ready } = useSession();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [draft, setDraft] = useState({ title: "", treeId: "", personId: "" });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [removing, setRemoving] = useState<number | null>(null);
  const t = useTranslations("PersonLinker");
  const personPath = `/api/people/${encodeURIComponent(personId)}`;

  useEffect(() => {
    if (!ready) return;
    let current = true;
    api<Person>(personPath, { fallback: t("loadFailedToast"), expect: [401] }).then(
      (person) =>
        current && setLoad({ status: "ready", name: fullName(person), links: person.links }),
      (error: unknown) => {
        if (!current) return;
        if (needsLogin(error)) router.replace("/login");
        else setLoad({ status: "failed" });
      },
    );
    return () => {
      current = false;
    };
  }, [ready, personPath, router, t]);

  /** Saves the whole list; resolves with whether it was saved. */
  async function saveLinks(links: PersonLink[]): Promise<boolean> {
    try {
      const saved = await api<{ links: PersonLink[] }>(personPath, {
        method: "PUT",
        body: { links },
        fallback: t("updateFailed"),
        expect: [401],
      });
      setLoad((state) => (state.status === "ready" ? { ...state, links: saved.links } : state));
      notify.success(t("updated"));
      return true;
    } catch (error) {
      if (needsLogin(error)) router.push("/login");
      return false;
    }
  }

  async function onAdd() {
    if (load.status !== "ready") return;
    const missing = {
      treeId: draft.treeId ? undefined : t("treeIdRequired"),
      personId: draft.personId ? undefined : t("personIdRequired"),
    };
    const checked = checkForm(personLink, draft);
    if (missing.treeId || missing.personId || !checked.ok) {
      const found = checked.ok ? {} : checked.errors;
      setErrors({
        title: found.title,
        treeId: missing.treeId ?? found.treeId,
        personId: missing.personId ?? found.personId,
      });
      return;
    }
    setErrors({});
    if (await saveLinks([...load.links, checked.data])) {
      setDraft({ title: "", treeId: "", personId: "" });
    }
  }

  async function onRemove(index: number) {
    if (load.status !== "ready") return;
    setRemoving(index);
    await saveLinks(load.links.filter((_, i) => i !== index));
    setRemoving(null);
  }

  const header = (
    <PageHeader title={t("title")} description={t("intro")}>
      <LinkButton variant="secondary" href={`/trees/${treeId}/people`}>
        {t("backToPeople")}
      </LinkButton>
    </PageHeader>
  );

  if (!ready || load.status === "loading") {
    return (
      <>
        {header}
        <Loading label={t("loading")} />
      </>
    );
  }
  if (load.status === "failed") {
    return (
      <>
        {header}
        <p className="text-neutral-700">
          {t("loadFailed")}{" "}
          <TextLink href={`/trees/${treeId}/people`}>{t("backToPeopleLong")}</TextLink>
        </p>
      </>
    );
  }

  return (
    <>
      {header}
      <div className="grid max-w-5xl gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="mb-1 text-lg font-semibold text-plum-900">
            {t("linkName", { name: load.name })}
          </h2>
          <p className="mb-4 text-sm text-neutral-700">{t("howTo")}</p>
          <Form onSubmit={onAdd} aria-label={t("formLabel")}>
            <TextField
              label={t("linkTitle")}
              placeholder={t("linkTitlePlaceholder")}
              value={draft.title}
              maxLength={PERSON_LIMITS.linkTitle}
              autoComplete="off"
              error={errors.title}
              onChange={(event) => setDraft({ ...draft, title: event.target.value })}
            />
            <TextField
              label={t("treeId")}
              value={draft.treeId}
              autoComplete="off"
              spellCheck={false}
              required
              error={errors.treeId}
              onChange={(event) => setDraft({ ...draft, treeId: event.target.value.trim() })}
            />
            <TextField
              label={t("personId")}
              value={draft.personId}
              autoComplete="off"
              spellCheck={false}
              required
              error={errors.personId}
              onChange={(event) => setDraft({ ...draft, personId: event.target.value.trim() })}
            />
            <FormActions>
              <SubmitButton>{t("submit")}</SubmitButton>
            </FormActions>
          </Form>
        </Card>
        <Panel title={t("existing")} description={t("existingIntro")}>
          {load.links.length === 0 ? (
            <p className="text-neutral-700">{t("none")}</p>
          ) : (
            <ul className="divide-y divide-plum-100" aria-label={t("listLabel")}>
              {load.links.map((link, index) => (
                <li
                  key={`${link.treeId}/${link.personId}/${index}`}
                  className="flex flex-wrap items-center justify-between gap-3 py-3"
                >
                  <div className="min-w-0 text-sm">
                    <p className="font-semibold break-words text-plum-900">
                      {link.title || t("untitled")}
                    </p>
                    <p className="break-all text-neutral-700">
                      {t("treeIdValue", { id: link.treeId })}
                    </p>
                    <p className="break-all text-neutral-700">
                      {t("personIdValue", { id: link.personId })}
                    </p>
                  </div>
                  <Button
                    size="sm"
                    variant="danger"
                    busy={removing === index}
                    disabled={removing !== null}
                    aria-label={t("deleteName", { name: link.title || index + 1 })}
                    onClick={() => void onRemove(index)}
                  >
                    {t("delete")}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </>
  );
}
