import { z } from "zod";
import "@/lib/schemas/zod-config";
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, LOCALES, type Locale } from "./locales";

/**
 * The account's language (issue 36, ADR 041): `GET /api/user/locale` answers it and
 * `PUT /api/user/locale` sets it, as `{locale}`: one of the eighteen tags, or null for "follow
 * the browser" (the cookie, then Accept-Language). A route of its own beside /api/user/email, so
 * that `GET /api/user` stays the contract's `{email, _id}` for the original client.
 */
export const UNKNOWN_LOCALE = "That language is not one of Heirloom's";

export const accountLocaleBody = z.object({
  locale: z.enum(LOCALES, { error: UNKNOWN_LOCALE }).nullable(),
});

export type AccountLocaleBody = z.infer<typeof accountLocaleBody>;

export interface AccountLocale {
  locale: Locale | null;
}

/**
 * The Set-Cookie (or document.cookie) line that makes every later page render in `locale`;
 * null expires the cookie, so the browser's Accept-Language speaks again. Not HttpOnly: the
 * language menu writes the same cookie from the page.
 */
export function localeCookie(locale: Locale | null, secure: boolean): string {
  const value = locale ?? "";
  const maxAge = locale ? LOCALE_COOKIE_MAX_AGE : 0;
  return `${LOCALE_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure ? "; Secure" : ""}`;
}
