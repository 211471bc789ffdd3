"use client";
import { useSyncExternalStore } from "react";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}

/**
 * The browser's idea of being online (navigator.onLine and its `online` and `offline` events).
 * It can say online on a network that reaches nothing, never offline while something is reachable:
 * use it to wait for the connection's return, and a request's failure to learn that it is gone.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}
