import "server-only";
import { objectId } from "@/lib/schemas/common";
import { db } from "@/lib/server/db";
import { logger } from "@/lib/server/logger";
import { processViewCounter, VIEW_COUNT_FLUSH_SQL, ViewCounter } from "./view-counter";

const views = () =>
  processViewCounter(
    () =>
      new ViewCounter(
        async (treeIds, counts) => {
          await db.$executeRawUnsafe(VIEW_COUNT_FLUSH_SQL, treeIds, counts);
        },
        (error) => logger.error({ err: error }, "could not write public view counts"),
      ),
  );

/**
 * Counts one view of a public tree, in memory: the process's counter writes the counts in batches
 * every few seconds (ADR 014). With a reader (readerOf), the reader's first view of the tree in
 * VIEW_WINDOW_MS counts, and nothing else: only a keyed hash of it is kept, for the window (ADR 024). A tree that is not published
 * gains nothing when the batch is written.
 */
export function countPublicView(treeId: string, reader?: string): void {
  if (objectId.safeParse(treeId).success) views().count(treeId, reader);
}

/** Writes the counted views now (tests, and a clean stop). */
export async function flushPublicViews(): Promise<void> {
  await views().flush();
}
