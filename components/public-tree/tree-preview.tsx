"use client";
import { useMemo } from "react";
import { TreeNodeView, type NodeActions } from "@/components/tree-canvas/tree-node";
import { VIEWPORT } from "@/components/tree-canvas/viewport";
import type { OpeningView } from "@/lib/public-tree/opening-view";

const idle = () => undefined;
const NO_ACTIONS: NodeActions = {
  selectPerson: idle,
  editNode: idle,
  addChild: idle,
  hoverSim: idle,
  openLinks: idle,
};
const CLIP_ID = "tree-preview-avatar";

/**
 * The canvas's opening view, drawn by the server into the page's HTML with the canvas's own node
 * drawing, at the place the canvas will put it (the root centred, VIEWPORT.topPadding from the
 * top, at 1×): the Sims are on screen with the first paint, before the page's scripts and the
 * snapshot have arrived. It is a picture (inert): the canvas replaces it once the tree is laid
 * out, and the first generations are named for assistive technology beside it.
 */
export function TreePreview({ view }: { view: OpeningView }) {
  const people = useMemo(
    () => new Map(view.people.map((person) => [person._id, person])),
    [view.people],
  );
  return (
    <div
      inert
      className="pointer-events-none absolute inset-0 overflow-hidden"
      data-tree-preview=""
    >
      <svg
        width={1}
        height={1}
        className="absolute top-0 left-1/2 overflow-visible"
        aria-hidden="true"
      >
        <defs>
          <clipPath id={CLIP_ID} clipPathUnits="objectBoundingBox">
            <circle cx={0.5} cy={0.5} r={0.5} />
          </clipPath>
        </defs>
        <g transform={`translate(${-view.rootX},${VIEWPORT.topPadding - view.rootY})`}>
          <g className="stroke-plum-500" fill="none" strokeWidth={2}>
            {view.links.map((link) => (
              <g key={link.parentKey}>
                <path d={link.d} />
                {link.adoptedD ? <path d={link.adoptedD} strokeDasharray="6 4" /> : null}
              </g>
            ))}
          </g>
          {view.nodes.map((laid) => (
            <TreeNodeView
              key={laid.key}
              laid={laid}
              people={people}
              preview
              detailed
              highlight={null}
              actions={NO_ACTIONS}
              clipId={CLIP_ID}
            />
          ))}
        </g>
      </svg>
    </div>
  );
}
