// The /gallery page from memory, in front of Next (ADR 028), as public pages are (ADR 014): each
// distinct page (its canonical address) is rendered by Next at most once per GALLERY_CACHE_MS, or
// again after a listing change in this process; every request in between is a copy from memory
// with `public, s-maxage`, an ETag and 304. Loaded by the front server (outside Next's bundle).
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { request } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { LRUCache } from "lru-cache";
// eslint-disable-next-line boundaries/dependencies -- the page's own address rules (pure, no React), so that the kept page is the one the page links to
import { galleryHref, readGalleryParams } from "@/components/gallery/gallery-query";
import { etagOf, GALLERY_CACHE_MS, galleryGeneration } from "./gallery-cache";
import { GALLERY_RENDER_HEADER, setGalleryRenderSecret } from "./gallery-pages-secret";
import { etagMatches, GALLERY_CACHE_CONTROL } from "./http-cache";
import { searchWords } from "./terms";

/** Searches that must be rendered (not kept), per client address per minute, per instance. */
export const GALLERY_RENDERS_PER_ADDRESS = 60;
const WINDOW_MS = 60_000;
const MAX_PAGES = 1_000;
const MAX_ADDRESSES = 100_000;
/** The render's headers a kept page keeps. */
const KEPT_HEADERS = [
  "content-type",
  "content-security-policy",
  "referrer-policy",
  "x-content-type-options",
  "permissions-policy",
  "cross-origin-opener-policy",
  "x-frame-options",
  "strict-transport-security",
];
const gzip = promisify(zlib.gzip);

interface Kept {
  etag: string;
  plain: Buffer;
  gzipped: Buffer;
  headers: Record<string, string>;
  generation: number;
}

export interface GalleryPagesOptions {
  /** The port this server listens on: renders are requests to itself. */
  port: number;
  /** The client's address (the same rule as the rest of the front). */
  clientAddress: (req: IncomingMessage) => string;
  now?: () => number;
}

export type GalleryPages = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export function createGalleryPages(options: GalleryPagesOptions): GalleryPages {
  const now = options.now ?? Date.now;
  const secret = randomUUID();
  setGalleryRenderSecret(secret);
  const pages = new LRUCache<string, Kept>({ max: MAX_PAGES, ttl: GALLERY_CACHE_MS, perf: { now } });
  const loading = new Map<string, Promise<Kept | null>>();
  const renders = new LRUCache<string, { count: number; until: number }>({ max: MAX_ADDRESSES });

  const render = (path: string) =>
    new Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer }>(
      (resolve, reject) => {
        const ask = request(
          {
            host: "127.0.0.1",
            port: options.port,
            path,
            headers: { [GALLERY_RENDER_HEADER]: secret, "accept-encoding": "identity" },
          },
          (answer) => {
            const chunks: Buffer[] = [];
            answer.on("data", (chunk: Buffer) => chunks.push(chunk));
            answer.on("error", reject);
            answer.on("end", () =>
              resolve({
                status: answer.statusCode ?? 500,
                headers: answer.headers,
                body: Buffer.concat(chunks),
              }),
            );
          },
        );
        ask.on("error", reject);
        ask.end();
      },
    );

  const load = (key: string): Promise<Kept | null> => {
    const pending = loading.get(key);
    if (pending) return pending;
    const generation = galleryGeneration();
    const job = (async () => {
      const answer = await render(key);
      if (answer.status !== 200) return null;
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = answer.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      const kept: Kept = {
        etag: etagOf(answer.body.toString("latin1")),
        plain: answer.body,
        gzipped: await gzip(answer.body, { level: 9 }),
        headers,
        generation,
      };
      if (galleryGeneration() === generation) pages.set(key, kept);
      return kept;
    })().finally(() => loading.delete(key));
    loading.set(key, job);
    return job;
  };

  /** Counts a render for the address; false when it is over its budget. */
  const allowRender = (address: string) => {
    const at = now();
    const entry = renders.get(address);
    if (!entry || entry.until <= at) {
      renders.set(address, { count: 1, until: at + WINDOW_MS });
      return true;
    }
    entry.count += 1;
    return entry.count <= GALLERY_RENDERS_PER_ADDRESS;
  };

  return async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = new URL(req.url ?? "/", "http://front");
    if (url.pathname !== "/gallery") return false;
    // This server's own render goes on to Next; a request from outside naming the header is
    // stripped of it, so that it cannot pass for a render.
    if (req.headers[GALLERY_RENDER_HEADER] === secret) return false;
    delete req.headers[GALLERY_RENDER_HEADER];
    const params = readGalleryParams(Object.fromEntries(url.searchParams));
    const key = galleryHref(params);
    let kept = pages.get(key);
    if (kept && kept.generation !== galleryGeneration()) {
      pages.delete(key);
      kept = undefined;
    }
    if (!kept) {
      const searching = searchWords(params.search).length > 0;
      if (searching && !loading.has(key) && !allowRender(options.clientAddress(req))) {
        res.writeHead(429, {
          "content-type": "text/plain; charset=utf-8",
          "retry-after": String(WINDOW_MS / 1000),
          "cache-control": "no-store",
        });
        res.end("Too many Gallery searches from this address. Try again in a minute.\n");
        return true;
      }
      kept = (await load(key)) ?? undefined;
      // Not a page to keep (an error): Next answers the request itself.
      if (!kept) return false;
    }
    const headers: Record<string, string> = {
      ...kept.headers,
      "cache-control": GALLERY_CACHE_CONTROL,
      etag: kept.etag,
      vary: "accept-encoding",
    };
    if (etagMatches(req.headers["if-none-match"] ?? null, kept.etag)) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const gzipped = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
    const body = gzipped ? kept.gzipped : kept.plain;
    res.writeHead(200, {
      ...headers,
      ...(gzipped ? { "content-encoding": "gzip" } : {}),
      "content-length": String(body.length),
    });
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  };
}

