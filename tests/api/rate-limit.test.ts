import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { db } from "@/lib/server/db";
import {
  FORGOT_PASSWORD_PER_IP,
  FORGOT_PASSWORD_PER_USERNAME,
  FORGOT_USERNAME_PER_EMAIL,
  FORGOT_USERNAME_PER_IP,
  PASSWORD_CHECK_PER_SESSION,
  type RateLimitRule,
  SIGNIN_PER_IP,
  SIGNIN_PER_USERNAME,
  SIGNIN_PER_USERNAME_AND_IP,
  TREES_PER_ACCOUNT,
  UPLOAD_URLS_PER_ACCOUNT,
  deleteExpiredRateLimits,
  hitRateLimit,
  signupRules,
} from "@/lib/server/rate-limit";
import { type ApiResponse, api } from "../helpers/api";

const PASSWORD = "correct horse battery";
const uniqueName = () => `rl_${randomUUID().slice(0, 8)}`;
const uniqueEmail = () => `rl.${randomUUID().slice(0, 8)}@example.com`;
let lastIp = 0;
/** A fixed client address for one test (the helper otherwise gives every call its own). */
const fixedIp = () => ({ "x-forwarded-for": `203.0.113.${(lastIp += 1)}` });

async function signUp(): Promise<{ username: string; token: string }> {
  const username = uniqueName();
  const response = await api.post("/api/account/signup", {
    username,
    email: `${username}@example.com`,
    password: PASSWORD,
  });
  expect(response.status).toBe(200);
  return { username, token: (response.body as { token: string }).token };
}

/** Runs `count` calls, a few at a time, and returns their statuses. */
async function repeat(count: number, call: (i: number) => Promise<ApiResponse>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 5) {
    const batch = Array.from({ length: Math.min(5, count - i) }, (_, j) => call(i + j));
    statuses.push(...(await Promise.all(batch)).map((r) => r.status));
  }
  return statuses;
}

function expectLimited(response: ApiResponse, rule: RateLimitRule, wait: string) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({
    errors: [{ detail: `${rule.message} Please try again in ${wait}.` }],
  });
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(rule.windowSeconds - 120);
  expect(retryAfter).toBeLessThanOrEqual(rule.windowSeconds);
}

describe("sign-in rate limits", () => {
  it("an attacker's 50 wrong passwords from one address do not stop the owner signing in from another (issue 12.6)", async () => {
    const target = await signUp();
    const attacker = fixedIp();
    const guesses = await repeat(50, () =>
      api.post(
        "/api/account/signin",
        { username: target.username, password: "guess guess" },
        { headers: attacker },
      ),
    );
    const allowed = SIGNIN_PER_USERNAME_AND_IP.limit;
    expect(guesses).toEqual([
      ...Array<number>(allowed).fill(400),
      ...Array<number>(50 - allowed).fill(429),
    ]);
    // The attacker's address is refused even the right password, so it learns nothing more…
    const blocked = await api.post(
      "/api/account/signin",
      { username: target.username, password: PASSWORD },
      { headers: attacker },
    );
    expectLimited(blocked, SIGNIN_PER_USERNAME_AND_IP, "15 minutes");
    // …while the owner, from another address, signs in at once, and their session works.
    const owner = await api.post(
      "/api/account/signin",
      { username: target.username, password: PASSWORD },
      { headers: fixedIp() },
    );
    expect(owner.status).toBe(200);
    expect((await api.get("/api/user", { token: target.token })).status).toBe(200);
  });

  it("caps guesses at one account from many addresses, but not at the owner's known address", async () => {
    const target = await signUp();
    const home = fixedIp();
    const atHome = () =>
      api.post(
        "/api/account/signin",
        { username: target.username, password: PASSWORD },
        { headers: home },
      );
    expect((await atHome()).status).toBe(200);
    // Every guess from its own address (the helper's default).
    const guesses = await repeat(SIGNIN_PER_USERNAME.limit, () =>
      api.post("/api/account/signin", { username: target.username, password: "guess guess" }),
    );
    expect(guesses).toEqual(Array(SIGNIN_PER_USERNAME.limit).fill(400));
    // The ceiling now refuses any new address, the right password included…
    const elsewhere = await api.post("/api/account/signin", {
      username: target.username,
      password: PASSWORD,
    });
    expectLimited(elsewhere, SIGNIN_PER_USERNAME, "60 minutes");
    // …but the owner's own address, where they signed in before, still gets in.
    expect((await atHome()).status).toBe(200);
    // Other accounts are not affected.
    const other = await signUp();
    const ok = await api.post("/api/account/signin", {
      username: other.username,
      password: PASSWORD,
    });
    expect(ok.status).toBe(200);
  });

  it("does not count successful sign-ins against the username", async () => {
    const account = await signUp();
    const statuses = await repeat(SIGNIN_PER_USERNAME.limit + 3, () =>
      api.post("/api/account/signin", { username: account.username, password: PASSWORD }),
    );
    expect(statuses).toEqual(Array(SIGNIN_PER_USERNAME.limit + 3).fill(200));
  });

  it("refuses an address with 429 after too many attempts, for any username", async () => {
    const account = await signUp();
    const headers = fixedIp();
    const attempts = await repeat(SIGNIN_PER_IP.limit, () =>
      api.post(
        "/api/account/signin",
        { username: uniqueName(), password: "guess guess" },
        { headers },
      ),
    );
    expect(attempts).toEqual(Array(SIGNIN_PER_IP.limit).fill(400));

    const blocked = await api.post(
      "/api/account/signin",
      { username: account.username, password: PASSWORD },
      { headers },
    );
    expectLimited(blocked, SIGNIN_PER_IP, "15 minutes");

    const elsewhere = await api.post("/api/account/signin", {
      username: account.username,
      password: PASSWORD,
    });
    expect(elsewhere.status).toBe(200);
  });
});

describe("forgot endpoint rate limits", () => {
  const message = {
    password: "If that account exists, we've emailed a link to reset its password.",
    username: "If any accounts use that address, we've emailed their usernames.",
  };

  it.each([
    {
      name: "forgotpassword per username",
      rule: FORGOT_PASSWORD_PER_USERNAME,
      path: "/api/account/forgotpassword",
      body: (fixed: string) => ({ username: fixed }),
      fixed: uniqueName,
      headers: () => undefined,
      ok: message.password,
    },
    {
      name: "forgotpassword per address",
      rule: FORGOT_PASSWORD_PER_IP,
      path: "/api/account/forgotpassword",
      body: () => ({ username: uniqueName() }),
      fixed: uniqueName,
      headers: fixedIp,
      ok: message.password,
    },
    {
      name: "forgotusername per email",
      rule: FORGOT_USERNAME_PER_EMAIL,
      path: "/api/account/forgotusername",
      body: (fixed: string) => ({ email: fixed }),
      fixed: uniqueEmail,
      headers: () => undefined,
      ok: message.username,
    },
    {
      name: "forgotusername per address",
      rule: FORGOT_USERNAME_PER_IP,
      path: "/api/account/forgotusername",
      body: () => ({ email: uniqueEmail() }),
      fixed: uniqueEmail,
      headers: fixedIp,
      ok: message.username,
    },
  ])("$name: 429 after the limit", async ({ rule, path, body, fixed, headers, ok }) => {
    const value = fixed();
    const sameHeaders = headers();
    const answers: ApiResponse[] = [];
    for (let i = 0; i < rule.limit; i++) {
      answers.push(await api.post(path, body(value), { headers: sameHeaders }));
    }
    expect(answers.map((a) => a.status)).toEqual(Array(rule.limit).fill(200));
    expect(answers.every((a) => (a.body as { message: string }).message === ok)).toBe(true);
    expectLimited(await api.post(path, body(value), { headers: sameHeaders }), rule, "60 minutes");
  });
});

describe("account limits (issue 22.6)", () => {
  const signupBody = () => {
    const username = uniqueName();
    return { username, email: `${username}@example.com`, password: PASSWORD };
  };

  it("refuses a 6th sign-up from one address within the hour, before any hashing", async () => {
    const [hourly] = signupRules();
    expect(hourly!.limit).toBe(5);
    const address = fixedIp();
    const statuses = [];
    for (let i = 0; i < hourly!.limit; i++) {
      statuses.push(
        (await api.post("/api/account/signup", signupBody(), { headers: address })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const refused = signupBody();
    const response = await api.post("/api/account/signup", refused, { headers: address });
    expectLimited(response, hourly!, "60 minutes");
    expect(await db.user.count({ where: { id: refused.username } })).toBe(0);
    // Another address is not held to it.
    expect((await api.post("/api/account/signup", signupBody())).status).toBe(200);
  });

  it("refuses sign-ups past the daily limit too", async () => {
    vi.stubEnv("SIGNUPS_PER_ADDRESS_HOUR", "100");
    vi.stubEnv("SIGNUPS_PER_ADDRESS_DAY", "3");
    resetEnvForTests();
    try {
      const [, daily] = signupRules();
      expect(daily!.limit).toBe(3);
      const address = fixedIp();
      for (let i = 0; i < 3; i++) {
        expect(
          (await api.post("/api/account/signup", signupBody(), { headers: address })).status,
        ).toBe(200);
      }
      expectLimited(
        await api.post("/api/account/signup", signupBody(), { headers: address }),
        daily!,
        "24 hours",
      );
    } finally {
      vi.unstubAllEnvs();
      resetEnvForTests();
    }
  });

  it.each([
    {
      name: "tree creation",
      rule: TREES_PER_ACCOUNT,
      call: (token: string) => api.post("/api/trees", { title: "One more" }, { token }),
    },
    {
      name: "upload URL reservation",
      rule: UPLOAD_URLS_PER_ACCOUNT,
      call: (token: string) => api.get("/api/upload/url?type=image/png&dir=avatar", { token }),
    },
  ])("limits $name per account", async ({ rule, call }) => {
    const account = await signUp();
    const other = await signUp();
    // All but the last of the hour's allowance used up (the counter is what the route counts).
    for (let i = 0; i < rule.limit - 1; i++) await hitRateLimit(rule, account.username);
    expect((await call(account.token)).status).toBe(200);
    const rows = () =>
      Promise.all([
        db.tree.count({ where: { ownerId: account.username } }),
        db.upload.count({ where: { ownerId: account.username } }),
      ]);
    const before = await rows();
    expectLimited(await call(account.token), rule, "60 minutes");
    expect(await rows()).toEqual(before);
    expect((await call(other.token)).status).toBe(200);
  });
});

describe("current-password checks", () => {
  it("end the session that sent too many wrong passwords on password change and account delete (issue 32.5)", async () => {
    const account = await signUp();
    const wrong = {
      oldPassword: "guess guess",
      newPassword: "new pass 1",
      confirmPassword: "new pass 1",
    };
    const statuses: number[] = [];
    for (let i = 0; i < PASSWORD_CHECK_PER_SESSION.limit; i++) {
      const response =
        i % 2 === 0
          ? await api.put("/api/user/password", wrong, { token: account.token })
          : await api.delete("/api/account", { password: "guess guess" }, { token: account.token });
      statuses.push(response.status);
    }
    // The guess that reaches the limit ends the session: 403, as for any ended session.
    expect(statuses).toEqual([
      ...Array<number>(PASSWORD_CHECK_PER_SESSION.limit - 1).fill(400),
      403,
    ]);
    const ended = await api.delete(
      "/api/account",
      { password: PASSWORD },
      { token: account.token },
    );
    expect(ended.status).toBe(403);
    expect(ended.body).toEqual({
      errors: [{ detail: "You're session expired. Please login again." }],
    });
    expect(await db.user.count({ where: { id: account.username } })).toBe(1);
    // The owner signs in again and deletes the account with the right password.
    const signin = await api.post("/api/account/signin", {
      username: account.username,
      password: PASSWORD,
    });
    expect(signin.status).toBe(200);
    const token = (signin.body as { token: string }).token;
    const deleted = await api.delete("/api/account", { password: PASSWORD }, { token });
    expect(deleted.status).toBe(200);
    expect(await db.user.count({ where: { id: account.username } })).toBe(0);
  });
});

describe("the counters", () => {
  const testRule = (limit = 5, windowSeconds = 60): RateLimitRule => ({
    name: `test:${randomUUID()}`,
    limit,
    windowSeconds,
    message: "Slow down.",
  });

  it("count atomically under concurrency (one row per rule and identifier)", async () => {
    const rule = testRule(20);
    const hits = await Promise.all(Array.from({ length: 30 }, () => hitRateLimit(rule, "id")));
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    expect(hits.filter((h) => h.limited)).toHaveLength(10);
    expect(await db.rateLimit.count({ where: { key: { startsWith: `${rule.name}:` } } })).toBe(1);
  });

  it("keep each identifier apart and do not store it in clear", async () => {
    const rule = testRule();
    await hitRateLimit(rule, "alice@example.com");
    await hitRateLimit(rule, "alice@example.com");
    const bob = await hitRateLimit(rule, "bob@example.com");
    expect(bob.count).toBe(1);
    const keys = await db.rateLimit.findMany({ where: { key: { startsWith: `${rule.name}:` } } });
    expect(keys).toHaveLength(2);
    expect(keys.map((k) => k.key).join()).not.toContain("example.com");
  });

  it("start a new window once the old one ended, and expired counters can be swept", async () => {
    const rule = testRule(2, 600);
    for (let i = 0; i < 3; i++) await hitRateLimit(rule, "id");
    const where = { key: { startsWith: `${rule.name}:` } };
    await db.rateLimit.updateMany({ where, data: { resetAt: new Date(Date.now() - 1000) } });
    const fresh = await hitRateLimit(rule, "id");
    expect(fresh).toMatchObject({ count: 1, limited: false });
    expect(fresh.retryAfterSeconds).toBeGreaterThan(590);
    expect(fresh.retryAfterSeconds).toBeLessThanOrEqual(600);

    await db.rateLimit.updateMany({ where, data: { resetAt: new Date(Date.now() - 1000) } });
    expect(await deleteExpiredRateLimits()).toBeGreaterThanOrEqual(1);
    expect(await db.rateLimit.count({ where })).toBe(0);
  });
});
