"use client";
import { useTranslations } from "next-intl";
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from "react";
import { simName } from "@/components/tree-canvas/labels";
import { cx } from "@/components/ui/class-names";
import type { Person } from "@/lib/schemas/person";
import type { FindController } from "./find-controller";
import { buildSearchIndex, searchSims } from "./search-index";

export interface FindSimProps {
  people: ReadonlyMap<string, Person>;
  controller: FindController;
  /** A Sim's generation, shown beside their name. */
  generationOf?: (personId: string) => number | undefined;
  className?: string;
}

/** Whether a key press comes from a place where "/" is typed, not a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return Boolean(
    element?.closest?.("input, textarea, select, [contenteditable='true'], dialog[open]"),
  );
}

/** Below this width (px) the field is too narrow to type in: it spans the screen while focused. */
const NARROW = 160;
/** The gap kept between the widened field (and its list) and the screen's edges. */
const EDGE = 8;

/**
 * "Find a Sim": a combobox (ARIA 1.2, list autocomplete) over first and last names, ignoring
 * case and accents; "/" focuses it. Enter or a click picks the active option.
 */
export function FindSim({ people, controller, generationOf, className }: FindSimProps) {
  const t = useTranslations("FindSim");
  const listId = useId();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  // Where a narrow field (the editor's toolbar on a phone) is drawn while it is focused: across
  // the screen, at its own height, with its list under it, so that what is typed can be read.
  const [wide, setWide] = useState<{ top: number; bottom: number } | null>(null);
  const index = useMemo(() => buildSearchIndex(people.values()), [people]);
  const options = useMemo(() => searchSims(index, text), [index, text]);
  const { inputRef, relateFrom } = controller;
  const relating = relateFrom ? people.get(relateFrom) : undefined;

  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "/" || event.defaultPrevented || event.ctrlKey || event.metaKey) return;
      if (isTyping(event.target)) return;
      event.preventDefault();
      inputRef.current?.focus();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [inputRef]);

  // For the benchmark: when the options for the typed text are on screen.
  useEffect(() => {
    if (text) performance.mark("heirloom:find-options");
  }, [options, text]);

  function choose(personId: string) {
    controller.pick(personId);
    setText("");
    setOpen(false);
    setActive(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setOpen(true);
      setActive((at) => Math.min(at + 1, options.length - 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((at) => Math.max(at - 1, 0));
    } else if (event.key === "Enter") {
      const option = options[active];
      if (open && option) {
        event.preventDefault();
        choose(option.id);
      }
    } else if (event.key === "Escape") {
      if (open && text) {
        event.preventDefault();
        event.stopPropagation();
        setOpen(false);
      } else if (relateFrom) {
        event.preventDefault();
        controller.cancelRelate();
      }
    }
  }

  const showList = open && text.trim() !== "";
  const optionId = (at: number) => `${listId}-option-${at}`;
  return (
    <div className={cx("relative min-w-0", className)}>
      <input
        ref={inputRef}
        type="search"
        role="combobox"
        aria-label={t("label")}
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && options[active] ? optionId(active) : undefined}
        aria-keyshortcuts="/"
        autoComplete="off"
        spellCheck={false}
        placeholder={
          relating ? t("relatedTo", { name: simName(relating) }) : t("placeholder", { key: "/" })
        }
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={(event) => {
          setOpen(true);
          const box = event.currentTarget.getBoundingClientRect();
          setWide(box.width < NARROW ? { top: box.top, bottom: box.bottom } : null);
        }}
        onBlur={() => {
          setOpen(false);
          setWide(null);
        }}
        data-widened={wide ? "" : undefined}
        style={
          wide
            ? {
                position: "fixed",
                top: wide.top,
                left: EDGE,
                right: EDGE,
                width: "auto",
                zIndex: 50,
              }
            : undefined
        }
        onKeyDown={onKeyDown}
        className={cx(
          "h-9 w-full rounded-md border bg-white px-3 text-sm placeholder:text-neutral-500 focus:outline-2 focus:outline-plum-500",
          relating ? "border-amber-500" : "border-plum-200",
        )}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={t("found")}
        hidden={!showList}
        style={
          wide
            ? { position: "fixed", top: wide.bottom, left: EDGE, right: EDGE, width: "auto" }
            : undefined
        }
        className="absolute top-full right-0 z-50 mt-1 max-h-80 w-72 max-w-[calc(100vw-1rem)] overflow-y-auto rounded-md border border-plum-200 bg-white py-1 shadow-lg"
      >
        {options.map((option, at) => {
          const generation = generationOf?.(option.id);
          return (
            <li
              key={option.id}
              id={optionId(at)}
              role="option"
              aria-selected={at === active}
              // A press on an option must not blur the field before the click picks it.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(option.id)}
              onMouseMove={() => setActive(at)}
              className={cx(
                "flex cursor-pointer items-baseline justify-between gap-3 px-3 py-1.5 text-sm",
                at === active ? "bg-plum-100 text-plum-900" : "text-neutral-800",
              )}
            >
              <span className="truncate">{simName(option.person)}</span>
              {generation !== undefined && (
                <span className="shrink-0 text-xs text-neutral-500">
                  {t("generation", { generation })}
                </span>
              )}
            </li>
          );
        })}
        {options.length === 0 && (
          <li role="presentation" className="px-3 py-1.5 text-sm text-neutral-600">
            {t("none")}
          </li>
        )}
      </ul>
    </div>
  );
}
