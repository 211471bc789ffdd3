import { randomUUID } from "node:crypto";
import { type JWTPayload, SignJWT, decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { api, call, detailOf } from "../helpers/api";

// The api project's JWT_SECRET (vitest.config.ts), so tests can mint tokens the server accepts.
const SECRET = new TextEncoder().encode(process.env.JWT_SECRET);
const OTHER_SECRET = new TextEncoder().encode("a-different-secret-that-is-also-32-characters-long");
const PASSWORD = "correct horse battery";
const SESSION_EXPIRED = "You're session expired. Please login again.";

interface Mint {
  /** The claims, over the signed-up user's own (username, aid, sid); undefined drops one. */
  claims?: Record<string, unknown>;
  alg?: string;
  secret?: Uint8Array;
  /** Seconds since the epoch. */
  exp?: number;
}

const now = () => Math.floor(Date.now() / 1000);
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

async function mint({
  claims = {},
  alg = "HS256",
  secret = SECRET,
  exp = now() + 3600,
}: Mint = {}): Promise<string> {
  const { username, aid, sid } = decodeJwt(user.token);
  return new SignJWT(JSON.parse(JSON.stringify({ username, aid, sid, ...claims })) as JWTPayload)
    .setProtectedHeader({ alg, typ: "JWT" })
    .setIssuedAt(Math.min(exp, now()) - 60)
    .setExpirationTime(exp)
    .sign(secret);
}

async function signUp(): Promise<{ username: string; token: string }> {
  const username = `tok_${randomUUID().slice(0, 8)}`;
  const response = await api.post("/api/account/signup", {
    username,
    email: `${username}@example.com`,
    password: PASSWORD,
  });
  expect(response.status).toBe(200);
  return { username, token: (response.body as { token: string }).token };
}

let user: { username: string; token: string };
let deleted: { username: string; token: string };

beforeAll(async () => {
  user = await signUp();
  deleted = await signUp();
  const response = await api.delete(
    "/api/account",
    { password: PASSWORD },
    { token: deleted.token },
  );
  expect(response.status).toBe(200);
});

describe("session tokens", () => {
  it("a token minted like the server's, with the right secret, is accepted (control)", async () => {
    const response = await api.get("/api/user", { token: await mint() });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ email: `${user.username}@example.com`, _id: user.username });
  });

  it.each<{ name: string; token: () => Promise<string> | string }>([
    {
      name: "a forged token (signed with another secret)",
      token: () => mint({ secret: OTHER_SECRET }),
    },
    {
      name: "an alg: none token",
      token: () =>
        `${base64url({ alg: "none", typ: "JWT" })}.${base64url({
          ...decodeJwt(user.token),
          iat: now(),
          exp: now() + 3600,
        })}.`,
    },
    {
      name: "an HS512 token with the right secret (the algorithm is pinned)",
      token: () => mint({ alg: "HS512" }),
    },
    {
      name: "an expired token",
      token: () => mint({ exp: now() - 10 }),
    },
    {
      name: "a token with a tampered payload",
      token: async () => {
        const [header, , signature] = (await mint()).split(".");
        const claims = { ...decodeJwt(deleted.token), exp: now() + 60 };
        return `${header}.${base64url(claims)}.${signature}`;
      },
    },
    {
      name: "a token of the old shape {username, sv} (issued before ADR 003's sessions)",
      token: () => mint({ claims: { aid: undefined, sid: undefined, sv: 0 } }),
    },
    {
      name: "a token of a session that does not exist (revoked)",
      token: () => mint({ claims: { sid: randomUUID() } }),
    },
    {
      name: "a token naming another account id for the same username",
      token: () => mint({ claims: { aid: randomUUID() } }),
    },
    {
      name: "a token whose session belongs to another username",
      token: () => mint({ claims: { username: deleted.username } }),
    },
    { name: "a token without the sid claim", token: () => mint({ claims: { sid: undefined } }) },
    { name: "a token whose sid is not a uuid", token: () => mint({ claims: { sid: "1 OR 1=1" } }) },
    { name: "a token with a numeric username", token: () => mint({ claims: { username: 42 } }) },
    {
      name: "a token of an unknown user",
      token: () => mint({ claims: { username: "nobody_here_at_all" } }),
    },
    // Found by the fuzzer: the NUL reached PostgreSQL and answered 500.
    {
      name: "a signed token whose username has a NUL",
      token: () => mint({ claims: { username: "a\u0000b" } }),
    },
    { name: "the token of a deleted account", token: () => deleted.token },
    { name: "a token that is not a JWT", token: () => "not-a-jwt" },
  ])("$name gets 403", async ({ token }) => {
    const response = await api.get("/api/user", { token: await token() });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ errors: [{ detail: SESSION_EXPIRED }] });
  });

  const authed = [
    { method: "GET", path: "/api/user", body: undefined },
    { method: "PUT", path: "/api/user/email", body: { email: "new@example.com" } },
    {
      method: "PUT",
      path: "/api/user/password",
      body: { oldPassword: PASSWORD, newPassword: "whatever123", confirmPassword: "whatever123" },
    },
    { method: "DELETE", path: "/api/account", body: { password: PASSWORD } },
  ] as const;

  it.each(authed)("$method $path without a token gets 401", async ({ method, path, body }) => {
    const response = await call(method, path, { body });
    expect(response.status).toBe(401);
    expect(detailOf(response)).toBe("Looks like you're not logged in");
  });

  it.each(authed)("$method $path with a forged token gets 403", async ({ method, path, body }) => {
    const token = await mint({ secret: OTHER_SECRET });
    const response = await call(method, path, { body, token });
    expect(response.status).toBe(403);
    expect(detailOf(response)).toBe(SESSION_EXPIRED);
  });

  it("a malformed authorization header counts as no token (401)", async () => {
    const response = await api.get("/api/user", { headers: { authorization: "Basic abc" } });
    expect(response.status).toBe(401);
    expect(detailOf(response)).toBe("Looks like you're not logged in");
  });

  it("the refused calls changed nothing", async () => {
    const response = await api.get("/api/user", { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ email: `${user.username}@example.com`, _id: user.username });
  });
});
