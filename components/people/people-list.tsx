"use client";
import { useTranslations } from "next-intl";
import Image from "next/image";
import { useEffect, useId, useState } from "react";
import { avatarUrl } from "@/lib/image-url";
import { Button, LinkButton } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Loading } from "@/components/ui/loading";
import { inputClasses } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { notify } from "@/lib/client/toast";
import type { Person } from "@/lib/schemas/person";
import { filterPeople, fullName } from "./person-name";

type Load = { status: "loading" } | { status: "failed" } | { status: "ready"; people: Person[] };

/** The people list (SPEC.md section 2): filter, and Edit, Link and Delete for each person. */
export function PeopleList({ treeId }: { treeId: string }) {
  const { ready } = useSession();
  const searchId = useId();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [query, setQuery] = useState("");
  const [toDelete, setToDelete] = useState<Person | null>(null);
  const [deleting, setDeleting] = useState(false);
  const t = useTranslations("PeopleList");

  useEffect(() => {
    if (!ready) return;
    let current = true;
    api<Person[]>(`/api/people?${new URLSearchParams({ tree: treeId }).toString()}`, {
      fallback: t("loadFailedToast"),
    }).then(
      (people) => {
        if (!current) return;
        setLoad({ status: "ready", people });
        // SPEC.md section 4: the filter is reset to empty after load.
        setQuery("");
      },
      () => current && setLoad({ status: "failed" }),
    );
    return () => {
      current = false;
    };
  }, [treeId, ready, t]);

  async function deletePerson(person: Person) {
    setDeleting(true);
    try {
      // The server also removes the person from every node of the tree.
      await api(`/api/people/${encodeURIComponent(person._id)}`, {
        method: "DELETE",
        fallback: t("deleteFailed"),
      });
      notify.success(t("removed"));
      setLoad((state) =>
        state.status === "ready"
          ? { status: "ready", people: state.people.filter((p) => p._id !== person._id) }
          : state,
      );
    } catch {
      // Already shown in a toast.
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  }

  const header = (
    <PageHeader title={t("title")} description={t("intro")}>
      <LinkButton variant="secondary" href={`/trees/${treeId}`}>
        {t("backToTree")}
      </LinkButton>
      <LinkButton href={`/trees/${treeId}/people/add`}>{t("addNew")}</LinkButton>
    </PageHeader>
  );

  if (load.status === "loading") {
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
        <p className="text-neutral-700">{t("loadFailed")}</p>
      </>
    );
  }

  const shown = filterPeople(load.people, query);
  return (
    <>
      {header}
      <div className="mb-6 max-w-md space-y-1">
        <label htmlFor={searchId} className="block text-sm font-medium text-neutral-800">
          {t("search")}
        </label>
        <input
          id={searchId}
          type="search"
          value={query}
          placeholder={t("searchPlaceholder")}
          autoComplete="off"
          onChange={(event) => setQuery(event.target.value)}
          className={inputClasses}
        />
      </div>
      <p role="status" className="sr-only">
        {t("shown", { shown: shown.length, count: load.people.length })}
      </p>
      {load.people.length === 0 ? (
        <p className="text-neutral-700">{t("empty")}</p>
      ) : shown.length === 0 ? (
        <p className="text-neutral-700">{t("noMatch", { query })}</p>
      ) : (
        <ul
          aria-label={t("listLabel")}
          className="grid grid-cols-[repeat(auto-fill,minmax(12rem,1fr))] gap-4"
        >
          {shown.map((person) => (
            <PersonTile
              key={person._id}
              treeId={treeId}
              person={person}
              onDelete={() => setToDelete(person)}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title={t("deleteTitle")}
        tone="danger"
        confirmLabel={t("delete")}
        cancelLabel={t("cancel")}
        busy={deleting}
        onCancel={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete) void deletePerson(toDelete);
        }}
      >
        <p>{t("deleteQuestion")}</p>
        {toDelete ? (
          <p className="mt-2 text-sm">{t("deleteText", { name: fullName(toDelete) })}</p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

function PersonTile({
  treeId,
  person,
  onDelete,
}: {
  treeId: string;
  person: Person;
  onDelete: () => void;
}) {
  const t = useTranslations("PeopleList");
  const name = fullName(person);
  const base = `/trees/${treeId}/people/${encodeURIComponent(person._id)}`;
  return (
    <li
      aria-label={name}
      className="flex flex-col items-center gap-3 rounded-lg border border-plum-100 bg-white p-4 text-center shadow-sm"
    >
      <Image
        src={avatarUrl(person.avatar, "200x200")}
        alt=""
        width={200}
        height={200}
        unoptimized
        className="size-32 rounded-full bg-plum-100 object-cover"
      />
      <p className="font-semibold break-words text-plum-900">{name}</p>
      <div className="flex flex-wrap justify-center gap-2">
        <LinkButton size="sm" variant="secondary" href={base} aria-label={t("editName", { name })}>
          {t("edit")}
        </LinkButton>
        <LinkButton
          size="sm"
          variant="secondary"
          href={`${base}/link`}
          aria-label={t("linkName", { name })}
        >
          {t("link")}
        </LinkButton>
        <Button
          size="sm"
          variant="danger"
          onClick={onDelete}
          aria-label={t("deleteName", { name })}
        >
          {t("delete")}
        </Button>
      </div>
    </li>
  );
}
