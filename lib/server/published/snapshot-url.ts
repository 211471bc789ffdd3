// Shared by the Next bundle and the production server in front of it (lib/server/public-pages.ts),
// so it imports nothing server-only.
import { processSingleton, sharedProcessSingleton } from "@/lib/server/front/process-singletons";

/** A publication's version in URLs: its publish time in epoch milliseconds, base 36. */
export function snapshotVersion(lastPublishDate: string | Date | number): string {
  const ms =
    typeof lastPublishDate === "number" ? lastPublishDate : new Date(lastPublishDate).getTime();
  return ms.toString(36);
}

/** The epoch milliseconds a version names; null for anything that is not one. */
export function snapshotVersionMs(version: string): number | null {
  if (!/^[0-9a-z]{1,11}$/.test(version)) return null;
  const ms = parseInt(version, 36);
  return Number.isSafeInteger(ms) ? ms : null;
}

/**
 * Where the tree and people of one publication are served, immutable: the address changes with
 * every publish, so it can be cached for a year.
 */
export function snapshotPath(treeId: string, lastPublishDate: string | Date | number): string {
  return `/api/published/${encodeURIComponent(treeId)}/snapshot/${snapshotVersion(lastPublishDate)}`;
}

/** The HTML's shared-cache lifetime: unpublishing or deleting reaches readers within this. */
export const PUBLIC_PAGE_S_MAXAGE = 60;
/** How long a shared cache may still serve the old page while it fetches the new one. */
export const PUBLIC_PAGE_STALE_WHILE_REVALIDATE = 30;
export const PUBLIC_PAGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${PUBLIC_PAGE_S_MAXAGE}, stale-while-revalidate=${PUBLIC_PAGE_STALE_WHILE_REVALIDATE}`;
export const SNAPSHOT_CACHE_CONTROL = "public, max-age=31536000, immutable";

/**
 * The list page's <meta> that says how many pages the list has (app/public/[treeId]/list), read by
 * the server in front of Next to send a page past the last to the last without rendering it.
 */
export const LIST_PAGES_META = "heirloom-list-pages";

/** The header that marks the production server's own render of a page, so that it reaches Next. */
export const RENDER_HEADER = "x-heirloom-render";

/**
 * Calls `listener` whenever this process publishes or unpublishes a tree, so that the production
 * server's kept pages (lib/server/public-pages.ts) see it at once; other instances see it within
 * their next check. Answers a function that removes the listener.
 */
export function onPublicationChange(listener: (treeId: string) => void): () => void {
  const listeners = sharedProcessSingleton("__heirloomPublicationListeners", () => new Set());
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells this process's listeners that a tree was published, republished or unpublished. */
export function publicationChanged(treeId: string): void {
  for (const listener of processSingleton("__heirloomPublicationListeners") ?? []) {
    listener(treeId);
  }
}
