// GET /api/user/locale - the signed-in account's language, {locale} (a tag, or null: the browser's)
// PUT /api/user/locale {locale} - sets it
// Both answers carry the NEXT_LOCALE cookie of that language (ADR 041): pages are rendered without
// the bearer token, so the cookie is how the account's choice reaches them, before the browser's
// Accept-Language. The client reads the locale after signing in, so a new device follows it at once.
import { accountLocaleBody, localeCookie } from "@/lib/i18n/account-locale";
import { getUserLocale, setUserLocale } from "@/lib/server/account/user-locale";
import { json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";

const isHttps = (req: Request) =>
  new URL(req.url).protocol === "https:" ||
  req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";

export const GET = withAuth(async ({ req, user }) => {
  const answer = await getUserLocale(user.id);
  const response = json(answer);
  // null: the account follows the browser, and whatever the menu chose on this device stays
  if (answer.locale) response.headers.append("set-cookie", localeCookie(answer.locale, isHttps(req)));
  return response;
});

export const PUT = withAuth(async ({ req, user }) => {
  const answer = await setUserLocale(user.id, await parseBody(req, accountLocaleBody));
  const response = json(answer);
  // null: the menu's earlier choice goes too, so "the browser's language" means it
  response.headers.append("set-cookie", localeCookie(answer.locale, isHttps(req)));
  return response;
});

export const { POST, PATCH, DELETE, OPTIONS } = otherMethods("GET", "PUT");
