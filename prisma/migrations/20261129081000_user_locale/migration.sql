-- The account's interface language (issue 36, ADR 041): one of the eighteen tags of
-- lib/i18n/locales.ts, or NULL for "the browser's". Nullable, so every existing account keeps
-- following its cookie and Accept-Language.

-- AlterTable
ALTER TABLE "User" ADD COLUMN "locale" TEXT;
