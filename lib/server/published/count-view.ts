import "server-only";
import { countPublicView } from "@/lib/server/published/count-public-view";

/** Counts one view of a public tree: in memory, written in batches, so it costs the page nothing. */
export function countView(treeId: string): void {
  countPublicView(treeId);
}
