"use client";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from "react";
import type { TreeSummary } from "@/lib/schemas/tree";
import { api } from "./api";
import { clearToken, getToken, setToken, subscribeToken, usernameFromToken } from "./session-store";

interface Session {
  /** False until the token has been read from localStorage (it is not known on the server). */
  ready: boolean;
  token: string | null;
  username: string | null;
  loggedIn: boolean;
  login: (token: string) => void;
  logout: () => void;
  /** The user's trees for the side navigation: null while unknown. */
  trees: TreeSummary[] | null;
  loadTrees: (options?: { fallback?: string; silent?: boolean }) => Promise<void>;
  addTree: (tree: TreeSummary) => void;
  /** Replaces the tree with the same _id (e.g. after a title change), or removes it with null. */
  mergeTree: (id: string, tree: TreeSummary | null) => void;
}

const SessionContext = createContext<Session | null>(null);

const serverSnapshot = () => undefined;

export function SessionProvider({ children }: { children: React.ReactNode }) {
  // `undefined` on the server and during hydration, then the stored token (or null).
  const token = useSyncExternalStore<string | null | undefined>(
    subscribeToken,
    getToken,
    serverSnapshot,
  );
  // The list is kept with the token it was loaded for, so a logout or a new login hides it at once.
  const [treeState, setTreeState] = useState<{ token: string; list: TreeSummary[] } | null>(null);
  const trees = token && treeState?.token === token ? treeState.list : null;
  const ready = token !== undefined;
  const username = usernameFromToken(token ?? null);

  const loadTrees = useCallback(async (options: { fallback?: string; silent?: boolean } = {}) => {
    const forToken = getToken();
    const list = await api<TreeSummary[]>("/api/trees", {
      silent: options.silent ?? true,
      fallback: options.fallback,
    });
    if (forToken) setTreeState({ token: forToken, list });
  }, []);

  useEffect(() => {
    if (!token) return;
    let current = true;
    api<TreeSummary[]>("/api/trees", { silent: true }).then(
      (list) => current && setTreeState({ token, list }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [token]);

  const setTrees = useCallback(
    (update: (list: TreeSummary[]) => TreeSummary[]) =>
      setTreeState((state) => (state ? { ...state, list: update(state.list) } : state)),
    [],
  );

  const value = useMemo<Session>(
    () => ({
      ready,
      token: token ?? null,
      username,
      loggedIn: Boolean(token),
      login: setToken,
      logout: clearToken,
      trees,
      loadTrees,
      addTree: (tree) => setTrees((list) => [...list, tree]),
      mergeTree: (id, tree) =>
        setTrees((list) => list.flatMap((t) => (t._id === id ? (tree ? [tree] : []) : [t]))),
    }),
    [ready, token, username, trees, loadTrees, setTrees],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession must be used inside SessionProvider");
  return session;
}
