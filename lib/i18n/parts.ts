/**
 * The parts each language's catalog is kept in: messages/<locale>/<part>.json, merged into one
 * set of messages per request (i18n/request.ts). A part is the messages of one area of the app,
 * so that the people working on different areas edit different files. A namespace (the top
 * level of a part) lives in one part only (lib/i18n/catalogs.test.ts).
 */
export const CATALOG_PARTS = [
  "common",
  "legacy",
  "game",
  "sync",
  "editor",
  "account",
  "public",
  "gallery",
] as const;

export type CatalogPart = (typeof CATALOG_PARTS)[number];
