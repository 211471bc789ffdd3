/**
 * The eighteen interface languages of The Sims 4, as BCP 47 tags (docs/decisions/041-languages.md).
 * Each has a catalog at messages/<locale>/*.json. No URL carries a locale: it is chosen per request
 * from the account's setting, the NEXT_LOCALE cookie, then Accept-Language (chooseLocale).
 */
export const LOCALES = [
  "en",
  "de",
  "fr",
  "es",
  "it",
  "nl",
  "pt-BR",
  "pl",
  "cs",
  "ru",
  "sv",
  "da",
  "nb",
  "fi",
  "ja",
  "ko",
  "zh-Hans",
  "zh-Hant",
] as const;

export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = "en";

/** The cookie the language menu sets (the name next-intl's own middleware uses). */
export const LOCALE_COOKIE = "NEXT_LOCALE";

/** A year: the choice outlives the session, as the account's would. */
export const LOCALE_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

/**
 * Each language in its own words, for the language menu: a reader who cannot read the current
 * language still finds theirs. Never translated, so not in the catalogs.
 */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  it: "Italiano",
  nl: "Nederlands",
  "pt-BR": "Português (Brasil)",
  pl: "Polski",
  cs: "Čeština",
  ru: "Русский",
  sv: "Svenska",
  da: "Dansk",
  nb: "Norsk (bokmål)",
  fi: "Suomi",
  ja: "日本語",
  ko: "한국어",
  "zh-Hans": "简体中文",
  "zh-Hant": "繁體中文",
};

const BY_LOWER = new Map<string, Locale>(LOCALES.map((locale) => [locale.toLowerCase(), locale]));

/** Chinese regions whose readers write Traditional characters. */
const TRADITIONAL_REGIONS = new Set(["tw", "hk", "mo"]);

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The supported locale that serves a language tag, or null: exact tags first (any case, `_` or
 * `-`), then the language's own rules: every Portuguese reads pt-BR (the game's only Portuguese),
 * Norwegian (no, nb, nn) reads nb, Chinese picks its script from the script subtag, else from the
 * region (Taiwan, Hong Kong, Macau: Traditional; anywhere else: Simplified); any other tag falls
 * back to its language (de-AT reads de).
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const lower = tag.trim().toLowerCase().replaceAll("_", "-");
  if (!/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(lower)) return null;
  const exact = BY_LOWER.get(lower);
  if (exact) return exact;
  const [language, ...rest] = lower.split("-");
  switch (language) {
    case "pt":
      return "pt-BR";
    case "no":
    case "nn":
    case "nb":
      return "nb";
    case "zh": {
      if (rest.includes("hant")) return "zh-Hant";
      if (rest.includes("hans")) return "zh-Hans";
      return rest.some((part) => TRADITIONAL_REGIONS.has(part)) ? "zh-Hant" : "zh-Hans";
    }
    default:
      return BY_LOWER.get(language!) ?? null;
  }
}

/**
 * The tags of an Accept-Language header, most wanted first: by q (default 1), ties in the
 * header's order; q=0 ("not this one") and `*` are left out.
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries: { tag: string; q: number; index: number }[] = [];
  header.split(",").forEach((part, index) => {
    const [rawTag, ...params] = part.trim().split(";");
    const tag = rawTag?.trim();
    if (!tag || tag === "*") return;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.trim().split("=");
      if (name?.trim().toLowerCase() === "q") {
        q = Number(value);
        if (!Number.isFinite(q)) q = 0;
      }
    }
    if (q > 0) entries.push({ tag, q, index });
  });
  return entries.sort((a, b) => b.q - a.q || a.index - b.index).map((entry) => entry.tag);
}

export interface LocaleSources {
  /** The account's own setting, when the request knows the account. */
  account?: string | null;
  /** The NEXT_LOCALE cookie the language menu sets. */
  cookie?: string | null;
  /** The browser's Accept-Language header. */
  acceptLanguage?: string | null;
}

/** The locale of a request: the account's setting, else the cookie, else Accept-Language, else en. */
export function chooseLocale({ account, cookie, acceptLanguage }: LocaleSources): Locale {
  const chosen = matchLocale(account) ?? matchLocale(cookie);
  if (chosen) return chosen;
  for (const tag of parseAcceptLanguage(acceptLanguage)) {
    const locale = matchLocale(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
