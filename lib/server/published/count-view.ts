import "server-only";
import { countPublicView } from "@/lib/server/published/count-public-view";

/**
 * Counts one view of a public tree: in memory, written in batches, so it costs the page nothing;
 * a reader (view-counter.ts readerOf) counts once per tree per window.
 */
export function countView(treeId: string, reader?: string): void {
  countPublicView(treeId, reader);
}
