"use client";
import { useEffect, useMemo, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useFindController } from "@/components/find-sim/find-controller";
import { FindSim } from "@/components/find-sim/find-sim";
import { TreeWorkspace } from "@/components/tree-editor/tree-workspace";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { layoutTree } from "@/lib/tree/layout";
import { buildKinship } from "@/lib/tree/placements";

/** Where the public page's header keeps a place for the Find field (app/public/[treeId]/layout.tsx). */
export const FIND_SLOT_ID = "find-a-sim";

export interface PublicTreeViewProps {
  tree: Pick<Tree, "_id" | "title" | "description" | "cover" | "data" | "heirs">;
  people: Person[];
  /** From ?p=: this Sim's panel is open and the Sim is centred. */
  initialPersonId?: string | null;
}

/** How long the "hold Ctrl to zoom" hint stays after the wheel last scrolled past the tree. */
const HINT_MS = 1_500;

/**
 * The read-only canvas of a published tree: no buttons or node backgrounds, panels at the top,
 * no Edit link. It fills its container, which must have a height.
 *
 * As map widgets do, the wheel scrolls the page and only zooms the tree while the canvas has
 * focus (after a click or Tab) or while Ctrl (⌘ on a Mac) is held; a hint says so.
 */
export function PublicTreeView({ tree, people, initialPersonId }: PublicTreeViewProps) {
  const peopleById = useMemo(() => new Map(people.map((person) => [person._id, person])), [people]);
  const layout = useMemo(() => layoutTree(tree.data, peopleById), [tree.data, peopleById]);
  const frame = useRef<HTMLDivElement>(null);
  const [hint, setHint] = useState(false);
  const find = useFindController();
  const generations = useMemo(() => buildKinship(tree.data).generation, [tree.data]);
  // rendered in the browser only, once the snapshot has loaded: the header is there
  const [slot] = useState(() =>
    typeof document === "undefined" ? null : document.getElementById(FIND_SLOT_ID),
  );
  const findField = (
    <FindSim
      people={peopleById}
      controller={find}
      generationOf={(id) => generations.get(id)}
      className="w-32 sm:w-60"
    />
  );

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Capturing on the frame runs before the canvas's own (zooming) wheel listener; stopping the
    // event here, without preventDefault, leaves the browser to scroll the page.
    const onWheel = (event: WheelEvent) => {
      const canvas = element.querySelector("svg[role=application]");
      const focused = canvas !== null && canvas === document.activeElement;
      if (focused || event.ctrlKey || event.metaKey) return;
      if (!canvas?.contains(event.target as Node)) return;
      event.stopPropagation();
      setHint(true);
      clearTimeout(timer);
      timer = setTimeout(() => setHint(false), HINT_MS);
    };
    element.addEventListener("wheel", onWheel, { capture: true, passive: true });
    return () => {
      element.removeEventListener("wheel", onWheel, { capture: true });
      clearTimeout(timer);
    };
  }, []);

  return (
    <div ref={frame} className="relative flex h-full min-h-[320px] flex-col overflow-hidden">
      <TreeWorkspace
        treeId={tree._id}
        info={tree}
        layout={layout}
        people={peopleById}
        preview
        readOnly
        panelTop={0}
        initialPersonId={initialPersonId}
        find={find}
        heirs={tree.heirs}
        onFound={(personId) => {
          // the address a reader can share, as the ?p= deep links are
          const url = new URL(window.location.href);
          url.searchParams.set("p", personId);
          window.history.replaceState(window.history.state, "", url);
        }}
      />
      {slot ? (
        createPortal(findField, slot)
      ) : (
        <div className="absolute top-3 right-3 z-10">{findField}</div>
      )}
      <p
        role="status"
        className={`pointer-events-none absolute bottom-3 left-1/2 z-10 -translate-x-1/2 rounded-full bg-plum-900/85 px-4 py-2 text-sm text-white shadow transition-opacity ${
          hint ? "opacity-100" : "opacity-0"
        }`}
      >
        {hint ? "To zoom, hold Ctrl while scrolling, or click the tree first" : ""}
      </p>
    </div>
  );
}
