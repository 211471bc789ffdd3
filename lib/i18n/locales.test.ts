import { describe, expect, it } from "vitest";
import { chooseLocale, matchLocale, parseAcceptLanguage } from "./locales";

describe("matchLocale", () => {
  it.each([
    ["en", "en"],
    ["de", "de"],
    ["DE", "de"],
    ["de-AT", "de"],
    ["de_CH", "de"],
    ["fr-CA", "fr"],
    ["es-419", "es"],
    ["pt", "pt-BR"],
    ["pt-BR", "pt-BR"],
    ["pt-br", "pt-BR"],
    ["pt-PT", "pt-BR"],
    ["no", "nb"],
    ["nn", "nb"],
    ["nb-NO", "nb"],
    ["zh", "zh-Hans"],
    ["zh-CN", "zh-Hans"],
    ["zh-SG", "zh-Hans"],
    ["zh-Hans", "zh-Hans"],
    ["zh-Hans-HK", "zh-Hans"],
    ["zh-TW", "zh-Hant"],
    ["zh-HK", "zh-Hant"],
    ["zh-MO", "zh-Hant"],
    ["zh-Hant", "zh-Hant"],
    ["zh-hant-cn", "zh-Hant"],
    ["ja-JP", "ja"],
    ["ko-KR", "ko"],
    ["sv-FI", "sv"],
    ["fi", "fi"],
  ])("%s reads %s", (tag, locale) => {
    expect(matchLocale(tag)).toBe(locale);
  });

  it.each(["", "*", "tr", "ar-EG", "x", "de;q=1", "../etc", "en us"])(
    "%j is none of the eighteen",
    (tag) => {
      expect(matchLocale(tag)).toBeNull();
    },
  );
});

describe("parseAcceptLanguage", () => {
  it("orders by q, ties in the header's order, and leaves out q=0 and *", () => {
    expect(parseAcceptLanguage("fr;q=0.5, de-AT, ja;q=0.9, *;q=0.1, ru;q=0, en")).toEqual([
      "de-AT",
      "en",
      "ja",
      "fr",
    ]);
  });

  it("reads a missing or broken header as nothing", () => {
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage("")).toEqual([]);
    expect(parseAcceptLanguage(";;,,")).toEqual([]);
    expect(parseAcceptLanguage("de;q=abc")).toEqual([]);
  });
});

describe("chooseLocale", () => {
  it("is English with nothing to go on", () => {
    expect(chooseLocale({})).toBe("en");
    expect(chooseLocale({ acceptLanguage: "tr-TR, ar" })).toBe("en");
  });

  it("takes the first language of Accept-Language that Heirloom speaks", () => {
    expect(chooseLocale({ acceptLanguage: "tr-TR, de-AT;q=0.8, en;q=0.7" })).toBe("de");
    expect(chooseLocale({ acceptLanguage: "ja,en-US;q=0.9,en;q=0.8" })).toBe("ja");
    expect(chooseLocale({ acceptLanguage: "zh-TW,zh;q=0.9" })).toBe("zh-Hant");
    expect(chooseLocale({ acceptLanguage: "pt;q=0.9, en;q=0.5" })).toBe("pt-BR");
    expect(chooseLocale({ acceptLanguage: "nn-NO" })).toBe("nb");
  });

  it("puts the cookie before Accept-Language", () => {
    expect(chooseLocale({ cookie: "ru", acceptLanguage: "de" })).toBe("ru");
  });

  it("puts the account's setting before the cookie and Accept-Language", () => {
    expect(chooseLocale({ account: "pl", cookie: "ru", acceptLanguage: "de" })).toBe("pl");
    expect(chooseLocale({ account: "zh-TW", cookie: "ru" })).toBe("zh-Hant");
  });

  it("passes over a setting or cookie that names no language of Heirloom's", () => {
    expect(chooseLocale({ account: "tlh", cookie: "ru", acceptLanguage: "de" })).toBe("ru");
    expect(chooseLocale({ account: null, cookie: "%3Cscript%3E", acceptLanguage: "de" })).toBe(
      "de",
    );
  });
});
