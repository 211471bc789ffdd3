// Published trees served in front of Next's router, from memory (ADR 014).
//
// A publication never changes until the next publish. So the production server keeps, per tree,
// the public page's HTML as Next rendered it once, and the snapshot JSON of the current
// publication, both gzipped once. Whether a tree is still published, and which publication is
// current, is read from the database at most once per CHECK_MS per tree, whatever the traffic.
// The HTML goes out with an ETag and a short shared-cache lifetime, the snapshot at an address
// that changes with each publish and may be cached for a year.
//
// Anything else, or anything this module cannot answer with a 200 or a 304, is handed to Next
// untouched: a tree that is not published gets Next's 404 page and the route handler's 404.
// Loaded outside Next's bundle: no "server-only" module may be imported here.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type pg from "pg";
import type { Logger } from "pino";
import { objectId } from "@/lib/schemas/common";
import { apiSecurityHeaders } from "@/lib/security-headers";
import { requestIdFrom } from "../http/request-id";
import { BodyCache } from "./body-cache";
import {
  onPublicationChange,
  PUBLIC_PAGE_CACHE_CONTROL,
  RENDER_HEADER,
  SNAPSHOT_CACHE_CONTROL,
  snapshotVersionMs,
} from "../published/snapshot-url";
import type { ViewCounter } from "../published/view-counter";
import { PUBLISHED_SNAPSHOT_SQL, PUBLISHED_VERSION_SQL } from "../sql/reads";

/** How stale this process's idea of "published, and which publication" may be. */
export const CHECK_MS = 1_000;

/** Next's render of a page, as the front receives it. */
export interface RenderedPage {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface PublicPagesOptions {
  pool: pg.Pool;
  /** Asks Next for a page (with RENDER_HEADER set to `renderSecret`), uncompressed. */
  render: (path: string) => Promise<RenderedPage>;
  /** The value of RENDER_HEADER on the server's own render requests. */
  renderSecret: string;
  views: ViewCounter;
  logger: Logger;
  /** The budget of the cached pages and snapshots, in bytes (default 64 MiB). */
  cacheBytes?: number;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
}

export { RENDER_HEADER };

export type PublicPages = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

type Route =
  { kind: "page"; treeId: string } | { kind: "snapshot"; treeId: string; version: number };

interface Page {
  version: number;
  etag: string;
  gzipped: Buffer;
  plain: Buffer;
  headers: Record<string, string>;
}

const PAGE = /^\/public\/([^/?]+)$/;
const SNAPSHOT = /^\/api\/published\/([^/]+)\/snapshot\/([^/]+)$/;
/** ?p={personId} is read by the page's script; any other query goes to Next. */
const PAGE_QUERY = /^(p=[^&]*)?$/;
/** The render's headers a cached page keeps: its type, its nonce's CSP and the security set. */
const KEPT_HEADERS = [
  "content-type",
  "content-security-policy",
  "referrer-policy",
  "x-content-type-options",
  "permissions-policy",
  "cross-origin-opener-policy",
  "x-frame-options",
  "link",
];
const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);
const acceptsGzip = (req: IncomingMessage) => /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
const isHttps = (req: IncomingMessage) =>
  req.headers["x-forwarded-proto"] === "https" ||
  Boolean((req.socket as { encrypted?: boolean }).encrypted);
const lowerCased = (headers: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
const API_HEADERS = {
  http: lowerCased(apiSecurityHeaders(false)),
  https: lowerCased(apiSecurityHeaders(true)),
};

/** Which public read a request is; null for anything else (Next answers it). */
export function matchPublicRead(req: IncomingMessage, renderSecret: string): Route | null {
  if ((req.method !== "GET" && req.method !== "HEAD") || !req.url) return null;
  // Next's own client navigations (RSC payloads, prefetches) and the server's render request
  if (req.headers.rsc !== undefined || req.headers[RENDER_HEADER] === renderSecret) return null;
  const queryAt = req.url.indexOf("?");
  const pathname = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
  const query = queryAt === -1 ? "" : req.url.slice(queryAt + 1);
  let match = PAGE.exec(pathname);
  if (match?.[1] && objectId.safeParse(match[1]).success && PAGE_QUERY.test(query)) {
    return { kind: "page", treeId: match[1] };
  }
  match = SNAPSHOT.exec(pathname);
  const version = match?.[2] ? snapshotVersionMs(match[2]) : null;
  if (match?.[1] && objectId.safeParse(match[1]).success && version !== null && query === "") {
    return { kind: "snapshot", treeId: match[1], version };
  }
  return null;
}

/** Whether an If-None-Match header names this ETag (weak or strong, or a list). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

export function createPublicPages(options: PublicPagesOptions): PublicPages {
  const { pool, logger, views } = options;
  const now = options.now ?? Date.now;
  const snapshots = new BodyCache(options.cacheBytes ?? 64 * 2 ** 20);
  const pages = new Map<string, Page>();
  /** Per tree: its current publication (epoch ms; null when not published) and when it was read. */
  const published = new Map<string, { version: number | null; checkedAt: number }>();
  const checking = new Map<string, Promise<number | null>>();
  const rendering = new Map<string, Promise<Page | null>>();
  // A publish or unpublish in this process is seen at once; in another instance, within CHECK_MS.
  // A check that began before the change must not store what it read.
  let changes = 0;
  onPublicationChange((treeId) => {
    changes += 1;
    published.delete(treeId);
    checking.delete(treeId);
  });

  async function currentVersion(treeId: string): Promise<number | null> {
    const known = published.get(treeId);
    if (known && now() - known.checkedAt < CHECK_MS) return known.version;
    let check = checking.get(treeId);
    if (!check) {
      const checkedAt = now();
      const changesBefore = changes;
      check = pool
        .query<{ publishedAt: string }>({
          name: "heirloom_published_version",
          text: PUBLISHED_VERSION_SQL,
          values: [treeId],
        })
        .then(({ rows }) => {
          const version = rows[0] ? Number(rows[0].publishedAt) : null;
          if (changes === changesBefore) published.set(treeId, { version, checkedAt });
          if (version === null) pages.delete(treeId);
          // Bound the map: trees nobody reads any more are forgotten.
          if (published.size > 100_000) published.clear();
          return version;
        })
        .finally(() => {
          if (checking.get(treeId) === check) checking.delete(treeId);
        });
      checking.set(treeId, check);
    }
    return check;
  }

  async function renderPage(treeId: string, version: number): Promise<Page | null> {
    const rendered = await options.render(`/public/${treeId}`);
    if (rendered.status !== 200) return null;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = rendered.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const plain = rendered.body;
    const hash = createHash("sha256").update(plain).digest("base64url").slice(0, 27);
    return { version, etag: `"${hash}"`, plain, gzipped: await gzip(plain, { level: 9 }), headers };
  }

  async function page(treeId: string, version: number): Promise<Page | null> {
    const cached = pages.get(treeId);
    if (cached?.version === version) return cached;
    const key = `${treeId}:${version}`;
    let render = rendering.get(key);
    if (!render) {
      // One render per publication, however many readers arrive at once.
      render = renderPage(treeId, version)
        .then((made) => {
          if (made && (pages.get(treeId)?.version ?? -1) < version) pages.set(treeId, made);
          return made;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, render);
    }
    return render;
  }

  async function snapshot(treeId: string, version: number): Promise<Buffer | null> {
    const key = `snapshot:${treeId}`;
    const cached = snapshots.get(key, version);
    if (cached) return cached;
    const { rows } = await pool.query<{ json: string }>({
      name: "heirloom_published_snapshot",
      text: PUBLISHED_SNAPSHOT_SQL,
      values: [treeId, String(version)],
    });
    if (!rows[0]) return null;
    // Made once per publication, so it is worth the better compression.
    const body = await gzip(Buffer.from(rows[0].json), { level: 6 });
    snapshots.set(key, version, body);
    return body;
  }

  function send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    headers: Record<string, string | number>,
    gzipped: Buffer,
    plain: Buffer | null,
  ): Promise<void> | void {
    if (status === 304) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    headers.vary = "Accept-Encoding";
    if (acceptsGzip(req)) {
      headers["content-encoding"] = "gzip";
      headers["content-length"] = gzipped.length;
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : gzipped);
      return;
    }
    const write = (body: Buffer) => {
      headers["content-length"] = body.length;
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (plain) return write(plain);
    return gunzip(gzipped).then(write);
  }

  return async (req, res) => {
    const route = matchPublicRead(req, options.renderSecret);
    if (!route) return false;
    const started = performance.now();
    let status: number;
    try {
      const version = await currentVersion(route.treeId);
      if (version === null) return false;
      const requestId = requestIdFrom(req.headers["x-request-id"]);
      if (route.kind === "page") {
        const made = await page(route.treeId, version);
        if (!made) return false;
        const headers: Record<string, string | number> = {
          ...made.headers,
          "cache-control": PUBLIC_PAGE_CACHE_CONTROL,
          etag: made.etag,
          "x-request-id": requestId,
        };
        if (isHttps(req)) {
          headers["strict-transport-security"] = "max-age=63072000; includeSubDomains";
        }
        status = etagMatches(req.headers["if-none-match"], made.etag) ? 304 : 200;
        if (req.method === "GET") views.count(route.treeId);
        await send(req, res, status, headers, made.gzipped, made.plain);
      } else {
        // An older publication's address is gone for good: the route handler answers its 404.
        if (route.version !== version) return false;
        const body = await snapshot(route.treeId, version);
        if (!body) return false;
        const etag = `"${route.version.toString(36)}"`;
        const headers: Record<string, string | number> = {
          ...API_HEADERS[isHttps(req) ? "https" : "http"],
          "content-type": "application/json",
          "cache-control": SNAPSHOT_CACHE_CONTROL,
          etag,
          "x-request-id": requestId,
        };
        status = etagMatches(req.headers["if-none-match"], etag) ? 304 : 200;
        await send(req, res, status, headers, body, null);
      }
      logger.info(
        {
          requestId,
          method: req.method,
          path: (req.url ?? "").split("?", 1)[0],
          status,
          ms: Math.round(performance.now() - started),
          fast: true,
        },
        "request",
      );
      return true;
    } catch (error) {
      if (res.headersSent) throw error;
      logger.debug({ err: error }, "public read handed to Next");
      return false;
    }
  };
}
