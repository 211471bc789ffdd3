// The Gallery in front of Next on the embedded default: the same suite as on PostgreSQL
// (tests/helpers/gallery-front-suite.ts), on the process's one PGlite, which Prisma's adapter shares.
import { beforeAll } from "vitest";
import { getEnv } from "@/lib/env";
import { db } from "@/lib/server/db";
import { pgliteFrontDb } from "@/lib/server/front/front-db";
import { processPglite } from "@/lib/server/front/pglite";
import { describeGalleryFront } from "../helpers/gallery-front-suite";

beforeAll(async () => {
  // Opens the embedded database as the route handlers do (lib/server/db.ts).
  await db.$queryRaw`SELECT 1`;
}, 60_000);

describeGalleryFront(() => {
  const pglite = processPglite();
  if (!pglite) throw new Error(`PGlite is not open on ${getEnv().PGLITE_DIR}`);
  return pgliteFrontDb(pglite);
});
