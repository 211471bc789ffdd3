// The REDIS_URL option: the same counters, kept in a real Redis (127.0.0.1:6379) instead of
// PostgreSQL, so that instances sharing the Redis share the limits.
import { createHash, randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { db } from "@/lib/server/db";
import {
  type RateLimitRule,
  SIGNIN_PER_USERNAME,
  hitRateLimit,
  refundRateLimit,
} from "@/lib/server/rate-limit";
import { closeRedis } from "@/lib/server/redis";
import { api, detailOf } from "../helpers/api";
import { createUser } from "../helpers/factories";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/0";
const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });

const testRule = (limit = 5, windowSeconds = 60): RateLimitRule => ({
  name: `test:${randomUUID()}`,
  limit,
  windowSeconds,
  message: "Slow down.",
});

async function redisKeys(rule: RateLimitRule): Promise<string[]> {
  return probe.keys(`heirloom:ratelimit:${rule.name}:*`);
}

beforeAll(async () => {
  await probe.connect();
  process.env.REDIS_URL = REDIS_URL;
  resetEnvForTests();
});

afterAll(async () => {
  delete process.env.REDIS_URL;
  resetEnvForTests();
  await closeRedis();
  await probe.quit();
});

describe("rate limits in Redis (REDIS_URL)", () => {
  it("count atomically in Redis and write nothing to PostgreSQL", async () => {
    const rule = testRule(20);
    const hits = await Promise.all(Array.from({ length: 30 }, () => hitRateLimit(rule, "id")));
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    expect(hits.filter((h) => h.limited)).toHaveLength(10);
    const keys = await redisKeys(rule);
    expect(keys).toHaveLength(1);
    expect(Number(await probe.get(keys[0]!))).toBe(30);
    expect(await db.rateLimit.count({ where: { key: { startsWith: `${rule.name}:` } } })).toBe(0);
  });

  it("give the window its expiry, report the wait, and hash the identifier", async () => {
    const rule = testRule(2, 600);
    const hit = await hitRateLimit(rule, "alice@example.com");
    expect(hit.retryAfterSeconds).toBeGreaterThan(590);
    expect(hit.retryAfterSeconds).toBeLessThanOrEqual(600);
    const [key] = await redisKeys(rule);
    expect(key).not.toContain("example.com");
    const ttl = await probe.pttl(key!);
    expect(ttl).toBeGreaterThan(590_000);
  });

  it("start a new window when the key expires", async () => {
    const rule = testRule(1, 600);
    await hitRateLimit(rule, "id");
    expect((await hitRateLimit(rule, "id")).limited).toBe(true);
    for (const key of await redisKeys(rule)) await probe.del(key);
    expect(await hitRateLimit(rule, "id")).toMatchObject({ count: 1, limited: false });
  });

  it("refunds a hit, never below zero", async () => {
    const rule = testRule();
    await hitRateLimit(rule, "id");
    await refundRateLimit(rule, "id");
    await refundRateLimit(rule, "id");
    const [key] = await redisKeys(rule);
    expect(Number(await probe.get(key!))).toBe(0);
  });

  it("lock an account out after repeated wrong passwords, through the API", async () => {
    const user = await createUser();
    const wrong = { username: user.username, password: "not the password at all" };
    for (let i = 0; i < SIGNIN_PER_USERNAME.limit; i++) {
      expect((await api.post("/api/account/signin", wrong)).status).toBe(400);
    }
    const locked = await api.post("/api/account/signin", wrong);
    expect(locked.status).toBe(429);
    expect(detailOf(locked)).toMatch(/Too many failed sign-in attempts/);
    const digest = createHash("sha256").update(user.username, "utf8").digest("base64url");
    const key = `signin:username:${digest}`;
    expect(Number(await probe.get(`heirloom:ratelimit:${key}`))).toBe(
      SIGNIN_PER_USERNAME.limit + 1,
    );
    expect(await db.rateLimit.count({ where: { key } })).toBe(0);
  });
});
