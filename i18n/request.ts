import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import type { AbstractIntlMessages } from "next-intl";
import { chooseLocale, LOCALE_COOKIE } from "@/lib/i18n/locales";
import { CATALOG_PARTS } from "@/lib/i18n/parts";

/**
 * next-intl's configuration for each request (found through next-intl/plugin in next.config.ts).
 * No URL names a locale, so it is chosen here, per request: the NEXT_LOCALE cookie, then the
 * browser's Accept-Language (i18n/locales.ts). Pages render without the bearer token, so an
 * account's own setting reaches the server through that cookie (docs/decisions/041-languages.md).
 */
export default getRequestConfig(async () => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const locale = chooseLocale({
    cookie: cookieStore.get(LOCALE_COOKIE)?.value,
    acceptLanguage: headerList.get("accept-language"),
  });
  // each part of the catalog is its own module (lib/i18n/parts.ts); their namespaces never overlap
  const parts = await Promise.all(
    CATALOG_PARTS.map(
      (part) =>
        import(`../messages/${locale}/${part}.json`) as Promise<{ default: AbstractIntlMessages }>,
    ),
  );
  const messages: AbstractIntlMessages = {};
  for (const part of parts) Object.assign(messages, part.default);
  return { locale, messages };
});
