"use client";
import { IntentLink } from "@/components/ui/intent-link";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { readCanvasViewport } from "@/lib/tree-image/canvas-viewport";
import { ExportImageDialog } from "@/components/tree-export/export-image-dialog";
import { cx, focusRing } from "@/components/ui/class-names";
import { DropdownButton, DropdownLink, DropdownMenu } from "@/components/ui/dropdown-menu";
import { downloadExport, type ExportFormat } from "@/lib/client/api";
import type { Person } from "@/lib/schemas/person";
import type { TreeLayout } from "@/lib/tree/layout";
import type { SaveStatus } from "./tree-saver";
import { useUpdateFromSave } from "@/components/tree-import/update-from-save";
import { PublicationBadge } from "@/components/account/publication-badge";
import { usePublication } from "@/components/account/publications";

/** The toolbar's height, which is also where the panels start (SPEC.md section 2). */
export const TOOLBAR_HEIGHT = 65;

const STATUS_TEXT: Record<SaveStatus, string> = {
  saved: "All changes saved",
  pending: "Unsaved changes",
  saving: "Saving…",
  // Not SPEC.md's: the changes wait on this device for the connection (issue 32).
  kept: "Kept on this device, not saved yet",
  error: "Changes not saved",
  conflict: "Not saved: changed elsewhere",
};

export interface EditorToolbarProps {
  treeId: string;
  preview: boolean;
  onPreviewChange: (preview: boolean) => void;
  onSave: () => void;
  onDelete: () => void;
  status: SaveStatus;
  /** The tree as laid out now, for Export image. */
  layout: TreeLayout;
  people: ReadonlyMap<string, Person>;
  title: string;
  /** Saves pending changes, so that an exported backup holds them. */
  onFlush: () => Promise<void>;
  /** Undo and redo of structure edits; undefined when there is nothing to undo or redo. */
  onUndo?: () => void;
  onRedo?: () => void;
  /** The Find a Sim field. */
  find?: React.ReactNode;
}

const historyButton = cx(
  "flex size-9 items-center justify-center rounded-md text-plum-800 hover:bg-plum-50 disabled:cursor-not-allowed disabled:text-neutral-300 disabled:hover:bg-transparent",
  focusRing,
);

/** Undo and Redo, as icons with their shortcut in the tooltip, at every screen size. */
function HistoryButtons({ onUndo, onRedo }: Pick<EditorToolbarProps, "onUndo" | "onRedo">) {
  const arrow = {
    stroke: "currentColor",
    strokeWidth: 2,
    strokeLinecap: "round",
    strokeLinejoin: "round",
  } as const;
  return (
    <div className="flex items-center" role="group" aria-label="History">
      <button
        type="button"
        aria-label="Undo"
        aria-keyshortcuts="Control+Z"
        title="Undo (Ctrl+Z)"
        disabled={!onUndo}
        onClick={onUndo}
        className={historyButton}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none">
          <path d="M9 14L4 9l5-5" {...arrow} />
          <path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11" {...arrow} />
        </svg>
      </button>
      <button
        type="button"
        aria-label="Redo"
        aria-keyshortcuts="Control+Shift+Z"
        title="Redo (Ctrl+Shift+Z)"
        disabled={!onRedo}
        onClick={onRedo}
        className={historyButton}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none">
          <path d="M15 14l5-5-5-5" {...arrow} />
          <path d="M20 9H9.5a5.5 5.5 0 0 0 0 11H13" {...arrow} />
        </svg>
      </button>
    </div>
  );
}

function PreviewToggle({
  preview,
  onPreviewChange,
}: Pick<EditorToolbarProps, "preview" | "onPreviewChange">) {
  return (
    <label className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm font-medium">
      <input
        type="checkbox"
        checked={preview}
        onChange={(event) => onPreviewChange(event.target.checked)}
        className="size-4 accent-plum-600"
      />
      Preview
    </label>
  );
}

/** "Publish Tree" with the tree's publication mark: Public, or Gallery when listed (issue 25). */
function PublishItem({ treeId }: { treeId: string }) {
  const publication = usePublication(treeId);
  return (
    <span className="flex items-center justify-between gap-3">
      Publish Tree
      <PublicationBadge publication={publication} />
    </span>
  );
}

const mobileItem = cx(
  "block w-full rounded-md px-3 py-2 text-left text-sm hover:bg-plum-50",
  focusRing,
);

/**
 * "Tree Editor" with the Actions and Edit menus and the Preview checkbox; on small screens the
 * same items sit in a hamburger menu under the headings Actions, Edit and Preview. Every menu
 * closes when the window is resized.
 */
export function EditorToolbar(props: EditorToolbarProps) {
  const { treeId, onSave, onDelete, status, onFlush } = props;
  const [mobileOpen, setMobileOpen] = useState(false);
  const [imageOpen, setImageOpen] = useState(false);
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const updateFromSave = useUpdateFromSave(treeId, onFlush, status);
  const rootRef = useRef<HTMLDivElement>(null);
  // The canvas is the toolbar's sibling in the editor.
  const getViewport = useCallback(
    () =>
      rootRef.current?.parentElement ? readCanvasViewport(rootRef.current.parentElement) : null,
    [],
  );
  // The shared dropdowns keep their own open state; a new key on resize closes them.
  const [resizes, setResizes] = useState(0);
  const mobileId = useId();
  const base = `/trees/${encodeURIComponent(treeId)}`;

  useEffect(() => {
    const onResize = () => {
      setMobileOpen(false);
      setResizes((count) => count + 1);
    };
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);

  useEffect(() => {
    if (!mobileOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMobileOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [mobileOpen]);

  const act = (action: () => void) => () => {
    setMobileOpen(false);
    action();
  };

  async function exportFile(format: ExportFormat) {
    if (exporting) return;
    setExporting(format);
    try {
      if (status !== "saved") await onFlush();
      await downloadExport(treeId, format);
    } catch {
      // downloadExport and the save have told the user.
    } finally {
      setExporting(null);
    }
  }
  const exportBackup = () => void exportFile("zip");
  const exportGedcom = () => void exportFile("gedcom");
  const openImageExport = () => setImageOpen(true);

  return (
    <div ref={rootRef} className="relative z-30" aria-busy={exporting !== null || undefined}>
      {updateFromSave.input}
      <div
        style={{ height: TOOLBAR_HEIGHT }}
        className="flex items-center gap-3 border-b border-plum-100 bg-white px-4"
      >
        <h1 className="text-lg font-bold whitespace-nowrap text-plum-900">Tree Editor</h1>
        <p
          role="status"
          data-save-status={status}
          className={cx(
            // Two short lines on a phone rather than "All changes sa…".
            "line-clamp-2 min-w-0 text-xs leading-tight",
            status === "error" || status === "conflict"
              ? "text-red-700"
              : status === "kept"
                ? "font-medium text-amber-800"
                : "text-neutral-500",
          )}
        >
          {STATUS_TEXT[status]}
        </p>
        {props.find && <div className="ml-auto w-32 shrink sm:w-56">{props.find}</div>}
        <div className={props.find ? undefined : "ml-auto"}>
          <HistoryButtons onUndo={props.onUndo} onRedo={props.onRedo} />
        </div>
        <div className="hidden items-center gap-1 md:flex">
          <DropdownMenu
            key={`actions-${resizes}`}
            label="Actions"
            buttonClassName="hover:bg-plum-50"
          >
            <DropdownButton onClick={onSave}>Save Tree</DropdownButton>
            <DropdownLink href={`${base}/publish`}>
              <PublishItem treeId={treeId} />
            </DropdownLink>
            <DropdownButton onClick={onDelete}>Delete Tree</DropdownButton>
            <DropdownLink href="/trees/import">Import</DropdownLink>
            <DropdownButton onClick={updateFromSave.open} disabled={updateFromSave.busy}>
              Update from a newer save
            </DropdownButton>
            <DropdownButton onClick={exportBackup} disabled={exporting !== null}>
              Export backup
            </DropdownButton>
            <DropdownButton onClick={exportGedcom} disabled={exporting !== null}>
              Export GEDCOM
            </DropdownButton>
            <DropdownButton onClick={openImageExport}>Export image</DropdownButton>
          </DropdownMenu>
          <DropdownMenu key={`edit-${resizes}`} label="Edit" buttonClassName="hover:bg-plum-50">
            <DropdownLink href={`${base}/details`}>Tree Details</DropdownLink>
            <DropdownLink href={`${base}/people`}>People in Tree</DropdownLink>
          </DropdownMenu>
          <PreviewToggle {...props} />
        </div>
        <button
          type="button"
          aria-label="Editor menu"
          aria-expanded={mobileOpen}
          aria-controls={mobileId}
          onClick={() => setMobileOpen((open) => !open)}
          className={cx("rounded-md p-2 hover:bg-plum-50 md:hidden", focusRing)}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 stroke-current" fill="none">
            <path d="M4 7h16M4 12h16M4 17h16" strokeWidth={2} strokeLinecap="round" />
          </svg>
        </button>
      </div>
      <nav
        id={mobileId}
        aria-label="Editor menu"
        hidden={!mobileOpen}
        className="absolute inset-x-0 top-full space-y-4 border-b border-plum-100 bg-white p-4 shadow-lg md:hidden"
      >
        <section className="space-y-1">
          <h2 className="px-3 text-xs font-semibold tracking-wide text-plum-900 uppercase">
            Actions
          </h2>
          <button type="button" className={mobileItem} onClick={act(onSave)}>
            Save Tree
          </button>
          <IntentLink href={`${base}/publish`} className={mobileItem}>
            <PublishItem treeId={treeId} />
          </IntentLink>
          <button type="button" className={mobileItem} onClick={act(onDelete)}>
            Delete Tree
          </button>
          <IntentLink href="/trees/import" className={mobileItem}>
            Import
          </IntentLink>
          <button type="button" className={mobileItem} onClick={act(updateFromSave.open)}>
            Update from a newer save
          </button>
          <button
            type="button"
            className={mobileItem}
            onClick={act(exportBackup)}
            disabled={exporting !== null}
          >
            Export backup
          </button>
          <button
            type="button"
            className={mobileItem}
            onClick={act(exportGedcom)}
            disabled={exporting !== null}
          >
            Export GEDCOM
          </button>
          <button type="button" className={mobileItem} onClick={act(openImageExport)}>
            Export image
          </button>
        </section>
        <section className="space-y-1">
          <h2 className="px-3 text-xs font-semibold tracking-wide text-plum-900 uppercase">Edit</h2>
          <IntentLink href={`${base}/details`} className={mobileItem}>
            Tree Details
          </IntentLink>
          <IntentLink href={`${base}/people`} className={mobileItem}>
            People in Tree
          </IntentLink>
        </section>
        <section>
          <h2 className="px-3 text-xs font-semibold tracking-wide text-plum-900 uppercase">
            Preview
          </h2>
          <PreviewToggle {...props} />
        </section>
      </nav>
      <ExportImageDialog
        open={imageOpen}
        onClose={() => setImageOpen(false)}
        layout={props.layout}
        people={props.people}
        title={props.title}
        getViewport={getViewport}
      />
    </div>
  );
}
