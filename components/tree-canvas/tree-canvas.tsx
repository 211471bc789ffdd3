"use client";
import { Zoom, type TransformMatrix, type ZoomProps } from "@visx/zoom";
import {
  memo,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from "react";
import type { Person } from "@/lib/schemas/person";
import {
  findPersonNode,
  itemsInRect,
  type FamilyLink,
  type LayoutNode,
  type TreeLayout,
} from "@/lib/tree/layout";
import {
  between,
  centreOn,
  generationRows,
  glideStart,
  heirLinePoints,
  NO_DECOR,
  nodeDecorKey,
  type CanvasDecor,
} from "./decor";
import { simName } from "./labels";
import { LinkList } from "./link-list";
import { TreeNodeView, type NodeActions } from "./tree-node";
import { useElementSize } from "./use-element-size";
import {
  constrainScale,
  cullRect,
  fitTransform,
  initialTransform,
  keyAction,
  openingTransform,
  panBy,
  toSvgTransform,
  VIEWPORT,
  wheelFactor,
  zoomBy,
  type Size,
} from "./viewport";

export interface TreeCanvasProps {
  layout: TreeLayout;
  people: ReadonlyMap<string, Person>;
  /** Read-only: nodes without background and buttons. */
  preview: boolean;
  /** The accessible name of the canvas. */
  label?: string;
  /** A Sim to centre when the canvas opens (e.g. /public/{treeId}?p={personId}). */
  focusPersonId?: string | null;
  onSelectPerson: (personId: string) => void;
  onEditNode?: (key: string) => void;
  onAddChild?: (key: string) => void;
  /** A node to centre at a readable zoom (animated unless reduced motion is asked for). */
  focusRequest?: { key: string; nonce: number } | null;
  /** Width a panel covers on the right; a centred node is centred in what is left. */
  insetRight?: number;
  /** Found, highlighted, heir and other-placement marks. */
  decor?: CanvasDecor;
  /** Each placed Sim's generation (Kinship.generation, lib/tree/generations.ts): the ruler's labels. */
  generations?: ReadonlyMap<string, number>;
  /** The marker "also in N other places" of a Sim in node `key` was activated. */
  onJumpToOther?: (personId: string, key: string) => void;
  /** That marker is hovered (personId) or left (null). */
  onOutlineOthers?: (personId: string | null, key: string) => void;
  /** Controls drawn over the canvas, such as the Tree Info button. */
  children?: ReactNode;
}

/**
 * The tree as a zoomable, pannable SVG. Only the nodes and links near the view are rendered, and
 * the zoom transform sits on a single <g>: a pan frame re-renders this component, not the nodes.
 */
export function TreeCanvas({ children, ...props }: TreeCanvasProps) {
  const [container, setContainer] = useState<HTMLDivElement | null>(null);
  const size = useElementSize(container);
  return (
    <div ref={setContainer} className="relative h-full w-full overflow-hidden bg-plum-50">
      {size && <SizedTreeCanvas size={size} {...props} />}
      {children}
    </div>
  );
}

/** The zoom state and methods visx passes to its children. */
type ZoomApi = Parameters<ZoomProps<SVGSVGElement>["children"]>[0];

interface SceneProps extends Omit<TreeCanvasProps, "children"> {
  containerRef: ZoomApi["containerRef"];
  matrix: TransformMatrix;
  dragging: boolean;
  setMatrix: ZoomApi["setTransformMatrix"];
  size: Size;
}

const wheelDelta = (event: { deltaY: number; deltaMode: number }) => {
  const factor = wheelFactor(event.deltaY, event.deltaMode);
  return { scaleX: factor, scaleY: factor };
};

/** The canvas at a known size (TreeCanvas measures its container, then renders this). */
export function SizedTreeCanvas({
  size,
  ...props
}: Omit<TreeCanvasProps, "children"> & { size: Size }) {
  // The opening view is fixed once the canvas has a size; later relayouts keep the user's view.
  const [initial] = useState<TransformMatrix>(() => {
    const focus = props.focusPersonId
      ? findPersonNode(props.layout, props.focusPersonId)
      : undefined;
    return openingTransform(size, props.layout.bounds, props.layout.nodes[0], focus);
  });
  return (
    <Zoom<SVGSVGElement>
      width={size.width}
      height={size.height}
      scaleXMin={VIEWPORT.minScale}
      scaleXMax={VIEWPORT.maxScale}
      scaleYMin={VIEWPORT.minScale}
      scaleYMax={VIEWPORT.maxScale}
      constrain={constrainScale}
      wheelDelta={wheelDelta}
      initialTransformMatrix={initial}
    >
      {(zoom) => (
        <Scene
          containerRef={zoom.containerRef}
          matrix={zoom.transformMatrix}
          dragging={zoom.isDragging}
          setMatrix={zoom.setTransformMatrix}
          size={size}
          {...props}
        />
      )}
    </Zoom>
  );
}

const LinkLayer = memo(function LinkLayer({ links }: { links: FamilyLink[] }) {
  return (
    <g className="stroke-plum-500" fill="none" strokeWidth={2} aria-hidden="true">
      {links.map((link) =>
        link.adoptedD ? (
          <g key={link.parentKey}>
            <path d={link.d} />
            <path d={link.adoptedD} strokeDasharray="6 4" data-adopted="" />
          </g>
        ) : (
          <path key={link.parentKey} d={link.d} />
        ),
      )}
    </g>
  );
});

/** The heir line: one green line from the founder through each heir (under the nodes). */
const HeirLineLayer = memo(function HeirLineLayer({
  points,
}: {
  points: { x: number; y: number; personId: string }[];
}) {
  if (points.length < 2) return null;
  return (
    <polyline
      points={points.map((p) => `${p.x},${p.y}`).join(" ")}
      fill="none"
      className="stroke-emerald-600"
      strokeWidth={6}
      strokeOpacity={0.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      data-heir-line={points.length}
      data-sims={points.map((p) => p.personId).join(" ")}
    />
  );
});

interface Highlight {
  parentKey: string;
  ids: ReadonlySet<string>;
}

const NodeLayer = memo(function NodeLayer({
  nodes,
  highlight,
  decor,
  ...rest
}: {
  nodes: LayoutNode[];
  highlight: Highlight | null;
  decor: CanvasDecor;
  people: ReadonlyMap<string, Person>;
  preview: boolean;
  detailed: boolean;
  actions: NodeActions;
  clipId: string;
}) {
  return (
    <g>
      {nodes.map((laid) => (
        <TreeNodeView
          key={laid.key}
          laid={laid}
          highlight={highlight && highlight.parentKey === laid.key ? highlight.ids : null}
          decor={decor}
          decorKey={nodeDecorKey(laid, decor)}
          {...rest}
        />
      ))}
    </g>
  );
});

function parentKeyOf(key: string): string | null {
  if (key === "") return null;
  const dot = key.lastIndexOf(".");
  return dot === -1 ? "" : key.slice(0, dot);
}

const controlClasses =
  "flex size-10 items-center justify-center text-plum-800 hover:bg-plum-50 focus-visible:z-10 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-plum-600 disabled:cursor-not-allowed disabled:text-neutral-400 sm:size-9";

function ControlButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
      className={controlClasses}
    >
      <svg viewBox="-10 -10 20 20" className="size-5" aria-hidden="true" fill="none">
        {children}
      </svg>
    </button>
  );
}

/** Zoom in, zoom out, fit the tree and go back to its root: buttons in the canvas's corner. */
function ViewControls({
  scale,
  onZoomIn,
  onZoomOut,
  onFit,
  onRecentre,
}: {
  scale: number;
  onZoomIn: () => void;
  onZoomOut: () => void;
  onFit: () => void;
  onRecentre: () => void;
}) {
  const stroke = { stroke: "currentColor", strokeWidth: 2, strokeLinecap: "round" } as const;
  return (
    <div
      role="toolbar"
      aria-label="View"
      aria-orientation="vertical"
      className="absolute bottom-4 left-3 z-10 flex flex-col divide-y divide-plum-100 overflow-hidden rounded-lg border border-plum-200 bg-white shadow"
    >
      <ControlButton label="Zoom in" onClick={onZoomIn} disabled={scale >= VIEWPORT.maxScale}>
        <path d="M-6,0H6M0,-6V6" {...stroke} />
      </ControlButton>
      <ControlButton label="Zoom out" onClick={onZoomOut} disabled={scale <= VIEWPORT.minScale}>
        <path d="M-6,0H6" {...stroke} />
      </ControlButton>
      <ControlButton label="Fit tree to view" onClick={onFit}>
        <path d="M-7,-3V-7H-3M3,-7H7V-3M7,3V7H3M-3,7H-7V3" {...stroke} />
      </ControlButton>
      <ControlButton label="Centre on root" onClick={onRecentre}>
        <circle r={3.5} {...stroke} />
        <path d="M0,-8V-5.5M0,5.5V8M-8,0H-5.5M5.5,0H8" {...stroke} />
      </ControlButton>
    </div>
  );
}

const NO_GENERATIONS: ReadonlyMap<string, number> = new Map();

/**
 * "Gen N" at the canvas's left edge, level with each row, in screen pixels: as readable at any
 * zoom. The row's Sims' generations (a range where they differ). Rows closer than a label's
 * height show every other label.
 */
function GenerationRuler({
  layout,
  generations,
  matrix,
  height,
}: {
  layout: TreeLayout;
  generations: ReadonlyMap<string, number>;
  matrix: TransformMatrix;
  height: number;
}) {
  const rows = useMemo(() => generationRows(layout, generations), [layout, generations]);
  const gap = rows.length > 1 ? (rows[1]!.y - rows[0]!.y) * matrix.scaleY : Infinity;
  const every = gap >= 18 ? 1 : Math.ceil(18 / Math.max(gap, 0.1));
  return (
    <div
      aria-hidden="true"
      data-generation-ruler=""
      className="pointer-events-none absolute inset-y-0 left-0 w-12 border-r border-plum-100/70 bg-white/55"
    >
      {rows.map((row) => {
        const y = matrix.translateY + row.y * matrix.scaleY;
        if (y < -10 || y > height + 10 || row.depth % every !== 0) return null;
        return (
          <span
            key={row.depth}
            data-generation={row.first === row.last ? row.first : `${row.first}-${row.last}`}
            style={{ top: y }}
            className="text-plum-800 absolute left-1 -translate-y-1/2 rounded bg-white/90 px-1 text-[11px] leading-4 font-semibold whitespace-nowrap tabular-nums"
          >
            {row.label}
          </span>
        );
      })}
    </div>
  );
}

/** Pointer travel (px) above which a press is a drag, and its click is swallowed. */
const DRAG_THRESHOLD = 5;

function Scene({
  containerRef,
  matrix,
  dragging,
  setMatrix,
  size,
  layout,
  people,
  preview,
  label = "Family tree",
  onSelectPerson,
  onEditNode,
  onAddChild,
  focusRequest,
  insetRight = 0,
  decor = NO_DECOR,
  generations = NO_GENERATIONS,
  onJumpToOther,
  onOutlineOthers,
}: SceneProps) {
  const clipId = useId().replace(/:/g, "");
  const hintId = useId();

  const { minX, maxX, minY, maxY } = cullRect(matrix, size);
  const visible = useMemo(
    () => itemsInRect(layout, { minX, maxX, minY, maxY }),
    [layout, minX, maxX, minY, maxY],
  );
  const detailed = matrix.scaleX >= VIEWPORT.detailScale;
  const heirLine = decor.heirLine;
  const heirPoints = useMemo(
    () => heirLinePoints(layout, people, heirLine ?? []),
    [layout, people, heirLine],
  );

  const [hover, setHover] = useState<{ key: string; ids: readonly string[] } | null>(null);
  const highlight = useMemo<Highlight | null>(() => {
    const parentKey = hover && hover.ids.length > 0 ? parentKeyOf(hover.key) : null;
    return hover && parentKey !== null ? { parentKey, ids: new Set(hover.ids) } : null;
  }, [hover]);

  const [openLinks, setOpenLinks] = useState<{ personId: string; x: number; y: number } | null>(
    null,
  );
  const linksPerson = openLinks ? people.get(openLinks.personId) : undefined;

  // Handlers are read through a ref so that `actions` never changes and nodes stay memoized.
  const handlers = useRef({
    onSelectPerson,
    onEditNode,
    onAddChild,
    onJumpToOther,
    onOutlineOthers,
  });
  useLayoutEffect(() => {
    handlers.current = { onSelectPerson, onEditNode, onAddChild, onJumpToOther, onOutlineOthers };
  });
  const actions = useMemo<NodeActions>(
    () => ({
      selectPerson: (personId) => handlers.current.onSelectPerson(personId),
      editNode: (key) => handlers.current.onEditNode?.(key),
      addChild: (key) => handlers.current.onAddChild?.(key),
      hoverSim: (key, ids = []) => setHover(key === null ? null : { key, ids }),
      openLinks: (personId, x, y) => setOpenLinks({ personId, x, y }),
      jumpToOther: (personId, key) => handlers.current.onJumpToOther?.(personId, key),
      outlineOthers: (personId, key) => handlers.current.onOutlineOthers?.(personId, key),
    }),
    [],
  );

  // A found Sim's node is centred at a readable zoom: animated, unless reduced motion is asked.
  // A far one is reached by a cut and a glide over the last screen.
  const matrixRef = useRef(matrix);
  matrixRef.current = matrix;
  const [centredKey, setCentredKey] = useState<string | null>(null);
  useEffect(() => {
    if (!focusRequest) return;
    const target = layout.nodes.find((laid) => laid.key === focusRequest.key);
    if (!target) return;
    const current = matrixRef.current;
    const to = centreOn(target, size, current, insetRight);
    // a far target is cut to first, and glided to over the last screen (glideStart)
    const from = glideStart(current, to, size);
    const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
    setCentredKey(null);
    const done = () => {
      setMatrix(to);
      setCentredKey(focusRequest.key);
      requestAnimationFrame(() => performance.mark("heirloom:find-centred"));
    };
    if (reduced) {
      done();
      return;
    }
    const duration = 450;
    const start = performance.now();
    let frame = requestAnimationFrame(function step(now) {
      const t = Math.min(1, (now - start) / duration);
      if (t >= 1) return done();
      setMatrix(between(from, to, t));
      frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
    // a new request (its nonce) starts a centring; a relayout alone does not
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRequest?.nonce, focusRequest?.key]);

  // Marks for the benchmark: the first paint of nodes, in the browser's performance timeline.
  const painted = useRef(false);
  useEffect(() => {
    if (painted.current || visible.nodes.length === 0) return;
    painted.current = true;
    requestAnimationFrame(() => performance.mark("heirloom:tree-painted"));
  }, [visible.nodes.length]);

  const press = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  function onPointerDown(event: PointerEvent<SVGSVGElement>) {
    press.current = { x: event.clientX, y: event.clientY, moved: false };
    if (openLinks && !(event.target as Element).closest("[data-link-list]")) setOpenLinks(null);
  }
  function onPointerMove(event: PointerEvent<SVGSVGElement>) {
    const start = press.current;
    if (start && !start.moved) {
      start.moved =
        Math.abs(event.clientX - start.x) > DRAG_THRESHOLD ||
        Math.abs(event.clientY - start.y) > DRAG_THRESHOLD;
    }
  }

  const centre = { x: size.width / 2, y: size.height / 2 };
  const zoomIn = () => setMatrix(zoomBy(matrix, VIEWPORT.zoomStep, centre));
  const zoomOut = () => setMatrix(zoomBy(matrix, 1 / VIEWPORT.zoomStep, centre));
  const fit = () => setMatrix(fitTransform(size, layout.bounds));
  // The root where the tree opens, at the current zoom.
  const recentre = () => {
    const root = layout.nodes[0];
    const opening = initialTransform(size, root);
    setMatrix(
      root
        ? {
            ...opening,
            scaleX: matrix.scaleX,
            scaleY: matrix.scaleY,
            translateX: size.width / 2 - root.x * matrix.scaleX,
            translateY: VIEWPORT.topPadding - root.y * matrix.scaleY,
          }
        : opening,
    );
  };

  function onKeyDown(event: KeyboardEvent<SVGSVGElement>) {
    if ((event.target as Element).closest("[data-link-list]")) return;
    if (event.key === "Escape" && openLinks) {
      // Handled: the details panel under it stays open.
      event.preventDefault();
      setOpenLinks(null);
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const action = keyAction(event.key);
    if (!action) return;
    event.preventDefault();
    if ("pan" in action) {
      setMatrix(panBy(matrix, action.pan[0], action.pan[1]));
    } else if ("zoom" in action) {
      setMatrix(zoomBy(matrix, action.zoom, centre));
    } else if (action.view === "fit") {
      fit();
    } else {
      recentre();
    }
  }

  return (
    <>
      <svg
        ref={containerRef}
        width={size.width}
        height={size.height}
        role="application"
        aria-label={label}
        aria-describedby={hintId}
        aria-roledescription="zoomable canvas"
        tabIndex={0}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onClickCapture={(event) => {
          if (press.current?.moved) {
            event.stopPropagation();
            event.preventDefault();
          }
          press.current = null;
        }}
        data-scale={matrix.scaleX.toFixed(3)}
        data-centred-key={centredKey ?? undefined}
        className="block touch-none outline-none select-none focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-plum-500 focus-visible:outline-solid"
        style={{ cursor: dragging ? "grabbing" : "grab" }}
      >
        <defs>
          <clipPath id={clipId} clipPathUnits="objectBoundingBox">
            <circle cx={0.5} cy={0.5} r={0.5} />
          </clipPath>
        </defs>
        <g transform={toSvgTransform(matrix)}>
          <LinkLayer links={visible.links} />
          <HeirLineLayer points={heirPoints} />
          <NodeLayer
            nodes={visible.nodes}
            highlight={highlight}
            decor={decor}
            people={people}
            preview={preview}
            detailed={detailed}
            actions={actions}
            clipId={clipId}
          />
          {openLinks && linksPerson && linksPerson.links.length > 0 && (
            <LinkList
              name={simName(linksPerson)}
              links={linksPerson.links}
              x={openLinks.x}
              y={openLinks.y}
              onClose={() => setOpenLinks(null)}
            />
          )}
        </g>
      </svg>
      <GenerationRuler
        layout={layout}
        generations={generations}
        matrix={matrix}
        height={size.height}
      />
      <p id={hintId} className="sr-only">
        Drag or use the arrow keys to move around the tree, the wheel or + and - to zoom, F to fit
        the whole tree and 0 to go back to its root.
      </p>
      <ViewControls
        scale={matrix.scaleX}
        onZoomIn={zoomIn}
        onZoomOut={zoomOut}
        onFit={fit}
        onRecentre={recentre}
      />
    </>
  );
}
