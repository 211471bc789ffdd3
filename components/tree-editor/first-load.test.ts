import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The modules a page's first load runs: its static imports, followed through the app's own files
 * (`@/…` and relative), leaving out type-only imports and `import()` (loaded later, e.g. by
 * next/dynamic). Answers each module with the packages it imports.
 */
function firstLoad(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const resolve = (from: string, specifier: string): string | null => {
    const base = specifier.startsWith("@/")
      ? path.join(root, specifier.slice(2))
      : specifier.startsWith(".")
        ? path.resolve(path.dirname(from), specifier)
        : null;
    if (!base) return null;
    for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
      if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
    }
    throw new Error(`${specifier} (from ${from}) not found`);
  };
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const source = fs.readFileSync(file, "utf8");
    const packages: string[] = [];
    seen.set(file, packages);
    // `import x from "…"`, `import { a, type B } from "…"`, `export { a } from "…"`, `import "…"`
    const statement = /^\s*(?:import|export)\s+(type\s+)?(?:[^;"']*?\s+from\s+)?["']([^"']+)["']/gm;
    for (const match of source.matchAll(statement)) {
      if (match[1]) continue; // import type … / export type …
      const specifier = match[2]!;
      const local = resolve(file, specifier);
      if (local) visit(local);
      else packages.push(specifier);
    }
  };
  visit(path.join(root, entry));
  return seen;
}

describe("the tree editor's first load", () => {
  const modules = firstLoad("app/(app)/trees/[treeId]/page.tsx");

  it("follows the page's imports into the editor and its canvas", () => {
    const files = [...modules.keys()].map((file) => path.relative(root, file));
    expect(files).toContain("components/tree-editor/tree-editor.tsx");
    expect(files).toContain("components/tree-canvas/tree-canvas.tsx");
    expect(files).toContain("components/tree-editor/tree-saver.ts");
    expect(files).toContain("lib/tree/layout.ts");
  });

  // zod (about 100 KB of script) validates on the server; the editor opening a 10,000-Sim tree
  // should not parse and run it first (issue 15). The node editor, which uses it, loads later.
  it.each(["zod", "fast-json-patch", "react-select"])("does not import %s", (name) => {
    const importers = [...modules]
      .filter(([, packages]) => packages.some((p) => p === name || p.startsWith(`${name}/`)))
      .map(([file]) => path.relative(root, file));
    expect(importers).toEqual([]);
  });
});
