"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId, useRef, useState, type DragEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { cx } from "@/components/ui/class-names";
import { inputClasses, TextField } from "@/components/ui/text-field";
import { ApiRequestError, IMPORT_ERROR, importTree, NOT_LOGGED_IN } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { notify } from "@/lib/client/toast";
import { TITLE_MAX } from "@/lib/schemas/tree";
import { ImportProgress, type ImportPhase } from "./import-progress";
import { ImportReportCard, type ImportReport } from "./import-report";
import { importHouseholds, isSims4File, listHouseholds, type HouseholdChoice } from "./sims4-client";
import { Sims4Households } from "./sims4-households";

/** The file types the import takes (SPEC: issue 6). */
export const IMPORT_ACCEPT =
  ".zip,.ged,.gedcom,.save,.trayitem,application/zip,application/x-zip-compressed";

const FORMATS = [
  { value: "", label: "Detect automatically" },
  { value: "plumtree", label: "The Plum Tree backup (ZIP)" },
  { value: "prunetree", label: "PruneTree backup (ZIP)" },
  { value: "heirloom", label: "Heirloom backup (ZIP)" },
  { value: "gedcom", label: "GEDCOM (.ged)" },
  { value: "sims4", label: "The Sims 4 save or Gallery household (.save, .trayitem)" },
] as const;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

/**
 * The import page's form: a backup file (chosen or dropped), an optional title and the file type,
 * then the upload with its progress; on success the new tree opens in the editor.
 */
export function ImportForm() {
  const router = useRouter();
  const session = useSession();
  const inputRef = useRef<HTMLInputElement>(null);
  const fileHintId = useId();
  const errorId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState("");
  const [format, setFormat] = useState("");
  const [dragging, setDragging] = useState(false);
  const [phase, setPhase] = useState<ImportPhase>({ name: "idle" });
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const tGame = useTranslations("Sims4Import");
  const [households, setHouseholds] = useState<HouseholdChoice[] | null>(null);
  const [chosenHouseholds, setChosenHouseholds] = useState<string[]>([]);
  const [reading, setReading] = useState(false);
  // the file whose households are being read: an answer for a file since replaced is dropped
  const readingFor = useRef<File | null>(null);
  const busy = phase.name !== "idle" || reading;
  // A save imports only the households the player ticked, once its list is read (issue 34: the
  // button worked while the list was still being read, and then imported the active household).
  // (a save under another name, with the file type chosen, imports its active household)
  const isSave = file !== null && isSims4File(file.name);
  const waitingForList = isSave && households === null;
  const noHousehold = isSave && households !== null && chosenHouseholds.length === 0;

  async function readHouseholds(chosen: File) {
    readingFor.current = chosen;
    setReading(true);
    try {
      const list = await listHouseholds(chosen);
      if (readingFor.current !== chosen) return;
      setHouseholds(list);
      setChosenHouseholds(list[0] ? [list[0].id] : []);
    } catch (caught) {
      if (readingFor.current !== chosen) return;
      setError(
        caught instanceof ApiRequestError && caught.detail
          ? caught.detail
          : tGame("readFailed"),
      );
    } finally {
      if (readingFor.current === chosen) setReading(false);
    }
  }

  function choose(chosen: File | null | undefined) {
    if (!chosen || busy) return;
    setFile(chosen);
    setError(null);
    setHouseholds(null);
    setChosenHouseholds([]);
    readingFor.current = null;
    if (isSims4File(chosen.name)) void readHouseholds(chosen);
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  }

  async function onSubmit() {
    if (!file) {
      setError("Choose a backup file to import");
      return;
    }
    if (waitingForList || noHousehold) return;
    setError(null);
    setPhase({ name: "uploading", fraction: 0 });
    try {
      const onProgress = (fraction: number) =>
        setPhase(fraction >= 1 ? { name: "importing" } : { name: "uploading", fraction });
      const result =
        isSave && households
          ? await importHouseholds(file, chosenHouseholds, {
              title: title.trim() || undefined,
              onProgress,
            })
          : await importTree(file, {
              title: title.trim() || undefined,
              format: format || undefined,
              fileName: file.name,
              onProgress,
            });
      const { tree, imported } = result;
      session.addTree({ _id: tree._id, title: tree.title });
      notify.success(
        `Tree imported: ${plural(imported.people, "Sim", "Sims")} and ${plural(imported.images, "image", "images")}`,
      );
      const skipped =
        typeof imported.skippedImages === "number"
          ? imported.skippedImages
          : imported.skippedImages.length;
      if (skipped > 0) {
        notify.warning(
          `${plural(skipped, "image was", "images were")} left out: not a JPG or PNG, or unreadable`,
        );
      }
      const notes = imported.notes ?? [];
      if (notes.length === 0) {
        router.push(`/trees/${encodeURIComponent(tree._id)}`);
        return;
      }
      // what the import read past stays on screen until the player opens the tree
      setPhase({ name: "idle" });
      setReport({
        treeId: tree._id,
        title: tree.title,
        people: imported.people,
        families: imported.families ?? null,
        notes,
        game: isSave,
      });
    } catch (caught) {
      setPhase({ name: "idle" });
      if (caught instanceof ApiRequestError) {
        if (caught.status === 403) return;
        if (caught.status === 401) {
          notify.error(caught.detail ?? NOT_LOGGED_IN);
          router.push("/login");
          return;
        }
        if (caught.status === 0) {
          setError("The file could not be sent. Check your connection and try again.");
          return;
        }
        if (caught.status === 413) {
          setError(caught.detail ?? "This file is too large to import");
          return;
        }
        setError(caught.detail ?? IMPORT_ERROR);
        return;
      }
      setError(IMPORT_ERROR);
    }
  }

  if (report) return <ImportReportCard report={report} onAnother={() => setReport(null)} />;

  return (
    <>
      <PageHeader
        title="Import a Tree"
        description="Bring a legacy in from a backup: a ZIP downloaded from The Plum Tree, a PruneTree or Heirloom backup, a GEDCOM file from another genealogy program, or straight from the game: a Sims 4 save (.save) or Gallery household (.trayitem). It becomes a new tree of yours; nothing you already have is changed."
      />
      <Card className="max-w-3xl">
        <form
          aria-label="Import a Tree"
          className="space-y-6"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void onSubmit();
          }}
        >
          <div className="space-y-1">
            <span className="block text-sm font-medium text-neutral-800">Backup file</span>
            <div
              onDragOver={(event) => {
                event.preventDefault();
                event.dataTransfer.dropEffect = busy ? "none" : "copy";
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              data-drop-zone=""
              data-dragging={dragging || undefined}
              className={cx(
                "flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-4 py-8 text-center",
                dragging ? "border-plum-600 bg-plum-50" : "border-plum-200 bg-white",
              )}
            >
              <p className="text-neutral-800">
                {file ? (
                  <>
                    <span className="font-semibold break-all">{file.name}</span>{" "}
                    <span className="text-neutral-600">({formatBytes(file.size)})</span>
                  </>
                ) : (
                  "Drop your backup file here, or"
                )}
              </p>
              <input
                ref={inputRef}
                id={`${fileHintId}-input`}
                type="file"
                accept={IMPORT_ACCEPT}
                disabled={busy}
                aria-describedby={`${fileHintId}${error ? ` ${errorId}` : ""}`}
                aria-invalid={error ? true : undefined}
                onChange={(event) => choose(event.target.files?.[0])}
                className="peer sr-only"
              />
              <label
                htmlFor={`${fileHintId}-input`}
                className={cx(
                  "inline-flex cursor-pointer items-center rounded-md border border-plum-200 bg-white px-4 py-2 text-sm font-medium text-plum-700 hover:bg-plum-100",
                  "peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-plum-500",
                  busy && "pointer-events-none opacity-60",
                )}
              >
                {file ? "Choose another file" : "Choose a file"}
              </label>
              <p id={fileHintId} className="text-sm text-neutral-600">
                .zip (The Plum Tree, PruneTree or Heirloom backup), .ged (GEDCOM 5.5.1 or 7), or
                a Sims 4 .save or .trayitem (
                <a href="/guides/import-from-the-sims-4" className="underline">
                  where to find them
                </a>
                )
              </p>
            </div>
          </div>
          {reading && (
            <p role="status" className="text-sm text-neutral-700" data-sims4-reading="">
              {tGame("reading")}
            </p>
          )}
          {households && (
            <Sims4Households
              households={households}
              selected={chosenHouseholds}
              onChange={setChosenHouseholds}
              disabled={busy}
            />
          )}
          <TextField
            label="Title (optional)"
            name="title"
            value={title}
            maxLength={TITLE_MAX}
            autoComplete="off"
            disabled={busy}
            hint="Leave empty to keep the title saved in the backup."
            onChange={(event) => setTitle(event.target.value)}
          />
          <label className="block space-y-1">
            <span className="block text-sm font-medium text-neutral-800">File type</span>
            <select
              value={format}
              disabled={busy}
              onChange={(event) => setFormat(event.target.value)}
              className={inputClasses}
            >
              {FORMATS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          {error && (
            <p
              id={errorId}
              role="alert"
              data-import-error=""
              className="rounded-md bg-red-50 p-3 text-sm text-red-800"
            >
              {error}
            </p>
          )}
          <ImportProgress phase={phase} />
          <div className="flex flex-wrap gap-3">
            <Button
              type="submit"
              busy={busy}
              disabled={busy || waitingForList || noHousehold}
              data-import-submit=""
            >
              Import Tree
            </Button>
          </div>
        </form>
      </Card>
    </>
  );
}
