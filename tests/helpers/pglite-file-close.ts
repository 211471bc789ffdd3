// Every file of the pglite project runs in a process of its own, one after another, on one
// DATA_DIR. A file gives back the embedded database and the folder's lock when it ends, so the
// next file never finds the folder held by a process that is still on its way out (a worker
// pool's threads keep a process alive for a moment after its last test).
import { afterAll } from "vitest";
import { getEnv } from "@/lib/env";
import { unlockDataFolder } from "@/lib/server/data-lock";
import { processPglite } from "@/lib/server/front/pglite";

afterAll(async () => {
  const pglite = processPglite();
  if (!pglite) return;
  await pglite.close();
  unlockDataFolder(getEnv().PGLITE_DIR);
});
