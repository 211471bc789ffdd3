// Issue 12.1 and 13.2, step by step as the issue tells them, through the API: shared by the
// PostgreSQL suite (tests/api/sessions.test.ts) and the embedded PGlite one (tests/pglite/).
import { expect } from "vitest";
import { createResetToken, RESET_TOKEN_LIFETIME_MS } from "@/lib/server/account/reset-token";
import { db } from "@/lib/server/db";
import { api } from "./api";
import { uniqueUsername } from "./factories";

export const SESSION_EXPIRED = {
  errors: [{ detail: "You're session expired. Please login again." }],
};
const FIRST_PASSWORD = "the first owner's password";
const SECOND_PASSWORD = "the second owner's password";

async function signUp(username: string, email: string, password: string): Promise<string> {
  const response = await api.post("/api/account/signup", { username, email, password });
  expect(response.status).toBe(200);
  return (response.body as { token: string }).token;
}

export async function signIn(username: string, password: string): Promise<string> {
  const response = await api.post("/api/account/signin", { username, password });
  expect(response.status).toBe(200);
  return (response.body as { token: string }).token;
}

/** A reset link for the account, as the forgot-password mail would carry it. */
export async function resetLinkToken(username: string): Promise<string> {
  const { token, tokenHash } = createResetToken();
  await db.passwordResetToken.create({
    data: {
      userId: username,
      tokenHash,
      expiresAt: new Date(Date.now() + RESET_TOKEN_LIFETIME_MS),
    },
  });
  return token;
}

export interface Reregistered {
  username: string;
  /** The first owner's token, kept from before the account was deleted. */
  oldToken: string;
  /** The second owner's token. */
  newToken: string;
  /** The second owner's private tree. */
  treeId: string;
  /** What the old token got right after the deletion, before the name was taken again. */
  afterDeletion: number;
}

/**
 * Issue 12.1: sign up as U and keep T0, delete the account, then someone else signs up as U and
 * creates a private tree.
 */
export async function reregisterUsername(): Promise<Reregistered> {
  const username = uniqueUsername("reuse");
  const oldToken = await signUp(username, "first.owner@example.com", FIRST_PASSWORD);
  expect((await api.get("/api/trees", { token: oldToken })).status).toBe(200);
  const deleted = await api.delete(
    "/api/account",
    { password: FIRST_PASSWORD },
    { token: oldToken },
  );
  expect(deleted.status).toBe(200);
  const afterDeletion = (await api.get("/api/trees", { token: oldToken })).status;

  const newToken = await signUp(username, "second.owner@example.com", SECOND_PASSWORD);
  const created = await api.post(
    "/api/trees",
    { title: "The second owner's private tree", description: "<p>Mine</p>" },
    { token: newToken },
  );
  expect(created.status).toBe(200);
  return {
    username,
    oldToken,
    newToken,
    treeId: (created.body as { _id: string })._id,
    afterDeletion,
  };
}

/** Every route-handler call the issue names, with the first owner's token: each must be 403. */
export async function expectOldTokenRefused(r: Reregistered): Promise<void> {
  const trees = await api.get("/api/trees", { token: r.oldToken });
  expect({ status: trees.status, body: trees.body as unknown }).toEqual({
    status: 403,
    body: SESSION_EXPIRED,
  });
  const tree = await api.get(`/api/trees/${r.treeId}`, { token: r.oldToken });
  expect(tree.status).toBe(403);
  const people = await api.get(`/api/people?tree=${r.treeId}`, { token: r.oldToken });
  expect(people.status).toBe(403);
  const email = await api.put(
    "/api/user/email",
    { email: "attacker@example.com" },
    { token: r.oldToken },
  );
  expect({ status: email.status, body: email.body as unknown }).toEqual({
    status: 403,
    body: SESSION_EXPIRED,
  });
  expect((await api.get("/api/user", { token: r.oldToken })).status).toBe(403);

  // The second owner is untouched: their address, their tree.
  const me = await api.get("/api/user", { token: r.newToken });
  expect(me.body).toEqual({ email: "second.owner@example.com", _id: r.username });
  const mine = await api.get("/api/trees", { token: r.newToken });
  expect(mine.status).toBe(200);
  expect((mine.body as { _id: string }[]).map((t) => t._id)).toEqual([r.treeId]);
}

/** A reset link mailed to the first owner does not reset the second owner's password. */
export async function expectOldResetLinkRefused(): Promise<void> {
  const username = uniqueUsername("relink");
  const token = await signUp(username, "first.owner@example.com", FIRST_PASSWORD);
  const link = await resetLinkToken(username);
  await api.delete("/api/account", { password: FIRST_PASSWORD }, { token });
  await signUp(username, "second.owner@example.com", SECOND_PASSWORD);
  const reset = await api.post("/api/account/resetpassword", {
    username,
    password: "the attacker's password",
    token: link,
  });
  expect(reset.status).toBe(400);
  expect(await signIn(username, SECOND_PASSWORD)).toEqual(expect.any(String));
}

export interface PasswordChange {
  username: string;
  password: string;
  /** The session that changed the password: its token from before the change. */
  caller: string;
  /** The token the change answered (same session). */
  answered: string;
  /** Another session of the same account, signed in earlier. */
  other: string;
}

/** Issue 13.2: two sessions; one of them changes the password. */
export async function changePasswordFromOneSession(): Promise<PasswordChange> {
  const username = uniqueUsername("pwchange");
  const signupToken = await signUp(username, "owner@example.com", FIRST_PASSWORD);
  const other = await signIn(username, FIRST_PASSWORD);
  const caller = signupToken;
  const changed = await api.put(
    "/api/user/password",
    { oldPassword: FIRST_PASSWORD, newPassword: SECOND_PASSWORD, confirmPassword: SECOND_PASSWORD },
    { token: caller },
  );
  expect(changed.status).toBe(200);
  const answered = (changed.body as { token: string }).token;
  return { username, password: SECOND_PASSWORD, caller, answered, other };
}

export async function expectCallerKeptOthersRevoked(c: PasswordChange): Promise<void> {
  const user = await api.get("/api/user", { token: c.caller });
  expect({ status: user.status, body: user.body as unknown }).toEqual({
    status: 200,
    body: { email: "owner@example.com", _id: c.username },
  });
  expect((await api.get("/api/trees", { token: c.caller })).status).toBe(200);
  expect((await api.get("/api/user", { token: c.answered })).status).toBe(200);
  const other = await api.get("/api/user", { token: c.other });
  expect({ status: other.status, body: other.body as unknown }).toEqual({
    status: 403,
    body: SESSION_EXPIRED,
  });
}

/** A password reset revokes every session, the one that changed the password included. */
export async function expectResetRevokesAll(c: PasswordChange): Promise<void> {
  const fresh = await signIn(c.username, c.password);
  const reset = await api.post("/api/account/resetpassword", {
    username: c.username,
    password: "a third password entirely",
    token: await resetLinkToken(c.username),
  });
  expect(reset.status).toBe(200);
  for (const token of [c.caller, c.answered, fresh]) {
    expect((await api.get("/api/user", { token })).status).toBe(403);
  }
  expect(await db.session.count({ where: { userId: c.username } })).toBe(0);
}
