import { readFileSync } from "node:fs";
import path from "node:path";
import {
  isPluralElement,
  isSelectElement,
  isTagElement,
  parse,
  TYPE,
  type MessageFormatElement,
} from "@formatjs/icu-messageformat-parser";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import {
  catalogLocales,
  catalogParts,
  flatten,
  readCatalog,
  readCatalogPart,
  ROOT,
  scanKeys,
  scanSource,
  type KeyScan,
} from "./catalog-files";
import { LOCALES } from "./locales";
import { CATALOG_PARTS } from "./parts";

const english = flatten(readCatalog("en"));

describe("the catalogs", () => {
  it("are one per language of the game, and no other", () => {
    expect(catalogLocales()).toEqual([...LOCALES].sort());
  });

  it.each(LOCALES)("%s is kept in the listed parts, each namespace in one part", (locale) => {
    expect(catalogParts(locale)).toEqual([...CATALOG_PARTS].sort());
    const owner = new Map<string, string>();
    const twice: string[] = [];
    for (const part of CATALOG_PARTS) {
      for (const namespace of Object.keys(readCatalogPart(locale, part))) {
        const first = owner.get(namespace);
        if (first) twice.push(`${namespace} in ${first} and ${part}`);
        owner.set(namespace, part);
      }
    }
    expect(twice).toEqual([]);
  });

  it.each(LOCALES.filter((locale) => locale !== "en"))(
    "%s keeps each namespace in the part English keeps it in",
    (locale) => {
      for (const part of CATALOG_PARTS) {
        expect(Object.keys(readCatalogPart(locale, part)).sort()).toEqual(
          Object.keys(readCatalogPart("en", part)).sort(),
        );
      }
    },
  );

  it.each(LOCALES.filter((locale) => locale !== "en"))(
    "%s has every key of English, and no other",
    (locale) => {
      const keys = [...flatten(readCatalog(locale)).keys()].sort();
      expect(keys).toEqual([...english.keys()].sort());
    },
  );

  it.each(LOCALES)("%s has no empty message", (locale) => {
    const empty = [...flatten(readCatalog(locale))].filter(([, text]) => !text.trim());
    expect(empty).toEqual([]);
  });
});

describe("the keys in the code", () => {
  const scan = scanKeys();

  it("follow the naming rules, so that the scan sees every one", () => {
    expect(scan.problems).toEqual([]);
    // The scan found the translated code at all.
    expect(scan.used.size).toBeGreaterThan(20);
  });

  it("are all in the English catalog (and so in every catalog)", () => {
    const missing = [...scan.used].filter(([key]) => !english.has(key));
    expect(missing).toEqual([]);
  });

  it("use every key of the catalogs: none is left over", () => {
    const unused = [...english.keys()].filter((key) => !scan.used.has(key));
    expect(unused).toEqual([]);
  });

  it("the scan reads bindings, literal keys and rich calls, and reports what it cannot see", () => {
    const local: KeyScan = { used: new Map(), problems: [] };
    scanSource(
      [
        'import { useTranslations } from "next-intl";',
        'const t = useTranslations("A");',
        'const tb = await getTranslations("B");',
        't("one"); t.rich("two", { b: (c) => c }); tb(\'three\'); t(key); format("x");',
        "const loose = useTranslations();",
      ].join("\n"),
      "x.tsx",
      local,
    );
    expect([...local.used.keys()].sort()).toEqual(["A.one", "A.two", "B.three"]);
    expect(local.problems).toEqual([
      'x.tsx: 3 translator(s) made, 2 bound as `const t = useTranslations("Namespace")`',
      "x.tsx: t(key…) does not name its key as a literal",
    ]);
  });
});

/** The names of a message's arguments and tags, and its plural arguments with their options. */
function shape(elements: MessageFormatElement[]) {
  const names = new Set<string>();
  const plurals = new Map<string, string[]>();
  const walk = (list: MessageFormatElement[]) => {
    for (const element of list) {
      if (element.type === TYPE.argument || element.type === TYPE.number) names.add(element.value);
      if (isTagElement(element)) {
        names.add(`<${element.value}>`);
        walk(element.children);
      }
      if (isPluralElement(element) || isSelectElement(element)) {
        names.add(element.value);
        if (isPluralElement(element)) plurals.set(element.value, Object.keys(element.options));
        for (const option of Object.values(element.options)) walk(option.value);
      }
    }
  };
  walk(elements);
  return { names: [...names].sort(), plurals };
}

/** Sample values for a message's arguments: a number for plurals, a word or a tag otherwise. */
function sampleValues(elements: MessageFormatElement[]) {
  const values: Record<string, unknown> = {};
  const { names, plurals } = shape(elements);
  for (const name of names) {
    if (name.startsWith("<")) values[name.slice(1, -1)] = (chunks: unknown) => chunks;
    else values[name] = plurals.has(name) ? 3 : "Bella";
  }
  return values;
}

describe("every message", () => {
  it.each(LOCALES)("in %s parses as ICU and formats with next-intl", (locale) => {
    const catalog = readCatalog(locale);
    const errors: string[] = [];
    const t = createTranslator({
      locale,
      messages: catalog,
      onError: (error) => errors.push(error.message),
    });
    for (const [key, text] of flatten(catalog)) {
      const elements = parse(text);
      const values = sampleValues(elements);
      const out = t.rich(key as never, values as never);
      expect(out, key).toBeTruthy();
    }
    expect(errors).toEqual([]);
  });

  it.each(LOCALES.filter((locale) => locale !== "en"))(
    "in %s has English's arguments and tags, and every plural form the language needs",
    (locale) => {
      const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
      const problems: string[] = [];
      for (const [key, text] of flatten(readCatalog(locale))) {
        const theirs = shape(parse(text));
        const ours = shape(parse(english.get(key)!));
        if (theirs.names.join() !== ours.names.join()) {
          problems.push(`${key}: ${theirs.names.join()} instead of ${ours.names.join()}`);
        }
        for (const [argument] of ours.plurals) {
          const options = theirs.plurals.get(argument);
          if (!options) {
            problems.push(`${key}: {${argument}} is not a plural`);
            continue;
          }
          const missing = categories.filter((category) => !options.includes(category));
          const foreign = options.filter(
            (option) => !option.startsWith("=") && !categories.includes(option as never),
          );
          if (missing.length) problems.push(`${key}: no ${missing.join(", ")} form`);
          if (foreign.length) problems.push(`${key}: ${foreign.join(", ")} is not a form of it`);
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it("pick the plural form by count, and write the number through Intl", () => {
    // The catalog is read as plain JSON, so its messages' arguments are not typed here.
    type Translate = (key: string, values: Record<string, number>) => string;
    const t = createTranslator({
      locale: "ru",
      messages: readCatalog("ru"),
      namespace: "Home",
    }) as unknown as Translate;
    expect(t("growText", { count: 1 })).toContain("1 поколение");
    expect(t("growText", { count: 3 })).toContain("3 поколения");
    expect(t("growText", { count: 10 })).toContain("10 поколений");
    const de = createTranslator({
      locale: "de",
      messages: readCatalog("de"),
      namespace: "Home",
    }) as unknown as Translate;
    expect(de("growText", { count: 1000 })).toContain("1.000 Generationen");
  });
});

describe("SPEC.md's texts", () => {
  /** English texts SPEC.md names exactly: the English catalog keeps them letter for letter. */
  const SPEC_TEXTS: Record<string, string> = {
    "AccountMenu.account": "Account",
    "AccountMenu.settings": "Account Settings",
    "AccountMenu.logout": "Logout",
    "AccountMenu.login": "Login",
    "AccountMenu.createAccount": "Create Account",
    "SideNav.home": "Home",
    "SideNav.guides": "Guides",
    "SideNav.yourTrees": "Your Trees",
    "SideNav.createNew": "Create New",
    "SideNav.untitledTree": "Untitled Tree",
    "Shell.menu": "Menu",
    "Shell.close": "Close",
    "VersionTable.apiVersion": "API Version",
    "VersionTable.apiColor": "API Color",
    "VersionTable.uiVersion": "UI Version",
    "VersionTable.uiColor": "UI Color",
    "VersionTable.domain": "Domain",
    "VersionTable.unknown": "unknown",
  };
  const spec = readFileSync(path.join(ROOT, "../shared/SPEC.md"), "utf8");

  it.each(Object.entries(SPEC_TEXTS))("%s stays %j in English", (key, text) => {
    expect(spec).toContain(text);
    expect(english.get(key)).toBe(text);
  });
});
