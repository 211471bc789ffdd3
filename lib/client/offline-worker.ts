"use client";

/** The service worker (public/sw.js) and the pages it may keep: the tree editor's. */
const WORKER_URL = "/sw.js";
const WORKER_SCOPE = "/trees/";

/** The built files this page has loaded (scripts, styles, fonts), by address. */
function loadedAssets(): string[] {
  const urls = new Set<string>();
  for (const entry of performance.getEntriesByType("resource")) {
    const url = new URL(entry.name, window.location.href);
    if (url.origin !== window.location.origin) continue;
    if (url.pathname.startsWith("/_next/static/") || url.pathname.startsWith("/fonts/")) {
      urls.add(url.href);
    }
  }
  for (const element of document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>(
    "script[src], link[rel=stylesheet][href]",
  )) {
    const address = element instanceof HTMLScriptElement ? element.src : element.href;
    const url = new URL(address, window.location.href);
    if (url.origin === window.location.origin && url.pathname.startsWith("/_next/static/")) {
      urls.add(url.href);
    }
  }
  return [...urls];
}

/**
 * Lets the tree editor open and reload offline (issue 32): registers the service worker for
 * /trees/ and asks it to keep this page with the files it loaded. Resolves true once they are
 * kept, false where there is no service worker (a development server, an old browser, http on
 * another host than localhost). Call it after the editor's lazily loaded parts have loaded.
 */
export async function keepEditorOffline(): Promise<boolean> {
  // The development server's files change under the same names: never kept.
  // eslint-disable-next-line no-restricted-properties -- inlined by Next's build; lib/env.ts is the server's
  if (process.env.NODE_ENV !== "production" || !("serviceWorker" in navigator)) return false;
  try {
    await navigator.serviceWorker.register(WORKER_URL, { scope: WORKER_SCOPE });
    const registration = await navigator.serviceWorker.ready;
    const worker = registration.active;
    if (!worker) return false;
    const page = window.location.href;
    const kept = new Promise<boolean>((resolve) => {
      const onMessage = (event: MessageEvent<{ type?: string; page?: string; kept?: boolean }>) => {
        if (event.data?.type !== "editor-kept" || event.data.page !== page) return;
        navigator.serviceWorker.removeEventListener("message", onMessage);
        resolve(event.data.kept === true);
      };
      navigator.serviceWorker.addEventListener("message", onMessage);
    });
    worker.postMessage({ type: "keep-editor", page, assets: loadedAssets() });
    return await kept;
  } catch {
    return false;
  }
}
