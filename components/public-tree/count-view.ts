import "server-only";
import { logger } from "@/lib/server/logger";
import { countPublicView } from "@/lib/server/published/count-public-view";

/** Counts one view of a public tree; a view that cannot be counted must not cost the visitor the page. */
export async function countView(treeId: string): Promise<void> {
  await countPublicView(treeId).catch((error: unknown) =>
    logger.error({ err: error, treeId }, "could not count a public view"),
  );
}
