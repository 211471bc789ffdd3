// Finds every API route the way Next does (the files under app/api) and the HTTP methods each
// route module exports, so a route added later is fuzzed without anyone listing it here.
import fs from "node:fs";
import path from "node:path";

/** The methods the fuzzer generates requests for. */
// OPTIONS: the API's catch-all answers it with its 404 (every route's own OPTIONS is otherMethods').
export const FUZZED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type FuzzedMethod = (typeof FUZZED_METHODS)[number];

const OTHER_METHODS = Symbol.for("heirloom.otherMethods");

/** Every name Next treats as a route handler; an exported one the fuzzer does not cover fails. */
const HANDLER_NAMES = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);

export interface RouteParam {
  name: string;
  catchAll: boolean;
}

export interface DiscoveredRoute {
  /** The route as written in the file system, e.g. "/api/trees/[treeId]". */
  template: string;
  file: string;
  params: RouteParam[];
  /** The HTTP handlers the module exports, e.g. ["GET", "PATCH"]. */
  handlers: string[];
}

function routeFiles(dir: string, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) routeFiles(full, found);
    else if (/^route\.(ts|tsx|js|mjs)$/.test(entry.name)) found.push(full);
  }
  return found;
}

/** Every route under app/api with the handlers its module exports, sorted by template. */
export async function discoverRoutes(apiDir = path.resolve("app/api")): Promise<DiscoveredRoute[]> {
  const appDir = path.dirname(apiDir);
  const routes: DiscoveredRoute[] = [];
  for (const file of routeFiles(apiDir)) {
    const segments = path
      .relative(appDir, path.dirname(file))
      .split(path.sep)
      // Route groups "(name)" do not appear in the URL.
      .filter((segment) => !/^\(.*\)$/.test(segment));
    const params: RouteParam[] = [];
    for (const segment of segments) {
      const match = /^\[(\[)?(\.\.\.)?(\w+)\]?\]$/.exec(segment);
      if (match?.[3]) params.push({ name: match[3], catchAll: Boolean(match[2]) });
    }
    const mod = (await import(file)) as Record<string, unknown>;
    const handlers = Object.keys(mod)
      // otherMethods' 405s (and OPTIONS) are not the route's own: tests/api/methods.test.ts
      .filter(
        (name) =>
          HANDLER_NAMES.has(name) &&
          typeof mod[name] === "function" &&
          !(OTHER_METHODS in (mod[name] as object)),
      )
      .sort();
    routes.push({ template: `/${segments.join("/")}`, file, params, handlers });
  }
  return routes.sort((a, b) => a.template.localeCompare(b.template));
}
