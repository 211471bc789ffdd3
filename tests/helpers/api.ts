/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies default to `any` so that
   tests can read arbitrary JSON; a test that wants types passes its own. */
// Calls the REST API the way a client does. By default the route handlers under app/api run in
// this process (fast, no build); set API_URL to send the same calls to a running server instead.
import { randomInt } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";

type Handler = (
  req: NextRequest,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;
interface Route {
  file: string;
  pattern: RegExp;
  keys: { name: string; catchAll: boolean }[];
  specificity: number[];
}

const API_DIR = path.resolve("app/api");

function collectRoutes(dir: string, found: Route[] = []): Route[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) collectRoutes(full, found);
    else if (entry.name === "route.ts") {
      const segments = path.relative(path.resolve("app"), dir).split(path.sep);
      const keys: Route["keys"] = [];
      const specificity: number[] = [];
      const source = segments
        .map((segment) => {
          const catchAll = /^\[\.\.\.(\w+)\]$/.exec(segment);
          const param = /^\[(\w+)\]$/.exec(segment);
          if (catchAll?.[1]) {
            keys.push({ name: catchAll[1], catchAll: true });
            specificity.push(0);
            return "(.+)";
          }
          if (param?.[1]) {
            keys.push({ name: param[1], catchAll: false });
            specificity.push(1);
            return "([^/]+)";
          }
          specificity.push(2);
          return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        })
        .join("/");
      found.push({ file: full, pattern: new RegExp(`^/${source}/?$`), keys, specificity });
    }
  }
  return found;
}

const routes = collectRoutes(API_DIR).sort((a, b) => {
  for (let i = 0; i < Math.max(a.specificity.length, b.specificity.length); i++) {
    const d = (b.specificity[i] ?? -1) - (a.specificity[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
});

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  /** The raw bytes, for binary responses. */
  bytes: Buffer;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as-is (not JSON-encoded). */
  rawBody?: BodyInit;
  headers?: Record<string, string>;
}

// Every test file runs in its own module scope but shares the rate-limit store (Redis or the
// database), so a counter from 1 gave the first call of every file the same address and the sixth
// file to sign up first met the sign-up limit. Each file starts at a random point of a 2^24 space.
let ipCounter = randomInt(1, 1 << 24);
/** Each call gets its own client address unless one is given, so rate limits do not bleed between tests. */
export function uniqueIp(): string {
  ipCounter = (ipCounter + 1) & 0xffffff;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

async function dispatch(method: string, url: URL, init: RequestInit): Promise<Response> {
  const base = process.env.API_URL;
  if (base) return fetch(new URL(url.pathname + url.search, base), init);
  for (const route of routes) {
    const match = route.pattern.exec(url.pathname);
    if (!match) continue;
    const mod = (await import(route.file)) as Record<string, Handler | undefined>;
    const handler = mod[method];
    if (!handler)
      return Response.json({ errors: [{ detail: "Method not allowed" }] }, { status: 405 });
    const params: Record<string, string | string[]> = {};
    route.keys.forEach((key, i) => {
      const raw = match[i + 1] ?? "";
      params[key.name] = key.catchAll
        ? raw.split("/").map(decodeURIComponent)
        : decodeURIComponent(raw);
    });
    // Like Next, routes without dynamic segments get no params at all.
    const ctx = route.keys.length > 0 ? { params: Promise.resolve(params) } : (undefined as never);
    return handler(new NextRequest(url, init as ConstructorParameters<typeof NextRequest>[1]), ctx);
  }
  return Response.json({ errors: [{ detail: "Not found" }] }, { status: 404 });
}

export async function call<T = any>(
  method: string,
  pathAndQuery: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const url = new URL(pathAndQuery, "http://localhost:3000");
  const headers: Record<string, string> = { "x-forwarded-for": uniqueIp(), ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await dispatch(method, url, { method, headers, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get("content-type") ?? "";
  let parsed: unknown = undefined;
  if (type.includes("json") && bytes.length > 0) parsed = JSON.parse(bytes.toString("utf8"));
  else if (type.startsWith("text/")) parsed = bytes.toString("utf8");
  return { status: response.status, body: parsed as T, headers: response.headers, bytes };
}

export const api = {
  get: <T = any>(p: string, o?: CallOptions) => call<T>("GET", p, o),
  post: <T = any>(p: string, body?: unknown, o?: CallOptions) => call<T>("POST", p, { ...o, body }),
  put: <T = any>(p: string, body?: unknown, o?: CallOptions) => call<T>("PUT", p, { ...o, body }),
  patch: <T = any>(p: string, body?: unknown, o?: CallOptions) =>
    call<T>("PATCH", p, { ...o, body }),
  delete: <T = any>(p: string, body?: unknown, o?: CallOptions) =>
    call<T>("DELETE", p, { ...o, body }),
};

/**
 * A save or file sent as the request body (`application/octet-stream`), its length declared as a
 * browser does: the server admits uploads by their bytes.
 */
export function postBytes<T = any>(
  token: string,
  url: string,
  bytes: Uint8Array,
  headers: Record<string, string> = {},
): Promise<ApiResponse<T>> {
  return call<T>("POST", url, {
    token,
    rawBody: new Uint8Array(bytes),
    headers: {
      "content-type": "application/octet-stream",
      "content-length": String(bytes.length),
      ...headers,
    },
  });
}

/** The first error detail of a response, as the client reads it. */
export function detailOf(response: ApiResponse): string | undefined {
  return (response.body as { errors?: { detail?: string }[] } | undefined)?.errors?.[0]?.detail;
}
