// Issue 32, finding 5, on both engines: tests/api/current-password-lockout.test.ts (PostgreSQL) and
// tests/pglite/current-password-lockout.test.ts (the embedded default).
//
// Before, wrong current passwords were counted per account: ten of them on `PUT /api/user/email`
// with a stolen token made the owner's own password change, with the right password, answer 429
// for 15 minutes, and the thief could repeat it. The password change is what ends the thief's
// session. Now they are counted per session, and the one that reaches the limit ends the session
// that sent it (lib/server/account/verify-current-password.ts).
import { describe, expect, it } from "vitest";
import { PASSWORD_CHECK_PER_SESSION } from "@/lib/server/rate-limit";
import { db } from "@/lib/server/db";
import { api, detailOf } from "./api";
import { type TestUser, createUser } from "./factories";

const SESSION_EXPIRED = "You're session expired. Please login again.";
const LIMIT = PASSWORD_CHECK_PER_SESSION.limit;

/** The owner's account, and a second session of it (a token the thief stole). */
async function ownerAndThief(): Promise<{ owner: TestUser; stolen: string }> {
  const owner = await createUser();
  const signin = await api.post<{ token: string }>("/api/account/signin", {
    username: owner.username,
    password: owner.password,
  });
  expect(signin.status).toBe(200);
  return { owner, stolen: signin.body.token };
}

function changePassword(token: string, oldPassword: string, newPassword = "a new password 1") {
  return api.put(
    "/api/user/password",
    { oldPassword, newPassword, confirmPassword: newPassword },
    { token },
  );
}

export function describeCurrentPasswordLockout(engine: string): void {
  describe(`wrong current passwords on ${engine} (issue 32.5)`, () => {
    it("end the thief's session, and the owner then changes the password after a fresh sign-in", async () => {
      const { owner, stolen } = await ownerAndThief();
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const response = await api.put(
          "/api/user/email",
          { email: "thief@example.test", password: `guess number ${i}` },
          { token: stolen },
        );
        statuses.push(response.status);
        if (response.status === 400) expect(detailOf(response)).toBe("Your password is incorrect");
        else expect(detailOf(response)).toBe(SESSION_EXPIRED);
      }
      // The guesses until the limit are wrong passwords; the one that reaches it ends the session.
      expect(statuses).toEqual([
        ...Array<number>(LIMIT - 1).fill(400),
        ...Array<number>(10 - LIMIT + 1).fill(403),
      ]);
      // The stolen token is dead for everything, not only the settings calls.
      expect((await api.get("/api/user", { token: stolen })).status).toBe(403);
      const user = await db.user.findUniqueOrThrow({ where: { id: owner.username } });
      expect(user.email).toBe(owner.email);

      // The owner signs in afresh and changes the password with the right one.
      const signin = await api.post<{ token: string }>("/api/account/signin", {
        username: owner.username,
        password: owner.password,
      });
      expect(signin.status).toBe(200);
      const changed = await changePassword(signin.body.token, owner.password);
      expect(changed.status).toBe(200);
      const again = await api.post("/api/account/signin", {
        username: owner.username,
        password: "a new password 1",
      });
      expect(again.status).toBe(200);
    });

    it("never lock the owner's other sessions out of the password change", async () => {
      const { owner, stolen } = await ownerAndThief();
      // The owner's own typos, fewer than the limit, leave the owner's session working…
      for (let i = 0; i < LIMIT - 1; i++) {
        expect((await changePassword(owner.token, `typo number ${i}`)).status).toBe(400);
      }
      // …and the thief's guesses count for the thief's session only.
      for (let i = 0; i < 10; i++) {
        await api.put(
          "/api/user/email",
          { email: "thief@example.test", password: `guess number ${i}` },
          { token: stolen },
        );
      }
      // The owner's own session, signed in before the theft, with the right password.
      const changed = await changePassword(owner.token, owner.password);
      expect(changed.status).toBe(200);
      expect((await api.get("/api/user", { token: stolen })).status).toBe(403);
    });

    it("give a burst of guesses sent at once no more checks than the limit", async () => {
      const { owner, stolen } = await ownerAndThief();
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          changePassword(stolen, `guess number ${i}`, "the thief's password"),
        ),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([
        ...Array<number>(LIMIT - 1).fill(400),
        ...Array<number>(12 - LIMIT + 1).fill(403),
      ]);
      expect(await db.session.count({ where: { userId: owner.username } })).toBe(1);
      expect((await changePassword(owner.token, owner.password)).status).toBe(200);
    });
  });
}
