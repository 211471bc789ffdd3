"use client";
import Link from "next/link";
import { useEffect, useId, useState } from "react";
import { cx, focusRing } from "@/components/ui/class-names";
import { DropdownButton, DropdownLink, DropdownMenu } from "@/components/ui/dropdown-menu";
import type { SaveStatus } from "./tree-saver";

/** The toolbar's height, which is also where the panels start (SPEC.md section 2). */
export const TOOLBAR_HEIGHT = 65;

const STATUS_TEXT: Record<SaveStatus, string> = {
  saved: "All changes saved",
  pending: "Unsaved changes",
  saving: "Saving…",
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
  const { treeId, onSave, onDelete, status } = props;
  const [mobileOpen, setMobileOpen] = useState(false);
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

  return (
    <div className="relative z-30">
      <div
        style={{ height: TOOLBAR_HEIGHT }}
        className="flex items-center gap-3 border-b border-plum-100 bg-white px-4"
      >
        <h1 className="text-lg font-bold whitespace-nowrap text-plum-900">Tree Editor</h1>
        <p
          role="status"
          data-save-status={status}
          className={cx(
            "truncate text-xs",
            status === "error" || status === "conflict" ? "text-red-700" : "text-neutral-500",
          )}
        >
          {STATUS_TEXT[status]}
        </p>
        <div className="ml-auto hidden items-center gap-1 md:flex">
          <DropdownMenu
            key={`actions-${resizes}`}
            label="Actions"
            buttonClassName="hover:bg-plum-50"
          >
            <DropdownButton onClick={onSave}>Save Tree</DropdownButton>
            <DropdownLink href={`${base}/publish`}>Publish Tree</DropdownLink>
            <DropdownButton onClick={onDelete}>Delete Tree</DropdownButton>
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
          className={cx("ml-auto rounded-md p-2 hover:bg-plum-50 md:hidden", focusRing)}
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
          <Link href={`${base}/publish`} className={mobileItem}>
            Publish Tree
          </Link>
          <button type="button" className={mobileItem} onClick={act(onDelete)}>
            Delete Tree
          </button>
        </section>
        <section className="space-y-1">
          <h2 className="px-3 text-xs font-semibold tracking-wide text-plum-900 uppercase">Edit</h2>
          <Link href={`${base}/details`} className={mobileItem}>
            Tree Details
          </Link>
          <Link href={`${base}/people`} className={mobileItem}>
            People in Tree
          </Link>
        </section>
        <section>
          <h2 className="px-3 text-xs font-semibold tracking-wide text-plum-900 uppercase">
            Preview
          </h2>
          <PreviewToggle {...props} />
        </section>
      </nav>
    </div>
  );
}
