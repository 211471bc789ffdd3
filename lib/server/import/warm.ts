import "server-only";
import { logger } from "@/lib/server/logger";
import { runInWorker } from "@/lib/server/workers/pool";

/**
 * The smallest DBPF 2.1 package: a header and no resources. Read as a save it is refused ("holds
 * no saved game") after the worker has loaded the Sims 4 reader and its task module.
 */
function emptyPackage(): Uint8Array {
  const header = new Uint8Array(96);
  header.set([0x44, 0x42, 0x50, 0x46]);
  const view = new DataView(header.buffer);
  view.setUint32(4, 2, true);
  view.setUint32(8, 1, true);
  return header;
}

/**
 * Warms the import code at start (issue 32, finding 4: the first Sims 4 import after a start
 * stalled every client 0.6-0.9 s): loads the import routes' services on this thread, starts the
 * worker pool's thread, and has it read an empty save, so that the worker has compiled and loaded
 * its task module, the Sims 4 reader among them, before the first player's file comes. Never
 * throws: a failure here is logged and the first import pays as before.
 */
export async function warmImports(): Promise<void> {
  const started = performance.now();
  try {
    await Promise.all([
      import("./import-file"),
      import("./list-households"),
      import("./read-import-body"),
      import("./import-tree"),
    ]);
    // refused as no save, by a worker that had to load everything to say so
    await runInWorker("sims4Households", { source: { bytes: emptyPackage() } }).catch(
      () => undefined,
    );
    logger.debug({ ms: Math.round(performance.now() - started) }, "import code warmed");
  } catch (error) {
    logger.warn({ err: error }, "could not warm the import code");
  }
}
