"use client";
import { memo, type KeyboardEvent, type ReactNode } from "react";
import { avatarUrl } from "@/lib/image-url";
import type { Person } from "@/lib/schemas/person";
import type { PartnerType } from "@/lib/schemas/tree";
import { LAYOUT, nodeGeometry, type LayoutNode, type LayoutSlot } from "@/lib/tree/layout";
import { fitText } from "@/lib/tree/text-width";
import { PARTNER_TYPE_LABELS } from "@/lib/tree/labels";
import { NO_DECOR, type CanvasDecor } from "./decor";
import { simName } from "./labels";

/** What the nodes can ask of the canvas; one stable object, so memoized nodes stay put. */
export interface NodeActions {
  selectPerson(personId: string): void;
  editNode(key: string): void;
  addChild(key: string): void;
  /** A node's person is hovered (or focused): highlight these parents in the parent node. */
  hoverSim(key: string | null, parentIds?: readonly string[]): void;
  openLinks(personId: string, x: number, y: number): void;
  /** The "also in N other places" marker of a Sim in node `key`: activated, hovered, left. */
  jumpToOther?(personId: string, key: string): void;
  outlineOthers?(personId: string | null, key: string): void;
}

export interface TreeNodeViewProps {
  laid: LayoutNode;
  people: ReadonlyMap<string, Person>;
  /** Read-only: no node background and no buttons. */
  preview: boolean;
  /** False when zoomed far out: only the shapes are drawn. */
  detailed: boolean;
  /** When a child's Sim is hovered, the ids of its parents placed here (others are dimmed). */
  highlight: ReadonlySet<string> | null;
  actions: NodeActions;
  clipId: string;
  decor?: CanvasDecor;
  /** The node's marks as a string (nodeDecorKey): the memo compares it, not `decor`. */
  decorKey?: string;
}

const { nodeHeight, buttonRadius, markRadius } = LAYOUT;
/** Names sit under the node's box, or under the node's largest avatar when there is no box. */
const nameLine = (r: number, preview: boolean) => (preview ? r : nodeHeight / 2) + 14;
/** The link icon sits on the avatar's rim, towards the top right. */
const linkIconAt = (r: number) => ({ dx: r * 0.5, dy: -r * 0.87 });

/** Enter and Space activate an SVG element with role="button", as they would a <button>. */
function onActivateKey(action: () => void) {
  return (event: KeyboardEvent<SVGElement>) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      action();
    }
  };
}

const buttonClasses =
  "cursor-pointer outline-none [&:focus-visible>circle:first-child]:stroke-plum-900 [&:focus-visible>circle:first-child]:stroke-[3px]";

function PartnerMark({ type, x }: { type: PartnerType; x: number }) {
  const label = PARTNER_TYPE_LABELS[type];
  let glyph: ReactNode;
  switch (type) {
    case "PARTNER":
      glyph = <path d="M-5,0H5M0,-5V5" className="stroke-plum-600" strokeWidth={2} />;
      break;
    case "EX_PARTNER":
      glyph = (
        <path
          d="M-5,0H5M0,-5V5"
          transform="rotate(45)"
          className="stroke-neutral-500"
          strokeWidth={2}
        />
      );
      break;
    case "MARRIED":
      // two wedding rings: the crown is the heir's (issue 33), as players read it
      glyph = (
        <g fill="none" stroke="#b8860b" strokeWidth={1.6} data-married-rings="">
          <circle cx={-2} r={3.2} />
          <circle cx={2} r={3.2} />
        </g>
      );
      break;
    case "ABDUCTION":
      glyph = (
        <g>
          <path
            d="M0,-6C4.5,-6 5.5,-2 4,1.5C2.8,4.2 1.2,6 0,6C-1.2,6 -2.8,4.2 -4,1.5C-5.5,-2 -4.5,-6 0,-6Z"
            fill="#5fb760"
          />
          <ellipse
            cx={-2}
            cy={-0.5}
            rx={1.6}
            ry={1}
            transform="rotate(30 -2 -0.5)"
            fill="#1f2937"
          />
          <ellipse cx={2} cy={-0.5} rx={1.6} ry={1} transform="rotate(-30 2 -0.5)" fill="#1f2937" />
        </g>
      );
      break;
  }
  return (
    <g transform={`translate(${x},0)`} role="img" aria-label={label} data-partner-type={type}>
      <title>{label}</title>
      <circle r={markRadius} className="fill-white stroke-plum-200" strokeWidth={1.5} />
      {glyph}
    </g>
  );
}

function CircleButton({
  label,
  x,
  y,
  onActivate,
  children,
}: {
  label: string;
  x: number;
  y: number;
  onActivate: () => void;
  children: ReactNode;
}) {
  return (
    <g
      role="button"
      tabIndex={0}
      aria-label={label}
      transform={`translate(${x},${y})`}
      onClick={(event) => {
        event.stopPropagation();
        onActivate();
      }}
      onKeyDown={onActivateKey(onActivate)}
      className={buttonClasses}
    >
      <title>{label}</title>
      <circle r={buttonRadius} className="fill-plum-600 stroke-white" strokeWidth={2} />
      {children}
    </g>
  );
}

interface SimSlotProps {
  slot: LayoutSlot;
  /** Baseline of the first name line. */
  nameY: number;
  person: Person | undefined;
  laid: LayoutNode;
  detailed: boolean;
  state: "parent" | "dimmed" | undefined;
  actions: NodeActions;
  clipId: string;
  /** For an empty main slot of an editable node: opens the node editor to choose its Sim. */
  onChoose?: () => void;
  decor: CanvasDecor;
}

function SimSlot({
  slot,
  nameY,
  person,
  laid,
  detailed,
  state,
  actions,
  clipId,
  onChoose,
  decor,
}: SimSlotProps) {
  const { r, dx } = slot;
  if (!person || !slot.personId) {
    const choose = onChoose && {
      role: "button",
      tabIndex: 0,
      "aria-label": "Choose a Sim for this node",
      onClick: (event: React.MouseEvent) => {
        event.stopPropagation();
        onChoose();
      },
      onKeyDown: onActivateKey(onChoose),
      className: buttonClasses,
    };
    return (
      <g transform={`translate(${dx},0)`} aria-hidden={choose ? undefined : "true"} {...choose}>
        <circle
          r={r}
          className="fill-plum-50 stroke-plum-200"
          strokeWidth={2}
          strokeDasharray="4 3"
        />
        {detailed && (
          <text y={5} textAnchor="middle" className="fill-plum-500 text-[15px] font-semibold">
            ?
          </text>
        )}
        {choose && <title>Choose a Sim for this node</title>}
      </g>
    );
  }
  const personId = slot.personId;
  const name = simName(person);
  const isMain = slot.row === -1;
  const parentIds = isMain
    ? [...laid.node.parents, ...laid.node.adoptiveParents].map((ref) => ref._id)
    : undefined;
  const hover =
    isMain && laid.parent >= 0
      ? {
          onPointerEnter: () => actions.hoverSim(laid.key, parentIds),
          onPointerLeave: () => actions.hoverSim(null),
          onFocus: () => actions.hoverSim(laid.key, parentIds),
          onBlur: () => actions.hoverSim(null),
        }
      : {};
  const firstName = fitText(person.firstName, slot.nameWidth, true);
  const lastName = fitText(person.lastName, slot.nameWidth);
  const shortened = firstName !== person.firstName || lastName !== person.lastName;
  const icon = linkIconAt(r);
  const openLinks = () => actions.openLinks(personId, laid.x + dx + icon.dx, laid.y + icon.dy);
  const onPath = decor.path.has(personId);
  const heirOf = decor.heirs.get(personId);
  const others = decor.others.get(personId) ?? 0;
  const othersLabel = `also in ${others} other ${others === 1 ? "place" : "places"}`;
  const jump = () => actions.jumpToOther?.(personId, laid.key);

  return (
    <g
      transform={`translate(${dx},0)`}
      data-highlight={state}
      opacity={state === "dimmed" ? 0.3 : undefined}
    >
      <g
        role="button"
        tabIndex={detailed ? 0 : -1}
        aria-label={name}
        data-person-id={personId}
        className={buttonClasses}
        onClick={(event) => {
          event.stopPropagation();
          actions.selectPerson(personId);
        }}
        onKeyDown={onActivateKey(() => actions.selectPerson(personId))}
        {...hover}
      >
        {/* A shortened name is whole in the tooltip, as it is in the accessible name. */}
        {shortened && <title>{name}</title>}
        {/* One hit area for the avatar and the names under it: no gap between them misses. */}
        <rect
          x={-(Math.max(r, slot.nameWidth / 2) + 4)}
          y={-(r + 2)}
          width={Math.max(2 * r, slot.nameWidth) + 8}
          height={(detailed ? nameY + 17 : r + 2) + r + 2}
          fill="transparent"
        />
        {onPath && (
          <circle
            r={r + 7}
            className="fill-amber-200/70 stroke-amber-500"
            strokeWidth={3}
            data-on-path=""
          />
        )}
        <circle
          r={r + 2}
          className={
            state === "parent" ? "fill-white stroke-plum-600" : "fill-white stroke-plum-200"
          }
          strokeWidth={state === "parent" ? 4 : 2}
        />
        {detailed && (
          <>
            <image
              href={avatarUrl(person.avatar)}
              x={-r}
              y={-r}
              width={2 * r}
              height={2 * r}
              preserveAspectRatio="xMidYMid slice"
              clipPath={`url(#${clipId})`}
            />
            <text
              y={nameY}
              textAnchor="middle"
              className="fill-neutral-900 text-[11px] font-semibold"
            >
              {firstName}
            </text>
            <text y={nameY + 13} textAnchor="middle" className="fill-neutral-600 text-[11px]">
              {lastName}
            </text>
          </>
        )}
      </g>
      {heirOf !== undefined && (
        <g
          role="img"
          aria-label={`Heir of generation ${heirOf}`}
          transform={`translate(${-r * 0.72},${-r * 0.72})`}
          data-heir=""
        >
          <title>{`Heir of generation ${heirOf}`}</title>
          <circle r={9} className="fill-emerald-700 stroke-white" strokeWidth={1.5} />
          {/* a crown: players read it as the heir's (issue 33); married Sims have rings */}
          <path
            d="M-5.5,3.5V-3.5L-2.75,0L0,-4.5L2.75,0L5.5,-3.5V3.5Z"
            fill="#f5c518"
            data-crown=""
          />
        </g>
      )}
      {others > 0 && (
        <g
          role="button"
          tabIndex={detailed ? 0 : -1}
          aria-label={othersLabel}
          transform={`translate(${r * 0.78},${r * 0.62})`}
          className={buttonClasses}
          data-other-places={others}
          onClick={(event) => {
            event.stopPropagation();
            jump();
          }}
          onKeyDown={onActivateKey(jump)}
          onPointerEnter={() => actions.outlineOthers?.(personId, laid.key)}
          onPointerLeave={() => actions.outlineOthers?.(null, laid.key)}
          onFocus={() => actions.outlineOthers?.(personId, laid.key)}
          onBlur={() => actions.outlineOthers?.(null, laid.key)}
        >
          <title>{othersLabel}</title>
          <rect
            x={-11}
            y={-8}
            width={22}
            height={16}
            rx={8}
            className="fill-sky-700 stroke-white"
            strokeWidth={1.5}
          />
          <text y={3.5} textAnchor="middle" className="fill-white text-[10px] font-bold">
            {`+${others}`}
          </text>
        </g>
      )}
      {detailed && person.links.length > 0 && (
        <g
          role="button"
          tabIndex={0}
          aria-label={`Links of ${name}`}
          transform={`translate(${icon.dx},${icon.dy})`}
          className={buttonClasses}
          onClick={(event) => {
            event.stopPropagation();
            openLinks();
          }}
          onKeyDown={onActivateKey(openLinks)}
        >
          <title>{`Links of ${name}`}</title>
          <circle r={10} className="fill-white stroke-plum-500" strokeWidth={1.5} />
          <path
            d="M-1.5,1.5L1.5,-1.5M-0.5,-3.5L1,-5A2.5,2.5 0 0 1 5,-1L3.5,0.5M0.5,3.5L-1,5A2.5,2.5 0 0 1 -5,1L-3.5,-0.5"
            className="stroke-plum-600"
            fill="none"
            strokeWidth={1.6}
            strokeLinecap="round"
          />
        </g>
      )}
    </g>
  );
}

function TreeNodeViewBase({
  laid,
  people,
  preview,
  detailed,
  highlight,
  actions,
  clipId,
  decor = NO_DECOR,
}: TreeNodeViewProps) {
  const { width, slots } = nodeGeometry(laid.node, people);
  const main = laid.node.person ? people.get(laid.node.person._id) : undefined;
  const editable = !preview && detailed;
  return (
    <g
      transform={`translate(${laid.x},${laid.y})`}
      role="group"
      aria-label={main ? `Node of ${simName(main)}` : "Empty node"}
      data-node-key={laid.key}
      data-focused={decor.focusKey === laid.key ? "" : undefined}
      data-outlined={decor.outlined.has(laid.key) ? "" : undefined}
    >
      {(decor.focusKey === laid.key || decor.outlined.has(laid.key)) && (
        <rect
          x={-width / 2 - 8}
          y={-nodeHeight / 2 - 8}
          width={width + 16}
          height={nodeHeight + 16 + LAYOUT.nameSpace}
          rx={18}
          fill="none"
          className={decor.focusKey === laid.key ? "stroke-amber-500" : "stroke-sky-600"}
          strokeWidth={3}
          strokeDasharray={decor.focusKey === laid.key ? undefined : "7 5"}
        />
      )}
      {!preview && (
        <rect
          x={-width / 2}
          y={-nodeHeight / 2}
          width={width}
          height={nodeHeight}
          rx={14}
          className="fill-white stroke-plum-200"
          strokeWidth={1.5}
          data-node-background=""
        />
      )}
      {slots.map((slot) => {
        const person = slot.personId ? people.get(slot.personId) : undefined;
        const state = highlight
          ? slot.personId && highlight.has(slot.personId)
            ? "parent"
            : "dimmed"
          : undefined;
        return (
          <SimSlot
            key={`${slot.row}:${slot.personId ?? ""}:${slot.dx}`}
            slot={slot}
            nameY={nameLine(slots[0]!.r, preview)}
            person={person}
            laid={laid}
            detailed={detailed}
            state={state}
            actions={actions}
            clipId={clipId}
            decor={decor}
            onChoose={editable && slot.row === -1 ? () => actions.editNode(laid.key) : undefined}
          />
        );
      })}
      {slots.map((slot) =>
        slot.partnerType && slot.markDx !== undefined ? (
          <PartnerMark key={`mark:${slot.row}`} type={slot.partnerType} x={slot.markDx} />
        ) : null,
      )}
      {editable && (
        <>
          <CircleButton
            label="Edit node"
            x={width / 2}
            y={-nodeHeight / 2}
            onActivate={() => actions.editNode(laid.key)}
          >
            <path
              d="M-4.5,4.5L-4,1.5L2.5,-5L5,-2.5L-1.5,4Z"
              className="fill-white"
              strokeLinejoin="round"
            />
          </CircleButton>
          <CircleButton
            label="Add child"
            x={width / 2}
            y={nodeHeight / 2}
            onActivate={() => actions.addChild(laid.key)}
          >
            <path d="M-5.5,0H5.5M0,-5.5V5.5" className="stroke-white" strokeWidth={2.2} />
          </CircleButton>
        </>
      )}
    </g>
  );
}

/**
 * Memoized on what a node shows: a relayout that leaves a node where it was, with the same
 * person, partners and parents, does not re-render it.
 */
export const TreeNodeView = memo(TreeNodeViewBase, (a, b) => {
  const x = a.laid;
  const y = b.laid;
  return (
    x.key === y.key &&
    x.x === y.x &&
    x.y === y.y &&
    x.width === y.width &&
    x.parent >= 0 === y.parent >= 0 &&
    x.node.person === y.node.person &&
    x.node.partners === y.node.partners &&
    x.node.parents === y.node.parents &&
    x.node.adoptiveParents === y.node.adoptiveParents &&
    a.people === b.people &&
    a.preview === b.preview &&
    a.detailed === b.detailed &&
    a.highlight === b.highlight &&
    a.actions === b.actions &&
    a.clipId === b.clipId &&
    a.decorKey === b.decorKey
  );
});
