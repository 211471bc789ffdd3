"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ImageManager } from "@/components/image-manager/image-manager";
import { RichTextEditor } from "@/components/rich-text/rich-text-editor";
import { LinkButton, TextLink } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { checkForm, Form, FormActions, SubmitButton } from "@/components/ui/form";
import { Loading } from "@/components/ui/loading";
import { TextField } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import { isConflict, type WriteConflict, WriteConflictNotice } from "./write-conflict";
import { useSession } from "@/lib/client/session";
import { notify } from "@/lib/client/toast";
import {
  createTreeBody,
  TITLE_MAX,
  updateTreeDetailsBody,
  type Tree,
  type TreeSummary,
} from "@/lib/schemas/tree";

interface TreeDetails {
  title: string;
  description: string;
  cover: string | null;
}

const EMPTY: TreeDetails = { title: "", description: "", cover: null };

type Load =
  | { status: "loading" }
  | { status: "failed" }
  | { status: "ready"; details: TreeDetails; etag: string | null };

/**
 * The tree details form (SPEC.md section 2). Without a treeId it creates a tree; with one it
 * loads that tree's title, description and cover and updates them.
 */
export function TreeDetailsForm({ treeId }: { treeId?: string }) {
  const { ready } = useSession();
  const t = useTranslations("TreeDetails");
  const [load, setLoad] = useState<Load>(
    treeId ? { status: "loading" } : { status: "ready", details: EMPTY, etag: null },
  );

  useEffect(() => {
    if (!treeId || !ready) return;
    let current = true;
    let etag: string | null = null;
    api<Tree>(`/api/trees/${encodeURIComponent(treeId)}`, {
      fallback: t("loadFailedToast"),
      onHeaders: (headers) => (etag = headers.get("etag")),
    }).then(
      (tree) =>
        current &&
        setLoad({
          status: "ready",
          details: { title: tree.title, description: tree.description, cover: tree.cover },
          etag,
        }),
      () => current && setLoad({ status: "failed" }),
    );
    return () => {
      current = false;
    };
  }, [treeId, ready, t]);

  const heading = treeId ? t("updateTitle") : t("createTitle");
  if (load.status === "loading") {
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
          <TextLink href={treeId ? `/trees/${treeId}` : "/"}>{t("goBack")}</TextLink>
        </p>
      </>
    );
  }
  return (
    <TreeDetailsFields
      treeId={treeId}
      heading={heading}
      initial={load.details}
      initialEtag={load.etag}
    />
  );
}

function TreeDetailsFields({
  treeId,
  heading,
  initial,
  initialEtag,
}: {
  treeId?: string;
  heading: string;
  initial: TreeDetails;
  /** The tree's ETag when it was loaded: an update is sent with If-Match of it. */
  initialEtag: string | null;
}) {
  const router = useRouter();
  const session = useSession();
  const [title, setTitle] = useState(initial.title);
  const [description, setDescription] = useState(initial.description);
  const [cover, setCover] = useState(initial.cover);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<WriteConflict | null>(null);
  const t = useTranslations("TreeDetails");

  /** Saves the form; `ifMatch` is the version it overwrites (the loaded one, or a 409's). */
  async function onSubmit(ifMatch = initialEtag) {
    const values = { title, description, cover };
    const checked = checkForm(treeId ? updateTreeDetailsBody : createTreeBody, values);
    if (!checked.ok) {
      setTitleError(checked.errors.title ?? null);
      if (!checked.errors.title) notify.error(checked.message);
      return;
    }
    setTitleError(null);
    const body = { title: checked.data.title, description, cover };
    if (treeId) {
      let answered: string | null = null;
      try {
        await api(`/api/trees/${encodeURIComponent(treeId)}`, {
          method: "PATCH",
          body,
          headers: ifMatch ? { "If-Match": ifMatch } : undefined,
          fallback: t("updateFailed"),
          expect: [409],
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
      notify.success(t("updated"));
      session.mergeTree(treeId, { _id: treeId, title: body.title } satisfies TreeSummary);
      router.push(`/trees/${treeId}`);
    } else {
      const tree = await api<Tree>("/api/trees", {
        method: "POST",
        body,
        fallback: t("createFailed"),
      });
      notify.success(t("created"));
      session.addTree({ _id: tree._id, title: tree.title });
      router.push(`/trees/${tree._id}`);
    }
  }

  return (
    <>
      <PageHeader
        title={heading}
        description={treeId ? t("updateIntro") : t("createIntro")}
      />
      <Card className="max-w-3xl">
        <Form onSubmit={() => onSubmit()} aria-label={heading}>
          <TextField
            label={t("title")}
            name="title"
            value={title}
            maxLength={TITLE_MAX}
            placeholder={t("titlePlaceholder")}
            autoComplete="off"
            error={titleError}
            onChange={(event) => setTitle(event.target.value)}
          />
          <RichTextEditor
            label={t("description")}
            initialValue={initial.description}
            onChange={setDescription}
          />
          <ImageManager
            label={t("cover")}
            dir="cover"
            value={cover}
            onChange={setCover}
            aspect={600 / 320}
            previewSize="600x320"
          />
          {conflict && (
            <WriteConflictNotice conflict={conflict} onSaveOver={(current) => onSubmit(current)} />
          )}
          <FormActions>
            <SubmitButton>{treeId ? t("updateTitle") : t("create")}</SubmitButton>
            <LinkButton variant="secondary" href={treeId ? `/trees/${treeId}` : "/"}>
              {t("cancel")}
            </LinkButton>
          </FormActions>
        </Form>
      </Card>
    </>
  );
}
