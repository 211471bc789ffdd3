// The account calls on the zero-setup path: embedded PGlite, no SMTP_URL (mail goes to the dev
// outbox as .eml files), no JWT_SECRET (generated and kept in the database).
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getEnv } from "@/lib/env";
import { holdMailSenderForTests, settleMailForTests } from "@/lib/server/account/mail-jobs";
import { EMAIL_CHANGE_NEEDS_PASSWORD, RECENT_SIGN_IN_MS } from "@/lib/server/account/update-email";
import { db } from "@/lib/server/db";
import { api, detailOf } from "../helpers/api";
import { type ReceivedMail, findLink, parseMail } from "../helpers/mail";

const PASSWORD = "correct horse battery";

async function outboxMailTo(email: string): Promise<ReceivedMail[]> {
  const dir = getEnv().OUTBOX_DIR;
  const files = await fs.readdir(dir).catch(() => [] as string[]);
  const mails = await Promise.all(
    files
      .filter((f) => f.endsWith(".eml"))
      .sort()
      .map(async (f) => parseMail(await fs.readFile(path.join(dir, f), "utf8"))),
  );
  return mails.filter((m) => m.to.includes(email));
}

describe("accounts on embedded PGlite", () => {
  it("uses the embedded database and the dev outbox", () => {
    const env = getEnv();
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.OUTBOX_DIR).toBe(path.join(path.resolve(process.env.DATA_DIR!), "outbox"));
  });

  it("signs up, signs in, reads the user and resets the password from the outbox mail", async () => {
    const username = "Pglite_Player";
    const email = "pglite.player@example.com";

    const signup = await api.post("/api/account/signup", { username, email, password: PASSWORD });
    expect(signup.status).toBe(200);
    const { token } = signup.body as { token: string };

    const taken = await api.post("/api/account/signup", { username, email, password: PASSWORD });
    expect(taken.status).toBe(409);
    expect(detailOf(taken)).toBe("That username is taken");

    const me = await api.get("/api/user", { token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ email, _id: username });

    const wrong = await api.post("/api/account/signin", { username, password: "nope nope" });
    expect(wrong.status).toBe(400);
    expect(detailOf(wrong)).toBe("Incorrect username or password");
    const signin = await api.post("/api/account/signin", { username, password: PASSWORD });
    expect(signin.status).toBe(200);

    expect(await outboxMailTo(email)).toHaveLength(0);
    const forgot = await api.post("/api/account/forgotpassword", { username });
    expect(forgot.status).toBe(200);
    await settleMailForTests();
    const mails = await outboxMailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Reset your Heirloom password");
    const link = findLink(mails[0]!.text, "/reset-password?");
    expect(link.searchParams.get("u")).toBe(username);

    const newPassword = "a new pglite password";
    const reset = await api.post("/api/account/resetpassword", {
      username: link.searchParams.get("u"),
      password: newPassword,
      token: link.searchParams.get("t"),
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ message: "Password has been saved" });

    const reused = await api.post("/api/account/resetpassword", {
      username,
      password: "once more with feeling",
      token: link.searchParams.get("t"),
    });
    expect(reused.status).toBe(400);
    expect(detailOf(reused)).toBe("This reset link is invalid or has expired");

    expect((await api.get("/api/user", { token })).status).toBe(403);
    const again = await api.post("/api/account/signin", { username, password: newPassword });
    expect(again.status).toBe(200);
  });

  it("mails forgotten usernames to the outbox", async () => {
    const email = "shared.pglite@example.com";
    for (const username of ["pg_first", "pg_second"]) {
      const response = await api.post("/api/account/signup", {
        username,
        email,
        password: PASSWORD,
      });
      expect(response.status).toBe(200);
    }
    const response = await api.post("/api/account/forgotusername", { email });
    expect(response.status).toBe(200);
    await settleMailForTests();
    const mails = await outboxMailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("pg_first");
    expect(mails[0]!.text).toContain("pg_second");
  });

  it("answers forgot-password before the mail is made, the same for an unknown name (22.7)", async () => {
    const username = "pg_timing";
    const email = "pg.timing@example.com";
    const signup = await api.post("/api/account/signup", { username, email, password: PASSWORD });
    expect(signup.status).toBe(200);
    await holdMailSenderForTests(true);
    try {
      const known = await api.post("/api/account/forgotpassword", { username });
      const unknown = await api.post("/api/account/forgotpassword", { username: "pg_nobody" });
      expect([known.status, unknown.status]).toEqual([200, 200]);
      expect(known.body).toEqual(unknown.body);
      expect(await db.passwordResetToken.count({ where: { userId: username } })).toBe(0);
      expect(await outboxMailTo(email)).toHaveLength(0);
    } finally {
      await holdMailSenderForTests(false);
    }
    await settleMailForTests();
    expect(await outboxMailTo(email)).toHaveLength(1);
  });

  it("changes the email with the password or a fresh sign-in only, and the old address can undo it (22.5)", async () => {
    const username = "pg_mover";
    const email = "pg.mover@example.com";
    const signup = await api.post("/api/account/signup", { username, email, password: PASSWORD });
    const { token } = signup.body as { token: string };
    await db.session.updateMany({
      where: { userId: username },
      data: { createdAt: new Date(Date.now() - RECENT_SIGN_IN_MS - 60_000) },
    });
    const tokenAlone = await api.put("/api/user/email", { email: "thief@example.com" }, { token });
    expect(tokenAlone.status).toBe(400);
    expect(detailOf(tokenAlone)).toBe(EMAIL_CHANGE_NEEDS_PASSWORD);
    const moved = await api.put(
      "/api/user/email",
      { email: "thief@example.com", password: PASSWORD },
      { token },
    );
    expect(moved.status).toBe(200);
    await settleMailForTests();
    const [notice] = await outboxMailTo(email);
    expect(notice?.subject).toBe("The email address of your Heirloom account was changed");
    const link = findLink(notice!.text, "/restore-email?");
    const restored = await api.post("/api/account/restoreemail", {
      username: link.searchParams.get("u"),
      token: link.searchParams.get("t"),
    });
    expect(restored.status).toBe(200);
    expect((await api.get("/api/user", { token })).status).toBe(403);
    expect((await db.user.findUniqueOrThrow({ where: { id: username } })).email).toBe(email);
  });
});
