// Published trees served in front of Next's router, from memory (ADR 014), on both engines through
// the data-access seam (front-db.ts, ADR 023).
//
// A publication never changes until the next publish. So the production server keeps, per tree,
// the public pages' HTML as Next rendered it once (the canvas page and each page of the list), and
// the publication's JSON, compressed once. Whether a tree is still published, and which
// publication is current, is read from the database at most once per CHECK_MS per tree, whatever
// the traffic. The HTML goes out with an ETag and a short shared-cache lifetime, the snapshot at an
// address that changes with each publish and may be cached for a year, and GET
// /api/published/{id} as the kept JSON with the current view count added (ADR 024).
//
// What a reader may vary cannot multiply the work: a query the page does not read is ignored
// (the same kept page answers it), a list page past the last is sent to the last, and at most
// maxRenders pages are rendered at once. A kept page carries no nonce: its inline scripts are
// allowed by hash (page-csp.ts).
//
// Anything else, or anything this module cannot answer with a 200, a 302 or a 304, is handed to
// Next untouched: a tree that is not published gets Next's 404 page and the route handler's 404.
// Loaded outside Next's bundle: no "server-only" module may be imported here.
import type { IncomingMessage, ServerResponse } from "node:http";
import { LRUCache } from "lru-cache";
import type { Logger } from "pino";
import { objectId } from "@/lib/schemas/common";
import { requestIdFrom } from "../http/request-id";
import { acceptsGzip } from "./accept-encoding";
import { BodyCache } from "./body-cache";
import type { FrontDb } from "./front-db";
import { apiHeadersFor, isHttps } from "./api-headers";
import { keepRenderedPage, type RenderedPage } from "./page-csp";
import type { ProcessViewCounter } from "./process-singletons";
import {
  LIST_PAGES_META,
  onPublicationChange,
  PUBLIC_PAGE_CACHE_CONTROL,
  RENDER_HEADER,
  SNAPSHOT_CACHE_CONTROL,
  snapshotVersionMs,
} from "../published/snapshot-url";
import {
  gzipStartOfParts,
  gzipWithTail,
  PUBLISHED_PARTS_SQL,
  writePlainInParts,
  type GzipStart,
} from "../published/published-json-parts";
import { readerOf } from "../published/view-counter";
import { PUBLISHED_VERSION_SQL, publishedJsonTail } from "../sql/reads";

/** How stale this process's idea of "published, and which publication" may be. */
export const CHECK_MS = 1_000;
/** The highest list page number a request may name; past the last page it is sent to the last. */
export const MAX_LIST_PAGE = 9_999;

/** Next's render of a page, as the front receives it. */
export type { RenderedPage };

export interface PublicPagesOptions {
  /** The data-access seam: PostgreSQL's pool or the process's PGlite. */
  db: FrontDb;
  /** Asks Next for a page (with RENDER_HEADER set to `renderSecret`), uncompressed. */
  render: (path: string) => Promise<RenderedPage>;
  /** The value of RENDER_HEADER on the server's own render requests. */
  renderSecret: string;
  views: ProcessViewCounter;
  logger: Logger;
  /** The reader's address, for the view count only (default: the socket's). */
  addressOf?: (req: IncomingMessage) => string | undefined;
  /** The budget of the kept pages, and apart the kept publications, in bytes (default 64 MiB). */
  cacheBytes?: number;
  /** Pages rendered at once by Next for this module (default 1); the others wait their turn. */
  maxRenders?: number;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
}

export { RENDER_HEADER };

export type PublicPages = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** A kept page: the canvas, or one page of the list. */
type PageKey = "canvas" | `list:${number}`;

type Route =
  | { kind: "page"; treeId: string; page: PageKey }
  | { kind: "snapshot"; treeId: string; version: number }
  | { kind: "published"; treeId: string };

/** A publication's JSON without its closing brace, gzipped once (published-json-parts.ts). */
type Publication = GzipStart;

interface Page {
  version: number;
  etag: string;
  gzipped: Buffer;
  plain: Buffer;
  headers: Record<string, string>;
  /** A list page: how many pages the list has. */
  listPages: number | null;
}

const PAGE = /^\/public\/([^/]+)(\/list)?$/;
const SNAPSHOT = /^\/api\/published\/([^/]+)\/snapshot\/([^/]+)$/;
const PUBLISHED = /^\/api\/published\/([^/]+)$/;
const LIST_PAGE_PARAM = /(?:^|&)page=([1-9][0-9]{0,3})(?:&|$)/;
const LIST_PAGES = new RegExp(`<meta name="${LIST_PAGES_META}" content="([0-9]{1,4})"`);
/** The path Next renders a kept page at. */
export function pagePath(treeId: string, page: PageKey): string {
  if (page === "canvas") return `/public/${treeId}`;
  const number = Number(page.slice(5));
  return `/public/${treeId}/list${number > 1 ? `?page=${number}` : ""}`;
}

/**
 * Which public read a request is; null for anything else (Next answers it). The pages read no
 * query on the server (?p= is read in the browser), so any query is the same page, except the
 * list's ?page=, which names a page of at most MAX_LIST_PAGE. The published JSON and its snapshot
 * take no query either (SPEC: none), so a query (a client's cache-buster, or `?x=1` sent to make
 * the database build a 100 MB publication again and again) is the same cached body.
 */
export function matchPublicRead(req: IncomingMessage, renderSecret: string): Route | null {
  if ((req.method !== "GET" && req.method !== "HEAD") || !req.url) return null;
  // Next's own client navigations (RSC payloads, prefetches) and the server's render request
  if (req.headers.rsc !== undefined || req.headers[RENDER_HEADER] === renderSecret) return null;
  const queryAt = req.url.indexOf("?");
  const pathname = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
  const query = queryAt === -1 ? "" : req.url.slice(queryAt + 1);
  const isId = (text: string | undefined): text is string =>
    text !== undefined && objectId.safeParse(text).success;
  let match = PAGE.exec(pathname);
  if (isId(match?.[1])) {
    if (!match[2]) return { kind: "page", treeId: match[1], page: "canvas" };
    const number = Number(LIST_PAGE_PARAM.exec(query)?.[1] ?? 1);
    return { kind: "page", treeId: match[1], page: `list:${number}` };
  }
  match = SNAPSHOT.exec(pathname);
  const version = match?.[2] ? snapshotVersionMs(match[2]) : null;
  if (isId(match?.[1]) && version !== null) return { kind: "snapshot", treeId: match[1], version };
  match = PUBLISHED.exec(pathname);
  if (isId(match?.[1])) return { kind: "published", treeId: match[1] };
  return null;
}

/** Whether an If-None-Match header names this ETag (weak or strong, or a list). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** A queue that lets `limit` tasks run at once. */
function limiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

export function createPublicPages(options: PublicPagesOptions): PublicPages {
  const { db, logger, views } = options;
  const now = options.now ?? Date.now;
  const addressOf = options.addressOf ?? ((req: IncomingMessage) => req.socket.remoteAddress);
  const budget = options.cacheBytes ?? 64 * 2 ** 20;
  /** The publications' JSON, compressed, keyed by tree with the publication as generation. */
  const publications = new BodyCache(budget);
  const pages = new LRUCache<string, Page>({
    maxSize: budget,
    maxEntrySize: budget / 4,
    sizeCalculation: (page) => Math.max(1, page.gzipped.length + page.plain.length),
  });
  /** Per tree: how many pages its current publication's list has, once a list page was made. */
  const listPages = new Map<string, { version: number; count: number }>();
  /** Per tree: its current publication (epoch ms; null when not published) and when it was read. */
  const published = new Map<string, { version: number | null; checkedAt: number }>();
  const checking = new Map<string, Promise<number | null>>();
  const rendering = new Map<string, Promise<Page | null>>();
  const reading = new Map<string, Promise<Publication | null>>();
  /** Per tree: the byte length of its kept publication's JSON, uncompressed. */
  const plainBytes = new Map<
    string,
    { version: number; crc: number; bytes: number; restarts: number[] }
  >();
  const oneRenderAtATime = limiter(options.maxRenders ?? 1);
  // A publish or unpublish in this process is seen at once; in another instance, within CHECK_MS.
  // A check that began before the change must not store what it read.
  let changes = 0;
  onPublicationChange((treeId) => {
    changes += 1;
    published.delete(treeId);
    checking.delete(treeId);
  });

  function forget(treeId: string) {
    for (const key of pages.keys()) if (key.startsWith(`${treeId}|`)) pages.delete(key);
    listPages.delete(treeId);
  }

  async function currentVersion(treeId: string): Promise<number | null> {
    const known = published.get(treeId);
    if (known && now() - known.checkedAt < CHECK_MS) return known.version;
    let check = checking.get(treeId);
    if (!check) {
      const checkedAt = now();
      const changesBefore = changes;
      check = db
        .query<{ publishedAt: string }>("published_version", PUBLISHED_VERSION_SQL, [treeId])
        .then((rows) => {
          const version = rows[0] ? Number(rows[0].publishedAt) : null;
          if (changes === changesBefore) published.set(treeId, { version, checkedAt });
          if (version === null && known?.version != null) forget(treeId);
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

  async function renderPage(treeId: string, page: PageKey, version: number): Promise<Page | null> {
    const rendered = await oneRenderAtATime(() => options.render(pagePath(treeId, page)));
    if (rendered.status !== 200) return null;
    const { html, plain, gzipped, etag, headers } = await keepRenderedPage(rendered, true);
    const count = page === "canvas" ? null : Number(LIST_PAGES.exec(html)?.[1] ?? 1);
    return { version, etag, plain, gzipped, headers, listPages: count };
  }

  async function keptPage(treeId: string, page: PageKey, version: number): Promise<Page | null> {
    const key = `${treeId}|${page}`;
    const cached = pages.get(key);
    if (cached?.version === version) return cached;
    const renderKey = `${key}:${version}`;
    let render = rendering.get(renderKey);
    if (!render) {
      // One render per page and publication, however many readers arrive at once.
      render = renderPage(treeId, page, version)
        .then((made) => {
          if (made && (pages.get(key)?.version ?? -1) <= version) {
            pages.set(key, made);
            if (made.listPages !== null) listPages.set(treeId, { version, count: made.listPages });
          }
          return made;
        })
        .finally(() => rendering.delete(renderKey));
      rendering.set(renderKey, render);
    }
    return render;
  }

  /** How many pages the publication's list has: known once any of its pages was made. */
  async function listPageCount(treeId: string, version: number): Promise<number | null> {
    const known = listPages.get(treeId);
    if (known?.version === version) return known.count;
    return (await keptPage(treeId, "list:1", version))?.listPages ?? null;
  }

  /**
   * The publication's JSON (getPublishedTree's keys) without its closing brace, gzipped once per
   * publication: the snapshot is it and a brace, GET /api/published/{id} it and the view count,
   * each one gzip member (gzipWithTail).
   */
  async function publication(treeId: string, version: number): Promise<Publication | null> {
    const cached = publications.get(treeId, version);
    const known = plainBytes.get(treeId);
    if (cached && known?.version === version) {
      return { gzipped: cached, crc: known.crc, bytes: known.bytes, restarts: known.restarts };
    }
    const key = `${treeId}:${version}`;
    let read = reading.get(key);
    if (!read) {
      // Read in parts of at most 1 MiB and compressed a part at a time (published-json-parts.ts):
      // the request thread never decodes or encodes the whole text in one step.
      read = db
        .query<{ part: string }>("published_snapshot", PUBLISHED_PARTS_SQL, [
          treeId,
          String(version),
        ])
        .then(async (rows) => {
          if (rows.length === 0) return null;
          // Made once per publication, so it is worth the better compression.
          const start = await gzipStartOfParts(rows.map((row) => row.part));
          publications.set(treeId, version, start.gzipped);
          if (plainBytes.size > 100_000) plainBytes.clear();
          const { crc, bytes, restarts } = start;
          plainBytes.set(treeId, { version, crc, bytes, restarts });
          return start;
        })
        .finally(() => reading.delete(key));
      reading.set(key, read);
    }
    return read;
  }

  function send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    headers: Record<string, string | number>,
    gzipped: Buffer[],
    plain: Buffer | { start: Publication; tail: string },
  ): void {
    if (status === 304) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    headers.vary = "Accept-Encoding";
    if (acceptsGzip(req)) {
      headers["content-encoding"] = "gzip";
      headers["content-length"] = gzipped.reduce((total, part) => total + part.length, 0);
      res.writeHead(200, headers);
      if (req.method === "HEAD") {
        res.end();
        return;
      }
      for (const part of gzipped) res.write(part);
      res.end();
      return;
    }
    if (Buffer.isBuffer(plain)) {
      headers["content-length"] = plain.length;
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : plain);
      return;
    }
    // A client that refuses gzip: the kept publication is inflated as it is sent, a part (1 MiB)
    // at a time, one part in the process at a time, at the pace the reader takes it
    // (writePlainInParts), never held whole.
    headers["content-length"] = plain.start.bytes + Buffer.byteLength(plain.tail);
    res.writeHead(200, headers);
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    void writePlainInParts(res, plain.start, plain.tail);
  }

  function securityHeaders(req: IncomingMessage, requestId: string) {
    return {
      ...apiHeadersFor(req),
      "content-type": "application/json",
      "x-request-id": requestId,
    };
  }

  return async (req, res) => {
    const route = matchPublicRead(req, options.renderSecret);
    if (!route) return false;
    const started = performance.now();
    let status: number;
    try {
      const requestId = requestIdFrom(req.headers["x-request-id"]);
      if (route.kind === "published") {
        // The view count changes with every batch: read with the publication, on every request.
        const rows = await db.query<{ publishedAt: string; viewCount: number; listed: boolean }>(
          "published_version",
          PUBLISHED_VERSION_SQL,
          [route.treeId],
        );
        if (!rows[0]) return false;
        const body = await publication(route.treeId, Number(rows[0].publishedAt));
        if (!body) return false;
        const tail = publishedJsonTail(Number(rows[0].viewCount), rows[0].listed === true);
        status = 200;
        send(
          req,
          res,
          status,
          { ...securityHeaders(req, requestId), "cache-control": "no-store" },
          gzipWithTail(body, tail),
          { start: body, tail },
        );
      } else {
        const version = await currentVersion(route.treeId);
        if (version === null) return false;
        if (route.kind === "page") {
          const page = route.page;
          if (page !== "canvas" && page !== "list:1") {
            const count = await listPageCount(route.treeId, version);
            if (count === null) return false;
            if (Number(page.slice(5)) > count) {
              // Past the last page: the last page's address (one kept page per real page).
              status = 302;
              res.writeHead(status, {
                location: pagePath(route.treeId, `list:${count}`),
                "cache-control": PUBLIC_PAGE_CACHE_CONTROL,
                "x-request-id": requestId,
              });
              res.end();
              return true;
            }
          }
          const made = await keptPage(route.treeId, page, version);
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
          if (req.method === "GET") {
            const agent = req.headers["user-agent"];
            views.count(route.treeId, readerOf(addressOf(req), agent));
          }
          send(req, res, status, headers, [made.gzipped], made.plain);
        } else {
          // An older publication's address is gone for good: the route handler answers its 404.
          if (route.version !== version) return false;
          const body = await publication(route.treeId, version);
          if (!body) return false;
          const etag = `"${route.version.toString(36)}"`;
          const headers: Record<string, string | number> = {
            ...securityHeaders(req, requestId),
            "cache-control": SNAPSHOT_CACHE_CONTROL,
            etag,
          };
          status = etagMatches(req.headers["if-none-match"], etag) ? 304 : 200;
          send(req, res, status, headers, gzipWithTail(body, "}"), { start: body, tail: "}" });
        }
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
