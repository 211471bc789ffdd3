"use client";
import { useCallback, useEffect, useState } from "react";
import { TreeCanvas } from "@/components/tree-canvas/tree-canvas";
import { Button } from "@/components/ui/button";
import type { Person } from "@/lib/schemas/person";
import type { TreeLayout } from "@/lib/tree/layout";
import { PersonDetailsPanel } from "./person-details-panel";
import { TreeInfoPanel, type TreeInfo } from "./tree-info-panel";

export interface TreeWorkspaceProps {
  treeId: string;
  info: TreeInfo;
  layout: TreeLayout;
  people: ReadonlyMap<string, Person>;
  /** Nodes without background and buttons. */
  preview: boolean;
  /** No Edit link in the details panel. */
  readOnly: boolean;
  /** 65 in the editor (under its toolbar), 0 in the public view. */
  panelTop: number;
  /** A Sim whose panel is open, and who is centred, when the canvas opens. */
  initialPersonId?: string | null;
  onEditNode?: (key: string) => void;
  onAddChild?: (key: string) => void;
}

/**
 * The canvas with its Tree Info button and the two panels. The panels are positioned against
 * the nearest positioned ancestor: the editor (under its toolbar) or the public view.
 */
export function TreeWorkspace({
  treeId,
  info,
  layout,
  people,
  preview,
  readOnly,
  panelTop,
  initialPersonId,
  onEditNode,
  onAddChild,
}: TreeWorkspaceProps) {
  const [selectedId, setSelectedId] = useState<string | null>(() =>
    initialPersonId && people.has(initialPersonId) ? initialPersonId : null,
  );
  const [infoOpen, setInfoOpen] = useState(false);
  // Which panel was opened last, so Escape closes the one on top first.
  const [lastOpened, setLastOpened] = useState<"details" | "info">("details");
  const selected = selectedId ? people.get(selectedId) : undefined;
  const selectPerson = useCallback((personId: string) => {
    setSelectedId(personId);
    setLastOpened("details");
  }, []);

  // Escape closes the topmost panel. A modal (the node editor, a confirmation) and anything that
  // already handled the key (a menu, a select, the canvas's link list) come first.
  const detailsOpen = selected !== undefined;
  useEffect(() => {
    if (!detailsOpen && !infoOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      if (document.querySelector("dialog[open]")) return;
      event.preventDefault();
      if (detailsOpen && (!infoOpen || lastOpened === "details")) setSelectedId(null);
      else setInfoOpen(false);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [detailsOpen, infoOpen, lastOpened]);

  return (
    <>
      <div className="min-h-0 flex-1">
        <TreeCanvas
          layout={layout}
          people={people}
          preview={preview}
          label={`Family tree: ${info.title || "Untitled Tree"}`}
          focusPersonId={initialPersonId}
          onSelectPerson={selectPerson}
          onEditNode={onEditNode}
          onAddChild={onAddChild}
        >
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={infoOpen}
            onClick={() => {
              setInfoOpen((open) => !open);
              setLastOpened("info");
            }}
            className="absolute top-3 left-3 z-10 shadow"
          >
            Tree Info
          </Button>
        </TreeCanvas>
      </div>
      {selected && (
        <PersonDetailsPanel
          person={selected}
          treeId={treeId}
          layout={layout}
          people={people}
          readOnly={readOnly}
          top={panelTop}
          onClose={() => setSelectedId(null)}
          onSelectPerson={selectPerson}
        />
      )}
      {infoOpen && <TreeInfoPanel info={info} top={panelTop} onClose={() => setInfoOpen(false)} />}
    </>
  );
}
