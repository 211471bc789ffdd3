import "server-only";
import type { AccountLocale, AccountLocaleBody } from "@/lib/i18n/account-locale";
import { isLocale } from "@/lib/i18n/locales";
import { db } from "@/lib/server/db";

/** The account's language, or null when it follows the browser (ADR 041). */
export async function getUserLocale(username: string): Promise<AccountLocale> {
  const user = await db.user.findUniqueOrThrow({
    where: { id: username },
    select: { locale: true },
  });
  // a tag a later release no longer speaks reads as "the browser's", never as a wrong language
  return { locale: isLocale(user.locale) ? user.locale : null };
}

/** Sets the account's language (already checked against the eighteen by the schema). */
export async function setUserLocale(
  username: string,
  { locale }: AccountLocaleBody,
): Promise<AccountLocale> {
  await db.user.update({ where: { id: username }, data: { locale } });
  return { locale };
}
