"use client";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { richTextExtensions } from "./extensions";
import { canIndentListItem } from "./list-depth";
import { RICH_TEXT_CLASSES } from "./rich-text-content";

interface RichTextEditorProps {
  label: string;
  /** HTML; read once when the editor starts (forms render it after their data has loaded). */
  initialValue: string;
  /** Called with the editor's HTML, or "" when it is empty. */
  onChange: (html: string) => void;
  /** A short hint read after the label. */
  description?: string;
}

interface ToolbarState {
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  bulletList: boolean;
  orderedList: boolean;
  canIndent: boolean;
  canOutdent: boolean;
}

interface ToolbarAction {
  key: string;
  label: string;
  shortcut: string;
  glyph: React.ReactNode;
  /** Marks and lists are toggles (aria-pressed); indent and outdent are plain buttons. */
  pressed?: (state: ToolbarState) => boolean;
  enabled?: (state: ToolbarState) => boolean;
  run: (editor: Editor) => void;
}

const ACTIONS: ToolbarAction[] = [
  {
    key: "bold",
    label: "Bold",
    shortcut: "Control+B",
    glyph: <span className="font-bold">B</span>,
    pressed: (s) => s.bold,
    run: (e) => e.chain().focus().toggleBold().run(),
  },
  {
    key: "italic",
    label: "Italic",
    shortcut: "Control+I",
    glyph: <span className="font-serif italic">I</span>,
    pressed: (s) => s.italic,
    run: (e) => e.chain().focus().toggleItalic().run(),
  },
  {
    key: "underline",
    label: "Underline",
    shortcut: "Control+U",
    glyph: <span className="underline">U</span>,
    pressed: (s) => s.underline,
    run: (e) => e.chain().focus().toggleUnderline().run(),
  },
  {
    key: "strike",
    label: "Strikethrough",
    shortcut: "Control+Shift+S",
    glyph: <span className="line-through">S</span>,
    pressed: (s) => s.strike,
    run: (e) => e.chain().focus().toggleStrike().run(),
  },
  {
    key: "bulletList",
    label: "Bulleted list",
    shortcut: "Control+Shift+8",
    glyph: <span aria-hidden>• ≡</span>,
    pressed: (s) => s.bulletList,
    run: (e) => e.chain().focus().toggleBulletList().run(),
  },
  {
    key: "orderedList",
    label: "Numbered list",
    shortcut: "Control+Shift+7",
    glyph: <span aria-hidden>1. ≡</span>,
    pressed: (s) => s.orderedList,
    run: (e) => e.chain().focus().toggleOrderedList().run(),
  },
  {
    key: "outdent",
    label: "Decrease list level",
    shortcut: "Shift+Tab",
    glyph: <span aria-hidden>⇤</span>,
    enabled: (s) => s.canOutdent,
    run: (e) => e.chain().focus().liftListItem("listItem").run(),
  },
  {
    key: "indent",
    label: "Increase list level (at most 4)",
    shortcut: "Tab",
    glyph: <span aria-hidden>⇥</span>,
    enabled: (s) => s.canIndent,
    run: (e) => e.chain().focus().sinkListItem("listItem").run(),
  },
];

function readToolbarState(editor: Editor): ToolbarState {
  return {
    bold: editor.isActive("bold"),
    italic: editor.isActive("italic"),
    underline: editor.isActive("underline"),
    strike: editor.isActive("strike"),
    bulletList: editor.isActive("bulletList"),
    orderedList: editor.isActive("orderedList"),
    canIndent: canIndentListItem(editor.state),
    canOutdent: editor.can().liftListItem("listItem"),
  };
}

/**
 * The rich-text field of descriptions and bios: bold, italic, underline, strike and lists nested
 * at most four deep, with a WAI-ARIA toolbar (one tab stop, arrow keys move between buttons).
 */
export function RichTextEditor({
  label,
  initialValue,
  onChange,
  description,
}: RichTextEditorProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  const toolbarRef = useRef<HTMLDivElement>(null);
  const [focusIndex, setFocusIndex] = useState(0);

  const editor = useEditor({
    extensions: richTextExtensions,
    content: initialValue,
    // The server has no DOM; the editor mounts after hydration.
    immediatelyRender: false,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        ...(description ? { "aria-describedby": hintId } : {}),
        class: `${RICH_TEXT_CLASSES} min-h-32 px-3 py-2 outline-none`,
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? "" : current.getHTML()),
  });

  const selected = useEditorState({
    editor,
    selector: ({ editor: current }) => (current ? readToolbarState(current) : null),
  });
  // The selector first runs before the editor exists and again only on a transaction.
  const state = selected ?? (editor ? readToolbarState(editor) : null);

  // Roving focus inside the toolbar (WAI-ARIA toolbar pattern).
  function onToolbarKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const buttons = Array.from(
      toolbarRef.current?.querySelectorAll<HTMLButtonElement>("button") ?? [],
    );
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % buttons.length
        : event.key === "ArrowLeft"
          ? (index - 1 + buttons.length) % buttons.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? buttons.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    setFocusIndex(next);
    buttons[next]?.focus();
  }

  return (
    <div className="flex flex-col gap-1">
      <span id={labelId} className="text-sm font-medium text-neutral-800">
        {label}
      </span>
      {description ? (
        <span id={hintId} className="text-xs text-neutral-600">
          {description}
        </span>
      ) : null}
      <div className="rounded-md border border-neutral-300 bg-white focus-within:border-plum-500 focus-within:ring-2 focus-within:ring-plum-200">
        <div
          ref={toolbarRef}
          role="toolbar"
          aria-label={`${label} formatting`}
          aria-controls={`${id}-content`}
          onKeyDown={onToolbarKeyDown}
          className="flex flex-wrap gap-1 border-b border-neutral-200 p-1"
        >
          {ACTIONS.map((action, index) => {
            const enabled = Boolean(editor && state && (action.enabled?.(state) ?? true));
            const pressed = action.pressed && state ? action.pressed(state) : undefined;
            return (
              <button
                key={action.key}
                type="button"
                tabIndex={index === focusIndex ? 0 : -1}
                onFocus={() => setFocusIndex(index)}
                aria-label={action.label}
                aria-pressed={action.pressed ? Boolean(pressed) : undefined}
                aria-keyshortcuts={action.shortcut}
                title={`${action.label} (${action.shortcut.replace("Control", "Ctrl")})`}
                aria-disabled={!enabled}
                // A pointer press leaves the focus (and the selection) in the text: the command's
                // own focus() returns it only on the next frame, and a key typed before then
                // would land on the button (a space pressing it again) instead of in the text.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => {
                  if (editor && enabled) action.run(editor);
                }}
                className={`min-w-9 rounded px-2 py-1 text-sm focus-visible:ring-2 focus-visible:ring-plum-500 focus-visible:outline-none ${
                  pressed ? "bg-plum-100 text-plum-900" : "text-neutral-800 hover:bg-neutral-100"
                } ${enabled ? "" : "cursor-not-allowed opacity-40"}`}
              >
                {action.glyph}
              </button>
            );
          })}
        </div>
        <EditorContent id={`${id}-content`} editor={editor} />
      </div>
    </div>
  );
}
