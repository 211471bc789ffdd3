// The account calls on the zero-setup path: embedded PGlite, no SMTP_URL (mail goes to the dev
// outbox as .eml files), no JWT_SECRET (generated and kept in the database).
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getEnv } from "@/lib/env";
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
    expect(env.OUTBOX_DIR).toBe(path.resolve(".data/test-pglite/outbox"));
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
    const mails = await outboxMailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("pg_first");
    expect(mails[0]!.text).toContain("pg_second");
  });
});
