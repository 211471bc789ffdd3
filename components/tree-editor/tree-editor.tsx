"use client";
import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useFindController } from "@/components/find-sim/find-controller";
import { FindSim } from "@/components/find-sim/find-sim";
import { Button } from "@/components/ui/button";
import { Loading } from "@/components/ui/loading";
import {
  api,
  ApiRequestError,
  isNetworkFailure,
  NETWORK_FAILURES,
  NOT_LOGGED_IN,
} from "@/lib/client/api";
import { keptEdits, KeptTreeWriter, type KeptTree } from "@/lib/client/kept-edits";
import { keepEditorOffline } from "@/lib/client/offline-worker";
import { useSession } from "@/lib/client/session";
import { getToken } from "@/lib/client/session-store";
import { notify } from "@/lib/client/toast";
import type { Person } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { layoutTree, type TreeLayout } from "@/lib/tree/layout";
import { buildKinship } from "@/lib/tree/placements";
import {
  addChild,
  deleteNode,
  findNode,
  mergeNode,
  pathFromKey,
  type NodePatch,
} from "@/lib/tree/reducers";
import { type CanvasTree, canvasTreeUrl, fromCanvasTree } from "./canvas-tree";
import { DeleteTreeDialog } from "./delete-tree-dialog";
import { EditorToolbar, TOOLBAR_HEIGHT } from "./editor-toolbar";
import { historyKey, record, redo, startHistory, undo, type History } from "./history";
import { EmptyTreeGuide, isEmptyTree } from "./empty-tree-guide";
import { HeirsSaver, type HeirsStatus } from "./heirs-saver";
import { retryDelay, storedText, type SaveStatus } from "./tree-saver";
import { TreeWorkspace } from "./tree-workspace";
import { LegacyButton } from "@/components/legacy/legacy-panel";
import { useHeirMarking } from "@/components/legacy/use-heir-marking";
import { useLegacy } from "@/components/legacy/use-legacy";
import { EDITOR_ERROR, useTreeSave } from "./use-tree-save";

// The node editor (and react-select with it) loads after the canvas is painted, not with it:
// less script to run before the tree is painted. It is fetched once the editor is idle, not when
// a node is first edited, so that it opens offline too (issue 32).
const loadNodeEditor = () => import("./node-editor");
const NodeEditor = dynamic(() => loadNodeEditor().then((loaded) => loaded.NodeEditor), {
  ssr: false,
});

export const TREE_LOAD_ERROR = "Failed to get tree info";
export const TREE_OFFLINE = "You're offline: the tree will load when the connection returns.";
export const TREE_OFFLINE_KEPT =
  "You're offline. Your changes to this tree are kept on this device and will be saved when the connection returns.";
const HEIRS_ERROR = "Unknown error occurred saving the heirs";
/** The longest wait between two loads of the tree while offline. */
const LOAD_RETRY_MAX = 10_000;
const KEEP_ERROR = "Your changes could not be kept on this device: keep this page open";

/** Lays out the tree, timed in the performance timeline for the benchmark. */
export function measuredLayout(data: TreeNode, people: ReadonlyMap<string, Person>): TreeLayout {
  const start = performance.now();
  const layout = layoutTree(data, people);
  performance.measure("heirloom:layout", { start, end: performance.now() });
  return layout;
}

class LoadError extends Error {
  constructor(
    readonly cause: unknown,
    readonly fallback: string,
  ) {
    super("load failed");
  }
}

/**
 * The tree and its people, together (SPEC.md section 7): one read that holds both, as the canvas
 * draws them (ADR 038).
 */
async function loadTree(treeId: string): Promise<{ tree: Tree; people: Person[] }> {
  // Silent: the editor shows the one toast (TREE_LOAD_ERROR) itself.
  const answer = await api<CanvasTree>(canvasTreeUrl(encodeURIComponent(treeId)), {
    silent: true,
  }).catch((error: unknown) => {
    throw new LoadError(error, TREE_LOAD_ERROR);
  });
  return fromCanvasTree(answer);
}

type Load =
  | { status: "loading" }
  | { status: "failed" }
  | { status: "offline"; kept: boolean }
  | { status: "ready"; tree: Tree; people: Person[]; kept: KeptTree | undefined };

/** What this device kept of the user's tree (nothing when another account kept it, or on error). */
async function readKept(treeId: string, owner: string | null): Promise<KeptTree | undefined> {
  try {
    const kept = await keptEdits().read(treeId);
    return kept && kept.owner === owner ? kept : undefined;
  } catch {
    return undefined;
  }
}

/**
 * On a full page load the tree and its people are requested as soon as this module runs, before
 * React has hydrated the page and mounted the editor: on a cold load that is hundreds of
 * milliseconds earlier than the editor's first effect. The editor then takes that request.
 */
const EARLY_LOAD_MAX_AGE = 10_000;
let earlyLoad: { treeId: string; at: number; promise: ReturnType<typeof loadTree> } | null = null;
if (typeof window !== "undefined" && getToken()) {
  const match = /^\/trees\/([^/]+)\/?$/.exec(window.location.pathname);
  const treeId = match ? decodeURIComponent(match[1]!) : null;
  if (treeId && treeId !== "create" && treeId !== "import") {
    const promise = loadTree(treeId);
    // Its failure is handled by the editor that takes it.
    promise.catch(() => undefined);
    earlyLoad = { treeId, at: Date.now(), promise };
  }
}

function takeLoad(treeId: string): ReturnType<typeof loadTree> {
  const early = earlyLoad;
  earlyLoad = null;
  if (early && early.treeId === treeId && Date.now() - early.at < EARLY_LOAD_MAX_AGE) {
    return early.promise;
  }
  return loadTree(treeId);
}

/** The tree editor page (/trees/{treeId}): loads the tree and its people, then edits them. */
export function TreeEditor({ treeId }: { treeId: string }) {
  const { ready, username } = useSession();
  const router = useRouter();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  // Offline, the load is tried again when the connection returns, and now and then meanwhile
  // (a browser may think itself online on a network that reaches nothing).
  const offline = load.status === "offline";
  useEffect(() => {
    if (!offline) return;
    const again = () => {
      setLoad({ status: "loading" });
      setAttempt((count) => count + 1);
    };
    window.addEventListener("online", again);
    const timer = setTimeout(again, Math.min(LOAD_RETRY_MAX, retryDelay(attempt)));
    return () => {
      window.removeEventListener("online", again);
      clearTimeout(timer);
    };
  }, [offline, attempt]);

  useEffect(() => {
    if (!ready) return;
    let current = true;
    Promise.all([takeLoad(treeId), readKept(treeId, username)]).then(
      ([loaded, kept]) => {
        // For the benchmark's breakdown: the tree and its people are read and parsed.
        performance.mark("heirloom:data");
        if (current) setLoad({ status: "ready", ...loaded, kept });
      },
      (error: unknown) => {
        if (!current) return;
        const cause = error instanceof LoadError ? error.cause : error;
        if (isNetworkFailure(cause)) {
          void readKept(treeId, username).then((kept) => {
            if (current) setLoad({ status: "offline", kept: kept !== undefined });
          });
          return;
        }
        setLoad({ status: "failed" });
        const fallback = error instanceof LoadError ? error.fallback : EDITOR_ERROR;
        if (!(cause instanceof ApiRequestError)) {
          notify.error(fallback);
          return;
        }
        // A 403 has already logged the user out and gone to /login.
        if (cause.status === 403) return;
        if (cause.status === 401) {
          notify.error(cause.detail ?? NOT_LOGGED_IN);
          router.push("/login");
          return;
        }
        notify.error(cause.detail ?? fallback);
      },
    );
    return () => {
      current = false;
    };
  }, [ready, treeId, router, username, attempt]);

  if (load.status === "loading") {
    return (
      <EditorFrame>
        <Loading label="Loading Tree" className="justify-center" />
      </EditorFrame>
    );
  }
  if (load.status === "failed" || load.status === "offline") {
    return (
      <EditorFrame>
        <p role="alert" className="p-8 text-center text-neutral-700">
          {load.status === "failed"
            ? TREE_LOAD_ERROR
            : load.kept
              ? TREE_OFFLINE_KEPT
              : TREE_OFFLINE}
        </p>
      </EditorFrame>
    );
  }
  return (
    <LoadedTreeEditor
      tree={load.tree}
      people={load.people}
      kept={load.kept}
      owner={username ?? ""}
    />
  );
}

/**
 * Where the editor starts: the server's tree, or the structure and heirs this device kept when
 * the network refused them. A kept structure edited from the version loaded is shown and sent; one
 * edited from an older version is shown and sent with that version's If-Match, so a save made
 * elsewhere meanwhile gives the conflict notice; one the server already holds (its save's answer
 * was lost) is forgotten.
 */
function startingPoint(tree: Tree, kept: KeptTree | undefined) {
  const structure = kept?.structure;
  const landed =
    structure !== undefined &&
    structure.version !== tree.version &&
    storedText(structure.data) === storedText(tree.data);
  return {
    data: structure && !landed ? structure.data : tree.data,
    version: structure && !landed ? structure.version : tree.version,
    landed,
    heirs: kept?.heirs?.list,
  };
}

/** The header's one status for the structure's and the heirs' saves: the one that needs saying. */
function headerStatus(structure: SaveStatus, heirs: HeirsStatus): SaveStatus {
  if (structure === "conflict" || structure === "error" || structure === "kept") return structure;
  if (heirs === "kept") return "kept";
  if (structure === "saving" || heirs === "saving") return "saving";
  return structure;
}

/**
 * Full-bleed and full-height under the app header: the app shell pads <main>, so the editor
 * takes that padding back. --app-header-height can override the header's 3.5rem.
 */
function EditorFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="relative -mx-4 -my-6 flex h-[calc(100dvh-var(--app-header-height,3.5rem))] min-h-[420px] flex-col overflow-hidden sm:-mx-8 sm:-my-8">
      {children}
    </div>
  );
}

function LoadedTreeEditor({
  tree,
  people: loadedPeople,
  kept,
  owner,
}: {
  tree: Tree;
  people: Person[];
  kept: KeptTree | undefined;
  owner: string;
}) {
  const session = useSession();
  const [start] = useState(() => startingPoint(tree, kept));
  const [writer] = useState(() => {
    const made = new KeptTreeWriter(keptEdits(), tree._id, owner, () =>
      notify.error(KEEP_ERROR, "keep"),
    );
    // what it opened with is its own to release once the server has it
    made.adopt(kept);
    return made;
  });
  // Grows when a Sim is created from the node editor's person picker.
  const [people, setPeople] = useState(loadedPeople);
  // Every structure edit goes through the history, so it can be undone; the autosave sends
  // whatever tree is present, an undone one included.
  const [history, setHistory] = useState<History>(() => startHistory(start.data));
  const data = history.present;
  const edit = useCallback(
    (change: (current: TreeNode) => TreeNode) =>
      setHistory((current) => record(current, change(current.present))),
    [],
  );
  const [preview, setPreview] = useState(false);
  const [editingKey, setEditingKey] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState<"no" | "done">("no");
  const save = useTreeSave({
    treeId: tree._id,
    data,
    version: start.version,
    saved: tree.data,
    writer,
  });
  useEffect(() => {
    // The kept structure is on the server already: the device forgets it.
    if (start.landed) void writer.discard("structure");
  }, [start.landed, writer]);
  useEffect(() => {
    // When the editor is idle: the node editor is fetched, so that a node can be edited offline,
    // then the page and its files are kept for an offline reload (public/sw.js).
    const prepare = () => {
      void loadNodeEditor()
        .then(keepEditorOffline)
        .catch(() => undefined);
    };
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(prepare);
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(prepare, 200);
    return () => clearTimeout(timer);
  }, []);

  const peopleById = useMemo(() => new Map(people.map((person) => [person._id, person])), [people]);
  const layout = useMemo(() => measuredLayout(data, peopleById), [data, peopleById]);
  const find = useFindController();
  // the legacy's founder and laws (issue 33): Generation 1 is the founder's
  const legacy = useLegacy(tree._id, true);
  const founder = legacy.settings?.founder ?? null;
  const generations = useMemo(() => buildKinship(data, founder).generation, [data, founder]);
  const [heirs, setHeirs] = useState<readonly string[]>(start.heirs ?? tree.heirs ?? []);
  const [heirsStatus, setHeirsStatus] = useState<HeirsStatus>(start.heirs ? "kept" : "saved");
  const [heirsSaver] = useState(
    () =>
      new HeirsSaver({
        heirs: tree.heirs ?? [],
        kept: start.heirs,
        send: (next) =>
          api<{ heirs: string[] }>(`/api/trees/${encodeURIComponent(tree._id)}/heirs`, {
            method: "PUT",
            body: { heirs: next },
            fallback: HEIRS_ERROR,
            expect: NETWORK_FAILURES,
          }).then((saved) => saved.heirs),
        isNetworkFailure,
        keep: (list) => void writer.keepHeirs(list),
        release: () => void writer.release("heirs"),
        onSaved: setHeirs,
        onRefused: setHeirs,
        onStatus: setHeirsStatus,
      }),
  );
  useEffect(() => {
    heirsSaver.resume();
    const onOnline = () => heirsSaver.online();
    window.addEventListener("online", onOnline);
    return () => {
      window.removeEventListener("online", onOnline);
      heirsSaver.suspend();
    };
  }, [heirsSaver]);
  const applyHeirs = useCallback(
    (next: readonly string[]) => {
      setHeirs(next);
      heirsSaver.set(next);
    },
    [heirsSaver],
  );
  const generationOf = useCallback((id: string) => generations.get(id), [generations]);
  // marking an heir who un-marks another says so, with Undo
  const onToggleHeir = useHeirMarking({
    heirs,
    generationOf,
    people: peopleById,
    apply: applyHeirs,
  });
  const saveLegacy = legacy.save;
  const onMakeFounder = useCallback(
    (personId: string) => void saveLegacy({ founder: personId }),
    [saveLegacy],
  );
  const nameOf = useCallback(
    (id: string) => {
      const person = peopleById.get(id);
      return person ? `${person.firstName} ${person.lastName}`.trim() || id : id;
    },
    [peopleById],
  );
  const status = headerStatus(save.status, heirsStatus);

  // After a conflict the tree is shown read-only: nothing more could be saved.
  const readOnly = preview || save.status === "conflict";
  const editingNode = editingKey !== null ? findNode(data, pathFromKey(editingKey)) : undefined;

  const onAddChild = useCallback(
    (key: string) => edit((current) => addChild(current, pathFromKey(key))),
    [edit],
  );
  const onEditNode = useCallback((key: string) => setEditingKey(key), []);

  function saveNode(patch: NodePatch) {
    if (editingKey === null) return;
    edit((current) => mergeNode(current, pathFromKey(editingKey), patch));
  }

  function removeNode() {
    if (editingKey === null) return;
    edit((current) => deleteNode(current, pathFromKey(editingKey)));
    setEditingKey(null);
  }

  const canUndo = !readOnly && history.past.length > 0;
  const canRedo = !readOnly && history.future.length > 0;
  const onUndo = useCallback(() => setHistory(undo), []);
  const onRedo = useCallback(() => setHistory(redo), []);

  // Ctrl+Z and Ctrl+Shift+Z anywhere in the editor, except while typing or in the node editor
  // (its fields keep their own undo).
  useEffect(() => {
    if (readOnly || editingKey !== null) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const action = historyKey(event);
      if (!action || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable='true'], dialog[open]")) {
        return;
      }
      event.preventDefault();
      setHistory(action === "undo" ? undo : redo);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [readOnly, editingKey]);

  // The confirmation deletes the tree (and unpublishes it first when asked).
  function treeDeleted() {
    save.stop();
    setDeleting("done");
    setConfirmDelete(false);
    session.mergeTree(tree._id, null);
    notify.success("Tree deleted");
    // A full reload to the home page (SPEC.md section 4), once the toast has been seen.
    setTimeout(() => window.location.replace(new URL("/", window.location.href)), 1200);
  }

  if (deleting === "done") {
    return (
      <EditorFrame>
        <p role="status" className="p-8 text-center text-neutral-700">
          Tree deleted. Going home…
        </p>
      </EditorFrame>
    );
  }

  return (
    <EditorFrame>
      <EditorToolbar
        treeId={tree._id}
        preview={preview}
        onPreviewChange={setPreview}
        onSave={() => void save.save()}
        onDelete={() => setConfirmDelete(true)}
        status={status}
        layout={layout}
        people={peopleById}
        title={tree.title}
        onFlush={save.save}
        onUndo={canUndo ? onUndo : undefined}
        onRedo={canRedo ? onRedo : undefined}
        find={
          <FindSim
            people={peopleById}
            controller={find}
            generationOf={(id) => generations.get(id)}
          />
        }
      />
      <TreeWorkspace
        treeId={tree._id}
        info={tree}
        layout={layout}
        people={peopleById}
        preview={readOnly}
        readOnly={readOnly}
        panelTop={TOOLBAR_HEIGHT}
        onEditNode={readOnly ? undefined : onEditNode}
        onAddChild={readOnly ? undefined : onAddChild}
        find={find}
        heirs={heirs}
        onToggleHeir={readOnly ? undefined : onToggleHeir}
        founder={founder}
        onMakeFounder={readOnly ? undefined : onMakeFounder}
        tools={
          !readOnly && (
            <LegacyButton
              treeId={tree._id}
              settings={legacy.settings}
              save={legacy.save}
              heirs={heirs}
              nameOf={nameOf}
              generationOf={generationOf}
              onChoose={onToggleHeir}
            />
          )
        }
      />
      {save.conflict && (
        <div
          role="alert"
          className="absolute bottom-4 left-1/2 z-40 flex w-[min(40rem,calc(100%-2rem))] -translate-x-1/2 flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-white p-4 shadow-xl"
        >
          <p className="min-w-0 flex-1 text-sm text-neutral-800">{save.conflict}</p>
          <Button onClick={save.reload}>Reload</Button>
        </div>
      )}
      {!readOnly && editingKey === null && isEmptyTree(data) && (
        <EmptyTreeGuide onStart={() => setEditingKey("")} />
      )}
      {editingKey !== null && editingNode && !readOnly && (
        <NodeEditor
          key={editingKey}
          treeId={tree._id}
          onPersonCreated={(person) => setPeople((list) => [...list, person])}
          node={editingNode}
          people={people}
          peopleById={peopleById}
          onSave={saveNode}
          onDelete={removeNode}
          onClose={() => setEditingKey(null)}
        />
      )}
      <DeleteTreeDialog
        open={confirmDelete}
        treeId={tree._id}
        onCancel={() => setConfirmDelete(false)}
        onDeleted={treeDeleted}
      />
    </EditorFrame>
  );
}
