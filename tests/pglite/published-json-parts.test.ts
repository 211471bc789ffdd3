// GET /api/published/{id} of a large publication in bounded parts, on the embedded default
// (tests/helpers/published-json-parts-suite.ts, through PGlite's side of the data-access seam).
import { beforeAll } from "vitest";
import { getEnv } from "@/lib/env";
import { db } from "@/lib/server/db";
import { pgliteFrontDb } from "@/lib/server/front/front-db";
import { processPglite } from "@/lib/server/front/pglite";
import { describePublishedJsonParts } from "../helpers/published-json-parts-suite";

beforeAll(async () => {
  // Opens the embedded database as the route handlers do (lib/server/db.ts).
  await db.$queryRaw`SELECT 1`;
}, 60_000);

describePublishedJsonParts(() => {
  const pglite = processPglite();
  if (!pglite) throw new Error(`PGlite is not open on ${getEnv().PGLITE_DIR}`);
  return pgliteFrontDb(pglite);
});
