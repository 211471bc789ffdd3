// The fast reads in front of Next on the embedded default (issue 23): the same suite as on
// PostgreSQL (tests/helpers/fast-reads-suite.ts), through PGlite's side of the data-access seam,
// on the process's one PGlite, which Prisma's adapter shares.
import { beforeAll } from "vitest";
import { getEnv } from "@/lib/env";
import { db } from "@/lib/server/db";
import { pgliteFrontDb } from "@/lib/server/front/front-db";
import { processPglite } from "@/lib/server/front/pglite";
import { describeFastReads } from "../helpers/fast-reads-suite";

beforeAll(async () => {
  // Opens the embedded database as the route handlers do (lib/server/db.ts).
  await db.$queryRaw`SELECT 1`;
}, 60_000);

describeFastReads(() => {
  const pglite = processPglite();
  if (!pglite) throw new Error(`PGlite is not open on ${getEnv().PGLITE_DIR}`);
  return pgliteFrontDb(pglite);
});
