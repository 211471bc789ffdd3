// Every file of the pglite project runs in a process of its own, on a DATA_DIR of its own
// (pglite-data-dir.ts). A file gives back the embedded database and the folder's lock when it
// ends, and then removes the folder.
import fs from "node:fs/promises";
import { afterAll } from "vitest";
import { getEnv } from "@/lib/env";
import { unlockDataFolder } from "@/lib/server/data-lock";
import { processPglite } from "@/lib/server/front/pglite";

afterAll(async () => {
  const pglite = processPglite();
  if (pglite) {
    await pglite.close();
    unlockDataFolder(getEnv().PGLITE_DIR);
  }
  await fs.rm(getEnv().DATA_DIR, { recursive: true, force: true });
});
