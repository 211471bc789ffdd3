import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CATALOG_PARTS } from "./parts";

/**
 * Reading the catalogs and the code that names their keys, for the catalog tests
 * (catalogs.test.ts). Node only: never imported by the app.
 *
 * The naming rules that make the scan reliable (docs/decisions/041-languages.md):
 * - a translator is bound once per name and file, from a literal namespace:
 *   `const t = useTranslations("Home")` or `const t = await getTranslations("Home")`;
 * - every key is a literal at the call: `t("welcome")`, `t.rich("guidesText", …)`.
 */

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const MESSAGES_DIR = path.join(ROOT, "messages");

export type Catalog = { [key: string]: string | Catalog };

/** One part of a locale's catalog (messages/<locale>/<part>.json). */
export function readCatalogPart(locale: string, part: string): Catalog {
  return JSON.parse(
    readFileSync(path.join(MESSAGES_DIR, locale, `${part}.json`), "utf8"),
  ) as Catalog;
}

/** A locale's whole catalog: its parts merged, as i18n/request.ts merges them. */
export function readCatalog(locale: string): Catalog {
  return Object.assign(
    {},
    ...CATALOG_PARTS.map((part) => readCatalogPart(locale, part)),
  ) as Catalog;
}

/** The catalog folders present, by locale. */
export function catalogLocales(): string[] {
  return readdirSync(MESSAGES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** The part files of a locale's folder. */
export function catalogParts(locale: string): string[] {
  return readdirSync(path.join(MESSAGES_DIR, locale))
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .sort();
}

/** Every message of a catalog by its dotted key ("Home.welcome"). */
export function flatten(catalog: Catalog, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    const dotted = prefix + key;
    if (typeof value === "string") out.set(dotted, value);
    else for (const [k, v] of flatten(value, `${dotted}.`)) out.set(k, v);
  }
  return out;
}

/** The folders whose code may use translations. */
const SOURCE_DIRS = ["app", "components", "lib", "i18n"];
const SKIP = /(\.test\.tsx?|\.d\.ts)$/;
/** This file describes the rules in words the scan would read as code. */
const SELF = path.join("lib", "i18n", "catalog-files.ts");

export function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "generated" && entry.name !== "node_modules") walk(full);
      } else if (
        /\.tsx?$/.test(entry.name) &&
        !SKIP.test(entry.name) &&
        path.relative(ROOT, full) !== SELF
      ) {
        files.push(full);
      }
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(ROOT, dir));
  return files.sort();
}

export interface KeyScan {
  /** Every dotted key the code names, with a file that names it. */
  used: Map<string, string>;
  /** What breaks the naming rules: the scan could not see the key, so the test fails. */
  problems: string[];
}

const TRANSLATOR = /\b(useTranslations|getTranslations)\s*\(/g;
const BINDING =
  /(?:const|let)\s+(\w+)\s*=\s*(?:await\s+)?(?:useTranslations|getTranslations)\(\s*"([^"]+)"\s*\)/g;

/** The keys a source text names, by the rules above. */
export function scanSource(text: string, file: string, scan: KeyScan): void {
  const bindings = new Map<string, string>();
  let bound = 0;
  for (const match of text.matchAll(BINDING)) {
    const [, name, namespace] = match as unknown as [string, string, string];
    bound++;
    const earlier = bindings.get(name);
    if (earlier !== undefined && earlier !== namespace) {
      scan.problems.push(`${file}: "${name}" is bound to both ${earlier} and ${namespace}`);
    }
    bindings.set(name, namespace);
  }
  const calls = [...text.matchAll(TRANSLATOR)].filter(
    // the import line names the functions without calling them
    (match) => !/import\s*\{[^}]*$/.test(text.slice(Math.max(0, match.index - 200), match.index)),
  ).length;
  if (calls !== bound) {
    scan.problems.push(
      `${file}: ${calls} translator(s) made, ${bound} bound as \`const t = useTranslations("Namespace")\``,
    );
  }
  for (const [name, namespace] of bindings) {
    const call = new RegExp(
      `(?<![\\w.])${name}(?:\\.(rich|markup|raw|has))?\\(\\s*([^)\\s,]*)`,
      "g",
    );
    for (const match of text.matchAll(call)) {
      const argument = match[2] ?? "";
      const literal = /^"([^"]+)"$/.exec(argument) ?? /^'([^']+)'$/.exec(argument);
      if (!literal) {
        scan.problems.push(`${file}: ${name}(${argument}…) does not name its key as a literal`);
        continue;
      }
      const key = `${namespace}.${literal[1]}`;
      if (!scan.used.has(key)) scan.used.set(key, path.relative(ROOT, file));
    }
  }
}

export function scanKeys(files = sourceFiles()): KeyScan {
  const scan: KeyScan = { used: new Map(), problems: [] };
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    if (!/useTranslations|getTranslations/.test(text)) continue;
    scanSource(text, path.relative(ROOT, file), scan);
  }
  return scan;
}
