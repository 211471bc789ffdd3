// The account's language (issue 36, ADR 041), run on PostgreSQL (tests/api/user-locale.test.ts)
// and on the embedded PGlite (tests/pglite/user-locale.test.ts).
import { describe, expect, it } from "vitest";
import { chooseLocale } from "@/lib/i18n/locales";
import { api, detailOf } from "./api";
import { createUser } from "./factories";

/** The NEXT_LOCALE cookie an answer sets: its value and max-age, or null when it sets none. */
function localeCookieOf(headers: Headers): { value: string; maxAge: number } | null {
  const line = headers.getSetCookie().find((cookie) => cookie.startsWith("NEXT_LOCALE="));
  if (!line) return null;
  const value = /^NEXT_LOCALE=([^;]*)/.exec(line)![1]!;
  const maxAge = Number(/Max-Age=(\d+)/i.exec(line)?.[1]);
  expect(line).toMatch(/Path=\//);
  expect(line).not.toMatch(/HttpOnly/i);
  return { value, maxAge };
}

export function userLocaleSuite() {
  describe("the account's language", () => {
    it("starts unset, and GET /api/user stays the contract's {email, _id}", async () => {
      const user = await createUser();
      const answer = await api.get("/api/user/locale", { token: user.token });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ locale: null });
      // an account that follows its browser leaves the device's cookie alone
      expect(localeCookieOf(answer.headers)).toBeNull();
      const account = await api.get("/api/user", { token: user.token });
      expect(account.body).toEqual({ email: user.email, _id: user.username });
    });

    it("is set by PUT, kept, and sets the NEXT_LOCALE cookie that pages follow", async () => {
      const user = await createUser();
      const put = await api.put("/api/user/locale", { locale: "de" }, { token: user.token });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ locale: "de" });
      const cookie = localeCookieOf(put.headers);
      expect(cookie).toEqual({ value: "de", maxAge: 60 * 60 * 24 * 365 });

      // a new device (a sign-in, then this read) gets the cookie too
      const read = await api.get<{ locale: string | null }>("/api/user/locale", {
        token: user.token,
      });
      expect(read.body).toEqual({ locale: "de" });
      expect(localeCookieOf(read.headers)?.value).toBe("de");

      // and the page's choice puts it before another cookie and the browser's languages
      expect(
        chooseLocale({ account: read.body.locale, cookie: "fr", acceptLanguage: "ja,en;q=0.5" }),
      ).toBe("de");
      expect(chooseLocale({ cookie: cookie!.value, acceptLanguage: "ja,en;q=0.5" })).toBe("de");

      const other = await api.put("/api/user/locale", { locale: "zh-Hant" }, { token: user.token });
      expect(other.body).toEqual({ locale: "zh-Hant" });
      expect(localeCookieOf(other.headers)?.value).toBe("zh-Hant");
      expect((await api.get("/api/user/locale", { token: user.token })).body).toEqual({
        locale: "zh-Hant",
      });
    });

    it("null goes back to the browser's language and expires the cookie", async () => {
      const user = await createUser();
      await api.put("/api/user/locale", { locale: "ja" }, { token: user.token });
      const cleared = await api.put("/api/user/locale", { locale: null }, { token: user.token });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toEqual({ locale: null });
      expect(localeCookieOf(cleared.headers)).toEqual({ value: "", maxAge: 0 });
      expect((await api.get("/api/user/locale", { token: user.token })).body).toEqual({
        locale: null,
      });
    });

    it("refuses a language Heirloom does not speak, and a missing one, with 400", async () => {
      const user = await createUser();
      for (const body of [{ locale: "xx" }, { locale: "de-AT" }, { locale: 3 }, {}]) {
        const refused = await api.put("/api/user/locale", body, { token: user.token });
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(detailOf(refused)).toBeTruthy();
        expect(localeCookieOf(refused.headers)).toBeNull();
      }
      expect((await api.get("/api/user/locale", { token: user.token })).body).toEqual({
        locale: null,
      });
    });

    it("is the account's own: another account and no session cannot read or set it", async () => {
      const owner = await createUser();
      const other = await createUser();
      await api.put("/api/user/locale", { locale: "ko" }, { token: owner.token });
      expect((await api.get("/api/user/locale", { token: other.token })).body).toEqual({
        locale: null,
      });
      const anonymous = await api.put("/api/user/locale", { locale: "ru" });
      expect(anonymous.status).toBe(401);
      const expired = await api.put("/api/user/locale", { locale: "ru" }, { token: "nope" });
      expect(expired.status).toBe(403);
      expect(detailOf(expired)).toBe("You're session expired. Please login again.");
      expect((await api.get("/api/user/locale", { token: owner.token })).body).toEqual({
        locale: "ko",
      });
    });
  });
}
