import "server-only";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/server/http/errors";
import { logger } from "@/lib/server/logger";
import { describeWait, hitRateLimit, type RateLimitRule } from "@/lib/server/rate-limit";

/**
 * Milliseconds of worker time per account per hour that imports, household lists and syncs may
 * use (issue 32: a count of imports alone let one account hold a worker about 50 minutes an hour).
 * Kept in the rate-limit store (PostgreSQL or Redis), as a counter of milliseconds: each upload's
 * tasks are timed on their thread (workers/worker-time.ts) and charged when it ends, answered or
 * refused; once the hour's budget is spent the next upload is refused with 429 before its body
 * is read. IMPORT_WORKER_SECONDS_HOUR sets it (default 300 s: a real save reads in well under a
 * second, and the largest GEDCOM an import takes about 70 s).
 */
export function importWorkRule(): RateLimitRule {
  const seconds = getEnv().IMPORT_WORKER_SECONDS_HOUR;
  return {
    name: "import-work:user",
    limit: seconds * 1000,
    windowSeconds: 60 * 60,
    message: `Your files have used this hour's ${seconds.toLocaleString("en-US")} seconds of the server's time for reading them.`,
  };
}

/** Refuses with 429 and Retry-After when the account has spent its hour's worker time. */
export async function checkWorkerBudget(accountId: string): Promise<void> {
  const rule = importWorkRule();
  // a hit of 0 reads the counter and the time left in its window without charging anything
  const hit = await hitRateLimit(rule, accountId, 0);
  if (hit.count >= rule.limit) {
    throw new ApiError(
      429,
      `${rule.message} Please try again in ${describeWait(hit.retryAfterSeconds)}.`,
      {
        "retry-after": String(hit.retryAfterSeconds),
      },
    );
  }
}

/** Charges `ms` of worker time to the account (whole milliseconds, rounded up). */
export async function chargeWorkerBudget(accountId: string, ms: number): Promise<void> {
  if (!(ms > 0)) return;
  try {
    await hitRateLimit(importWorkRule(), accountId, Math.ceil(ms));
  } catch (error) {
    // the upload's own answer stands: a store that failed here fails the next check loudly
    logger.error({ err: error }, "could not charge an import's worker time");
  }
}
