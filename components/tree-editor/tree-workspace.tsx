"use client";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { FindController, FindRequest } from "@/components/find-sim/find-controller";
import { relateWithGender, type LoadWhole } from "@/components/find-sim/relate";
import { FounderButton } from "@/components/legacy/legacy-panel";
import { MarksLegend } from "@/components/legacy/marks-legend";
import type { CanvasDecor } from "@/components/tree-canvas/decor";
import { TreeCanvas } from "@/components/tree-canvas/tree-canvas";
import { Button } from "@/components/ui/button";
import { loadPersonDetails, needsDetails } from "@/lib/client/canvas-people";
import type { Person } from "@/lib/schemas/person";
import type { TreeLayout } from "@/lib/tree/layout";
import { buildKinship, otherPlacements } from "@/lib/tree/placements";
import { heirLineChain } from "@/lib/legacy/heir-line";
import { founderOf } from "@/lib/legacy/next-heir";
import type { Relationship } from "@/lib/tree/relationship";
import { FindDetails } from "./find-details";
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
  /** The Find field's picks (it sits in the toolbar or the header). */
  find?: FindController;
  /** The heirs' ids (at most one per generation). */
  heirs?: readonly string[];
  /** Marks or unmarks a Sim as the heir of their generation; undefined when read-only. */
  onToggleHeir?: (personId: string) => void;
  /** A Sim was found: the public view puts ?p= in the address. */
  onFound?: (personId: string) => void;
  /** The legacy's founder (Generation 1, issue 33); null or undefined for the root's Sim. */
  founder?: string | null;
  /** Makes a Sim the legacy's founder (the Sim panel's button); undefined when read-only. */
  onMakeFounder?: (personId: string) => void;
  /** More buttons over the canvas, after the marks' legend (the editor's Legacy button). */
  tools?: ReactNode;
}

/** The editor's people come without their custom rows (ADR 032): the Gender row is fetched. */
const loadWhole: LoadWhole = (person) => (needsDetails(person) ? loadPersonDetails(person) : null);

/** The details panel's width on a wide screen (max-w-sm): a found Sim is centred beside it. */
const PANEL_WIDTH = 384;

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
  find,
  heirs,
  onToggleHeir,
  onFound,
  founder,
  onMakeFounder,
  tools,
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

  const kin = useMemo(
    () => (layout.nodes[0] ? buildKinship(layout.nodes[0].node, founder) : null),
    [layout, founder],
  );
  const founderId = useMemo(() => (kin ? founderOf(kin, founder) : null), [kin, founder]);
  const [focus, setFocus] = useState<{ key: string; nonce: number } | null>(null);
  const centre = useCallback((key: string) => {
    setFocus((last) => ({ key, nonce: (last?.nonce ?? 0) + 1 }));
  }, []);
  const [outlined, setOutlined] = useState<ReadonlySet<string>>(() => new Set());
  const [relation, setRelation] = useState<{ from: string; answer: Relationship } | null>(null);
  // The last relation asked: an answer that arrives after another pick is dropped.
  const asked = useRef(0);
  const [showHeirLine, setShowHeirLine] = useState(false);

  // A pick in the Find field: centre that Sim and open their panel, or answer the relation asked.
  const onPick = useCallback(
    (request: FindRequest) => {
      if (!kin) return;
      const home = kin.placements.get(request.personId)?.[0];
      const ask = (asked.current += 1);
      const from = request.relateFrom;
      if (from && from !== request.personId) {
        setRelation(null);
        // the sentence is in the words of the picked Sim's Gender row, which may need a fetch
        void relateWithGender(kin, people, request.personId, from, loadWhole).then((answer) => {
          if (asked.current === ask) setRelation({ from, answer });
        });
        setSelectedId(from);
      } else {
        setRelation(null);
        selectPerson(request.personId);
        onFound?.(request.personId);
      }
      if (home) centre(home.nodeKey);
    },
    [kin, people, selectPerson, onFound, centre],
  );
  const listen = find?.listen;
  useEffect(() => listen?.(onPick), [listen, onPick]);

  const heirGenerations = useMemo(() => {
    const map = new Map<string, number>();
    for (const id of heirs ?? []) {
      const generation = kin?.generation.get(id);
      if (generation !== undefined) map.set(id, generation);
    }
    return map;
  }, [heirs, kin]);
  const others = useMemo(() => {
    const map = new Map<string, number>();
    for (const [id, list] of kin?.placements ?? []) {
      const keys = new Set(list.map((p) => p.nodeKey)).size;
      if (keys > 1) map.set(id, keys - 1);
    }
    return map;
  }, [kin]);
  // drawn as one line from the founder through each heir, not as rings (issue 33)
  const heirChain = useMemo(
    () => (showHeirLine && kin ? heirLineChain(kin, founderId, heirGenerations) : []),
    [showHeirLine, kin, founderId, heirGenerations],
  );
  const activeRelation = relation && relation.from === selectedId ? relation.answer : null;
  const decor = useMemo<CanvasDecor>(
    () => ({
      focusKey: focus?.key ?? null,
      path: new Set(activeRelation ? activeRelation.path : []),
      heirs: heirGenerations,
      others,
      outlined,
      heirLine: heirChain,
    }),
    [focus, activeRelation, heirChain, heirGenerations, others, outlined],
  );
  const onJumpToOther = useCallback(
    (personId: string, key: string) => {
      const next = kin ? otherPlacements(kin, personId, key)[0] : undefined;
      if (next) centre(next.nodeKey);
    },
    [kin, centre],
  );
  const onOutlineOthers = useCallback(
    (personId: string | null, key: string) => {
      setOutlined(
        new Set(personId && kin ? otherPlacements(kin, personId, key).map((p) => p.nodeKey) : []),
      );
    },
    [kin],
  );

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
          focusRequest={focus}
          generations={kin?.generation}
          insetRight={selected ? PANEL_WIDTH : 0}
          decor={decor}
          onJumpToOther={onJumpToOther}
          onOutlineOthers={onOutlineOthers}
        >
          <div className="absolute top-3 left-3 z-10 flex gap-2">
            <Button
              variant="secondary"
              size="sm"
              aria-expanded={infoOpen}
              onClick={() => {
                setInfoOpen((open) => !open);
                setLastOpened("info");
              }}
              className="shadow"
            >
              Tree Info
            </Button>
            {heirGenerations.size > 0 && (
              <Button
                variant="secondary"
                size="sm"
                aria-pressed={showHeirLine}
                onClick={() => {
                  setShowHeirLine((shown) => !shown);
                  asked.current += 1;
                  setRelation(null);
                }}
                className="shadow"
              >
                Show heir line
              </Button>
            )}
            <MarksLegend />
            {tools}
          </div>
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
          extra={
            <>
              <FounderButton
                isFounder={founderId === selected._id}
                onMakeFounder={onMakeFounder && (() => onMakeFounder(selected._id))}
              />
              <FindDetails
                person={selected}
                generation={kin?.generation.get(selected._id)}
                heir={heirGenerations.has(selected._id)}
                onToggleHeir={onToggleHeir}
                canRelate={find !== undefined}
                relating={find?.relateFrom === selected._id}
                onRelate={() => find?.startRelate(selected._id)}
                onCancelRelate={() => find?.cancelRelate()}
                answer={activeRelation}
                onClearAnswer={() => setRelation(null)}
              />
            </>
          }
        />
      )}
      {infoOpen && (
        <TreeInfoPanel
          info={info}
          top={panelTop}
          generations={kin?.generations}
          onClose={() => setInfoOpen(false)}
        />
      )}
    </>
  );
}
