"use client";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { api } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import type { AccountPublication, AccountPublications } from "@/lib/schemas/account-publications";

/**
 * The signed-in user's public copies (GET /api/account/publications), shared by the tree list, the
 * editor's Publish menu, the delete-tree confirmation and the account page: one small read per
 * user, read again after anything that may have changed them (a publish page left, a tree
 * deleted, a copy unpublished here).
 */
interface State {
  /** The token the list was read with; a logout or another login makes it stale. */
  token: string | null;
  list: AccountPublication[] | null;
  failed: boolean;
}

let state: State = { token: null, list: null, failed: false };
let generation = 0;
let inflight: { token: string; promise: Promise<void> } | null = null;
const listeners = new Set<() => void>();

function set(next: State) {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => state;
const serverSnapshot = (): State => ({ token: null, list: null, failed: false });

/** Reads the list; a read already under way for the same user is shared unless `fresh`. */
function load(token: string, fresh = false): Promise<void> {
  if (!fresh && inflight?.token === token) return inflight.promise;
  const promise = read(token).finally(() => {
    if (inflight?.promise === promise) inflight = null;
  });
  inflight = { token, promise };
  return promise;
}

async function read(token: string) {
  generation += 1;
  const mine = generation;
  if (state.token !== token) set({ token, list: null, failed: false });
  try {
    const { data } = await api<AccountPublications>("/api/account/publications", {
      silent: true,
    });
    if (mine === generation) set({ token, list: data, failed: false });
  } catch {
    if (mine === generation) set({ ...state, failed: true });
  }
}

/** Reads the list again (after a change made elsewhere on this page). */
export function refreshPublications(): Promise<void> {
  return state.token ? load(state.token, true) : Promise.resolve();
}

/** Drops one copy from the list at once, before the server's answer to a new read. */
export function forgetPublication(treeId: string) {
  if (state.list) set({ ...state, list: state.list.filter((item) => item._id !== treeId) });
}

/** Marks a tree's copy as that of a deleted tree (the server keeps it, SPEC.md). */
export function markTreeDeleted(treeId: string) {
  if (state.list) {
    set({
      ...state,
      list: state.list.map((item) => (item._id === treeId ? { ...item, treeDeleted: true } : item)),
    });
  }
}

const onPublishPage = (path: string | null) => /^\/trees\/[^/]+\/publish\/?$/.test(path ?? "");

/**
 * The user's public copies: null while unknown (or signed out), and whether the last read failed.
 * Read once per login, and again when the user leaves a tree's publish page.
 */
export function usePublications(): { list: AccountPublication[] | null; failed: boolean } {
  const { token } = useSession();
  const current = useSyncExternalStore(subscribe, snapshot, serverSnapshot);
  const pathname = usePathname();
  const previousPath = useRef(pathname);

  useEffect(() => {
    if (token && state.token !== token) void load(token);
  }, [token]);

  useEffect(() => {
    const left = previousPath.current;
    previousPath.current = pathname;
    if (token && left !== pathname && onPublishPage(left)) void load(token);
  }, [pathname, token]);

  const mine = token !== null && current.token === token;
  return { list: mine ? current.list : null, failed: mine && current.failed };
}

/** A tree's public copy in the list, if it has one. */
export function usePublication(treeId: string): AccountPublication | null {
  const { list } = usePublications();
  return list?.find((item) => item._id === treeId) ?? null;
}
