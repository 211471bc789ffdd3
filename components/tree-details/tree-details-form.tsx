"use client";
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
  const [load, setLoad] = useState<Load>(
    treeId ? { status: "loading" } : { status: "ready", details: EMPTY, etag: null },
  );

  useEffect(() => {
    if (!treeId || !ready) return;
    let current = true;
    let etag: string | null = null;
    api<Tree>(`/api/trees/${encodeURIComponent(treeId)}`, {
      fallback: "Failed to get tree info",
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
  }, [treeId, ready]);

  const heading = treeId ? "Update Tree Details" : "Create a New Tree";
  if (load.status === "loading") {
    return (
      <>
        <PageHeader title={heading} />
        <Loading label="Loading tree details" />
      </>
    );
  }
  if (load.status === "failed") {
    return (
      <>
        <PageHeader title={heading} />
        <p className="text-neutral-700">
          This tree&apos;s details could not be loaded.{" "}
          <TextLink href={treeId ? `/trees/${treeId}` : "/"}>Go back</TextLink>
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
          fallback: "Unknown error occurred updating tree details",
          expect: [409],
          onHeaders: (headers) => (answered = headers.get("etag")),
        });
      } catch (error) {
        // Someone else saved first: keep everything typed here, and say so beside the form.
        if (!isConflict(error)) throw error;
        setConflict({
          detail: error.detail ?? "These details were changed elsewhere.",
          etag: answered,
        });
        return;
      }
      notify.success("Tree details updated");
      session.mergeTree(treeId, { _id: treeId, title: body.title } satisfies TreeSummary);
      router.push(`/trees/${treeId}`);
    } else {
      const tree = await api<Tree>("/api/trees", {
        method: "POST",
        body,
        fallback: "Unknown error occurred creating tree",
      });
      notify.success("Tree created");
      session.addTree({ _id: tree._id, title: tree.title });
      router.push(`/trees/${tree._id}`);
    }
  }

  return (
    <>
      <PageHeader
        title={heading}
        description={
          treeId
            ? "Change your tree's title, description and cover image."
            : "Give your legacy a title, tell its story and choose a cover image. You can change all of it later."
        }
      />
      <Card className="max-w-3xl">
        <Form onSubmit={() => onSubmit()} aria-label={heading}>
          <TextField
            label="Title"
            name="title"
            value={title}
            maxLength={TITLE_MAX}
            placeholder="The Plum Legacy"
            autoComplete="off"
            error={titleError}
            onChange={(event) => setTitle(event.target.value)}
          />
          <RichTextEditor
            label="Description"
            initialValue={initial.description}
            onChange={setDescription}
          />
          <ImageManager
            label="Cover Image"
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
            <SubmitButton>{treeId ? "Update Tree Details" : "Create Tree"}</SubmitButton>
            <LinkButton variant="secondary" href={treeId ? `/trees/${treeId}` : "/"}>
              Cancel
            </LinkButton>
          </FormActions>
        </Form>
      </Card>
    </>
  );
}
