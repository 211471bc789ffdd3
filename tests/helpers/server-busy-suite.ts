// A save that waits out its transaction (a storm of saves queued behind one tree's lock) answers
// 503 with Retry-After in the spec's error shape, not 500: the request may be sent again as it was,
// and nothing it did was kept. On both engines: tests/api/server-busy.test.ts (PostgreSQL) and
// tests/pglite/server-busy.test.ts (the embedded default); Prisma's transaction timeout is the
// same code on both, and this takes a real one from each.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { SERVER_BUSY, handleApiError } from "@/lib/server/http/errors";

export function describeServerBusy(engine: string): void {
  describe(`a transaction that outlives its timeout on ${engine}`, () => {
    it("answers 503 with Retry-After and the spec's error shape, and keeps nothing", async () => {
      await db.$queryRaw`CREATE TABLE IF NOT EXISTS "busy_probe" ("n" int)`;
      await db.$executeRaw`DELETE FROM "busy_probe"`;
      const thrown = await db
        .$transaction(
          async (tx) => {
            await tx.$executeRaw`INSERT INTO "busy_probe" VALUES (1)`;
            // the transaction's time runs out while it waits, as a queued save's does
            await sleep(400);
            await tx.$executeRaw`INSERT INTO "busy_probe" VALUES (2)`;
          },
          { maxWait: 5_000, timeout: 100 },
        )
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(thrown).toBeDefined();
      const response = handleApiError(thrown);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.json()).toEqual({ errors: [{ detail: SERVER_BUSY }] });
      const rows = await db.$queryRaw<{ count: number }[]>`
        SELECT count(*)::int AS "count" FROM "busy_probe"`;
      expect(rows[0]!.count).toBe(0);
      await db.$queryRaw`DROP TABLE "busy_probe"`;
    });
  });
}
