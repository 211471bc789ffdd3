// Heirloom's service worker (issue 32, ADR 042): the tree editor opens, and reloads, without a
// connection. Registered by the editor for /trees/ only (lib/client/offline-worker.ts). It keeps
// the editor's pages (network first) and the app's built files (cache first: their names carry
// their hashes). It never touches /api: saves go to the network as ever, and what the network
// refuses is kept by the editor itself, in IndexedDB.
const STATIC_CACHE = "heirloom-static-v1";
const PAGE_CACHE = "heirloom-pages-v1";
const STATIC_LIMIT = 400;
const PAGE_LIMIT = 40;
const ASSETS_PER_MESSAGE = 300;

const sameOrigin = (url) => url.origin === self.location.origin;
const isStatic = (url) =>
  sameOrigin(url) &&
  (url.pathname.startsWith("/_next/static/") || url.pathname.startsWith("/fonts/"));
/** The tree editor's page, /trees/{treeId} (not its create and import pages). */
const isEditorPage = (url) => {
  const match = /^\/trees\/([^/]+)\/?$/.exec(url.pathname);
  return sameOrigin(url) && match !== null && match[1] !== "create" && match[1] !== "import";
};
/** Pages are kept by path: ?p= (the Sim to centre) is read by the page's own script. */
const pageKey = (url) => new URL(url.pathname, self.location.origin).href;

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

async function trim(cache, limit) {
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - limit))) await cache.delete(key);
}

async function cacheFirst(request) {
  const cache = await caches.open(STATIC_CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    await cache.put(request, response.clone());
    await trim(cache, STATIC_LIMIT);
  }
  return response;
}

function keepablePage(response) {
  const type = response.headers.get("content-type") ?? "";
  return (
    response.ok && response.type === "basic" && !response.redirected && type.startsWith("text/html")
  );
}

async function networkFirst(event) {
  const url = new URL(event.request.url);
  const cache = await caches.open(PAGE_CACHE);
  try {
    const response = (await event.preloadResponse) ?? (await fetch(event.request));
    if (keepablePage(response)) {
      await cache.put(pageKey(url), response.clone());
      await trim(cache, PAGE_LIMIT);
    }
    return response;
  } catch (error) {
    const cached = await cache.match(pageKey(url));
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (isStatic(url)) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" && isEditorPage(url)) {
    event.respondWith(networkFirst(event));
  }
});

/**
 * The editor asks to be kept: its page and the built files it loaded before this worker took
 * control (those requests never came through here). The page goes in last, so that a kept page
 * has its files. The worker answers "kept" to the page that asked.
 */
async function keepEditor(pageUrl, assetUrls) {
  const page = new URL(pageUrl);
  if (!isEditorPage(page)) return false;
  const staticCache = await caches.open(STATIC_CACHE);
  const assets = assetUrls
    .slice(0, ASSETS_PER_MESSAGE)
    .map((asset) => new URL(asset, self.location.origin))
    .filter(isStatic);
  await Promise.all(
    assets.map(async (asset) => {
      if (await staticCache.match(asset.href)) return;
      const response = await fetch(asset.href);
      if (response.ok) await staticCache.put(asset.href, response);
    }),
  );
  await trim(staticCache, STATIC_LIMIT);
  const pageCache = await caches.open(PAGE_CACHE);
  const response = await fetch(pageKey(page), { credentials: "same-origin" });
  if (!keepablePage(response)) return false;
  await pageCache.put(pageKey(page), response);
  await trim(pageCache, PAGE_LIMIT);
  return true;
}

self.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || data.type !== "keep-editor" || typeof data.page !== "string") return;
  const assets = Array.isArray(data.assets) ? data.assets.filter((a) => typeof a === "string") : [];
  event.waitUntil(
    keepEditor(data.page, assets).then(
      (kept) => event.source?.postMessage({ type: "editor-kept", page: data.page, kept }),
      () => event.source?.postMessage({ type: "editor-kept", page: data.page, kept: false }),
    ),
  );
});
