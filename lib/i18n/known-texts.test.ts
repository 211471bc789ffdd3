// The English sentences the UI translates by their text (components/ui/known-text.tsx, issue 36):
// each is still a sentence the server or the schemas say, English keeps it letter for letter, and
// every other language has its own words for it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { flatten, readCatalog, ROOT } from "./catalog-files";
import { LOCALES } from "./locales";

const SOURCE = readFileSync(path.join(ROOT, "components/ui/known-text.tsx"), "utf8");
const CASES = [...SOURCE.matchAll(/case "([^"]+)":\s*return t\("(\w+)"\);/g)].map(
  ([, text, key]) => ({ text: text!, key: key! }),
);

/** The text of every file under `dir` that says things to the client. */
function texts(dir: string): string {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
        out.push(readFileSync(full, "utf8"));
    }
  };
  walk(path.join(ROOT, dir));
  return out.join("\n");
}

const SAID = [texts("lib/schemas"), texts("lib/server"), texts("components/account")].join("\n");

describe("the sentences the UI knows by their text", () => {
  it("are read from the switch (one case per key)", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    expect(new Set(CASES.map((c) => c.key)).size).toBe(CASES.length);
  });

  it.each(CASES)("'$text' is still said by the server or the schemas", ({ text }) => {
    expect(SAID).toContain(`"${text}"`);
  });

  it.each(CASES)("'$text' stays exact in English", ({ text, key }) => {
    expect(flatten(readCatalog("en")).get(`KnownTexts.${key}`)).toBe(text);
  });

  it.each(LOCALES.filter((locale) => locale !== "en"))(
    "%s says each in its own words",
    (locale) => {
      const catalog = flatten(readCatalog(locale));
      for (const { text, key } of CASES) {
        const translated = catalog.get(`KnownTexts.${key}`);
        expect(translated, key).toBeTruthy();
        expect(translated, key).not.toBe(text);
      }
    },
  );
});
