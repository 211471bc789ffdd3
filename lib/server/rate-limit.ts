import "server-only";
import { createHash } from "node:crypto";
import { getEnv } from "@/lib/env";
import { db } from "./db";
import { ApiError } from "./http/errors";
import { getRedis } from "./redis";

export interface RateLimitRule {
  /** Prefix of the counter's key; one counter per rule and identifier. */
  name: string;
  /** Hits allowed per window; the next one is refused with 429. */
  limit: number;
  windowSeconds: number;
  /** First sentence of the 429 detail; the wait is appended. */
  message: string;
}

const MINUTE = 60;
const SWEEP_PROBABILITY = 0.01;
const HOUR = 60 * MINUTE;

/**
 * Failed sign-ins per username and client address (a successful sign-in gives its attempt back).
 * Low: it stops one address guessing, and costs only that address (ADR 012).
 */
export const SIGNIN_PER_USERNAME_AND_IP: RateLimitRule = {
  name: "signin:username-ip",
  limit: 10,
  windowSeconds: 15 * MINUTE,
  message: "Too many failed sign-in attempts for this account from your network.",
};
/**
 * Failed sign-ins per username from every address together: the ceiling on guesses a spread-out
 * attacker gets at one account. Much higher than the per-address limit, and never applied to an
 * address the account signed in from lately (SIGNIN_KNOWN_ADDRESS), so the owner is not locked
 * out at home by someone else's guessing (ADR 012).
 */
export const SIGNIN_PER_USERNAME: RateLimitRule = {
  name: "signin:username",
  limit: 100,
  windowSeconds: HOUR,
  message: "Too many failed sign-in attempts for this account.",
};
/** Marks (username, address) pairs that signed in successfully; a mark lasts 30 days. */
export const SIGNIN_KNOWN_ADDRESS: RateLimitRule = {
  name: "signin:known",
  limit: Number.MAX_SAFE_INTEGER,
  windowSeconds: 30 * 24 * HOUR,
  message: "",
};
/** Sign-in attempts per client address, successful or not. */
export const SIGNIN_PER_IP: RateLimitRule = {
  name: "signin:ip",
  limit: 100,
  windowSeconds: 15 * MINUTE,
  message: "Too many sign-in attempts from your network.",
};
/**
 * Wrong current passwords per session on the account settings calls (email and password change,
 * delete). The one that reaches the limit ends the session that sent it
 * (verify-current-password.ts): a stolen token gets a few guesses and is gone, and the owner, who
 * can sign in again, is never locked out by someone else's guesses (issue 32.5). The window
 * outlives a token (30 days).
 */
export const PASSWORD_CHECK_PER_SESSION: RateLimitRule = {
  name: "password-check:session",
  limit: 5,
  windowSeconds: 30 * 24 * HOUR,
  message: "Too many wrong passwords from this session.",
};
/** Reset mails per username, so nobody can flood a player's inbox. */
export const FORGOT_PASSWORD_PER_USERNAME: RateLimitRule = {
  name: "forgot-password:username",
  limit: 5,
  windowSeconds: HOUR,
  message: "We've already sent several reset emails for this account.",
};
export const FORGOT_PASSWORD_PER_IP: RateLimitRule = {
  name: "forgot-password:ip",
  limit: 20,
  windowSeconds: HOUR,
  message: "Too many password reset requests from your network.",
};
export const FORGOT_USERNAME_PER_EMAIL: RateLimitRule = {
  name: "forgot-username:email",
  limit: 5,
  windowSeconds: HOUR,
  message: "We've already sent several username emails to this address.",
};
export const FORGOT_USERNAME_PER_IP: RateLimitRule = {
  name: "forgot-username:ip",
  limit: 20,
  windowSeconds: HOUR,
  message: "Too many username requests from your network.",
};

const DAY = 24 * HOUR;

/**
 * Sign-ups per client address, every attempt counted before any argon2 work (issue 22.6: 300
 * sign-ups from one address took 8.5 s of hashing). The limits come from the environment
 * (SIGNUPS_PER_ADDRESS_HOUR, SIGNUPS_PER_ADDRESS_DAY), so test servers that sign everyone up
 * from one loopback address can raise them.
 */
export function signupRules(): RateLimitRule[] {
  const env = getEnv();
  return [
    {
      name: "signup:ip-hour",
      limit: env.SIGNUPS_PER_ADDRESS_HOUR,
      windowSeconds: HOUR,
      message: "Too many accounts have been created from your network.",
    },
    {
      name: "signup:ip-day",
      limit: env.SIGNUPS_PER_ADDRESS_DAY,
      windowSeconds: DAY,
      message: "Too many accounts have been created from your network today.",
    },
  ];
}
/** New trees per account: each is a database row (issue 22.6). */
export const TREES_PER_ACCOUNT: RateLimitRule = {
  name: "trees:create",
  limit: 60,
  windowSeconds: HOUR,
  message: "You've created a lot of trees in the last hour.",
};
/** Upload URLs per account: each reserves a database row until it is used or swept (22.6). */
export const UPLOAD_URLS_PER_ACCOUNT: RateLimitRule = {
  name: "uploads:url",
  limit: 300,
  windowSeconds: HOUR,
  message: "You've started a lot of image uploads in the last hour.",
};

/** "45 seconds", "1 minute", "15 minutes", "1 hour": the wait, rounded up, for a 429 detail. */
export function describeWait(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (seconds < MINUTE) return plural(Math.max(1, Math.ceil(seconds)), "second");
  if (seconds <= HOUR) return plural(Math.ceil(seconds / MINUTE), "minute");
  return plural(Math.ceil(seconds / HOUR), "hour");
}

// Identifiers (addresses, usernames, emails) are stored hashed: the table needs no personal data.
function counterKey(rule: RateLimitRule, identifier: string): string {
  const digest = createHash("sha256").update(identifier, "utf8").digest("base64url");
  return `${rule.name}:${digest}`;
}

export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Seconds until the window ends. */
  retryAfterSeconds: number;
  limited: boolean;
}

// INCRBY and the window's expiry in one atomic step; answers [count, milliseconds left].
const REDIS_HIT = `
local count = redis.call("INCRBY", KEYS[1], ARGV[2])
local ttl = redis.call("PTTL", KEYS[1])
if ttl < 0 then
  redis.call("PEXPIRE", KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`;
const REDIS_REFUND = `
local count = tonumber(redis.call("GET", KEYS[1]) or "0")
if count > 0 then redis.call("DECR", KEYS[1]) end
return 0`;
const REDIS_PREFIX = "heirloom:ratelimit:";

/**
 * Counts one hit (or `amount`, a whole number: a cost such as milliseconds of work) in a fixed
 * window: in Redis when REDIS_URL is set, else in PostgreSQL. Either way the counter is shared by
 * every app instance.
 */
export async function hitRateLimit(
  rule: RateLimitRule,
  identifier: string,
  amount = 1,
): Promise<RateLimitHit> {
  const redis = getRedis();
  if (!redis) return hitPostgresRateLimit(rule, identifier, amount);
  const key = REDIS_PREFIX + counterKey(rule, identifier);
  const [count, ttl] = (await redis.eval(REDIS_HIT, 1, key, rule.windowSeconds * 1000, amount)) as [
    number,
    number,
  ];
  return {
    count,
    retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)),
    limited: count > rule.limit,
  };
}

/**
 * The PostgreSQL counter. A single INSERT … ON CONFLICT … RETURNING makes it atomic,
 * and the counters live in the database, so every app instance shares them. Times come from the
 * database clock (as UTC, like Prisma's columns), so instances with skewed clocks still agree.
 */
async function hitPostgresRateLimit(
  rule: RateLimitRule,
  identifier: string,
  amount: number,
): Promise<RateLimitHit> {
  const key = counterKey(rule, identifier);
  const rows = await db.$queryRaw<{ count: number; retryAfter: number }[]>`
    INSERT INTO "RateLimit" ("key", "count", "resetAt", "createdAt", "updatedAt")
    VALUES (
      ${key},
      ${amount}::int,
      (now() AT TIME ZONE 'UTC') + ${rule.windowSeconds}::float8 * interval '1 second',
      now() AT TIME ZONE 'UTC',
      now() AT TIME ZONE 'UTC'
    )
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateLimit"."resetAt" <= EXCLUDED."updatedAt"
        THEN EXCLUDED."count" ELSE "RateLimit"."count" + EXCLUDED."count" END,
      "resetAt" = CASE WHEN "RateLimit"."resetAt" <= EXCLUDED."updatedAt"
        THEN EXCLUDED."resetAt" ELSE "RateLimit"."resetAt" END,
      "updatedAt" = EXCLUDED."updatedAt"
    RETURNING "count", CEIL(EXTRACT(EPOCH FROM ("resetAt" - "updatedAt")))::int AS "retryAfter"`;
  const row = rows[0];
  if (!row) throw new Error("The rate limit counter returned no row");
  // Expired counters are swept now and then by whichever request happens along; no cron needed.
  if (Math.random() < SWEEP_PROBABILITY) await deleteExpiredRateLimits();
  const count = Number(row.count);
  return {
    count,
    retryAfterSeconds: Math.max(1, Number(row.retryAfter)),
    limited: count > rule.limit,
  };
}

/** Counts one hit and throws 429 (with Retry-After) once the rule's limit is exceeded. */
export async function enforceRateLimit(rule: RateLimitRule, identifier: string): Promise<void> {
  const hit = await hitRateLimit(rule, identifier);
  if (hit.limited) {
    throw new ApiError(
      429,
      `${rule.message} Please try again in ${describeWait(hit.retryAfterSeconds)}.`,
      { "retry-after": String(hit.retryAfterSeconds) },
    );
  }
}

/** Gives one hit back in the current window (e.g. a sign-in that turned out to be correct). */
export async function refundRateLimit(rule: RateLimitRule, identifier: string): Promise<void> {
  const key = counterKey(rule, identifier);
  const redis = getRedis();
  if (redis) {
    await redis.eval(REDIS_REFUND, 1, REDIS_PREFIX + key);
    return;
  }
  await db.$executeRaw`
    UPDATE "RateLimit" SET "count" = GREATEST("count" - 1, 0)
    WHERE "key" = ${key} AND "resetAt" > now() AT TIME ZONE 'UTC'`;
}

/** The current window's count for the identifier, without counting a hit (0 when none). */
export async function peekRateLimit(rule: RateLimitRule, identifier: string): Promise<number> {
  const key = counterKey(rule, identifier);
  const redis = getRedis();
  if (redis) return Number((await redis.get(REDIS_PREFIX + key)) ?? 0);
  const rows = await db.$queryRaw<{ count: number }[]>`
    SELECT "count" FROM "RateLimit"
    WHERE "key" = ${key} AND "resetAt" > now() AT TIME ZONE 'UTC'`;
  return Number(rows[0]?.count ?? 0);
}

/** Deletes counters whose window ended; cheap thanks to the resetAt index. */
export async function deleteExpiredRateLimits(): Promise<number> {
  return db.$executeRaw`DELETE FROM "RateLimit" WHERE "resetAt" <= now() AT TIME ZONE 'UTC'`;
}
