import { spawn, type ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { e2e } from "./support/config";
import { newCredentials } from "./support/session";

// Two production instances over one PostgreSQL: nothing that must be shared lives in memory.
// SIGNIN_PER_USERNAME_AND_IP in lib/server/rate-limit.ts allows 10 failed sign-ins per window for
// one account from one address (both instances see this test's requests from 127.0.0.1).
const FAILED_SIGNINS_ALLOWED = 10;
const secondPort = e2e.port + 57;
const second = `http://127.0.0.1:${secondPort}`;
let instance: ChildProcess | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // Its own process group, so that the server tsx starts is stopped with it.
  instance = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/start.ts"], {
    detached: true,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(secondPort),
      APP_URL: second,
      DATABASE_URL: e2e.databaseUrl,
      SMTP_URL: `smtp://127.0.0.1:${e2e.smtpPort}`,
      DATA_DIR: `.data/e2e-${secondPort}`,
      JWT_SECRET: "",
    },
    stdio: "ignore",
  });
  const deadline = Date.now() + 150_000;
  for (;;) {
    const ready = await fetch(`${second}/api/version`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error("the second instance did not start");
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterAll(() => {
  if (instance?.pid) process.kill(-instance.pid, "SIGTERM");
});

test("a token issued by one instance works on the other", async ({ request }) => {
  const credentials = newCredentials("twin");
  const signup = await request.post("/api/account/signup", { data: credentials });
  expect(signup.status()).toBe(200);
  const { token } = (await signup.json()) as { token: string };

  const onSecond = await request.get(`${second}/api/user`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(onSecond.status()).toBe(200);
  expect(await onSecond.json()).toEqual({ _id: credentials.username, email: credentials.email });

  const signin = await request.post(`${second}/api/account/signin`, {
    data: { username: credentials.username, password: credentials.password },
  });
  const { token: secondToken } = (await signin.json()) as { token: string };
  const onFirst = await request.get("/api/user", {
    headers: { authorization: `Bearer ${secondToken}` },
  });
  expect(onFirst.status()).toBe(200);
});

test("a rate limit is exhausted across both instances together", async ({ request }) => {
  const credentials = newCredentials("limit");
  expect((await request.post("/api/account/signup", { data: credentials })).status()).toBe(200);
  const wrong = { username: credentials.username, password: "not the password" };
  for (let attempt = 0; attempt < FAILED_SIGNINS_ALLOWED; attempt++) {
    const base = attempt % 2 === 0 ? "" : second;
    const response = await request.post(`${base}/api/account/signin`, { data: wrong });
    expect(response.status(), `attempt ${attempt + 1}`).toBe(400);
  }
  for (const base of ["", second]) {
    const response = await request.post(`${base}/api/account/signin`, { data: wrong });
    expect(response.status()).toBe(429);
    const body = (await response.json()) as { errors: { detail: string }[] };
    expect(body.errors[0]!.detail).toMatch(/Too many failed sign-in attempts/);
  }
});
