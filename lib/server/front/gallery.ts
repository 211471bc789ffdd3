// The Gallery in front of Next (ADR 028), on both engines: `GET /api/published?page[number]=&search=`
// from the kept JSON pages (lib/server/gallery/gallery-cache.ts, shared with the route handler),
// and `/gallery` as Next rendered it, kept per canonical address, like public pages (ADR 014, 024).
//
// - A kept page is answered from memory with `public, s-maxage`, an ETag and 304. Past
//   GALLERY_CACHE_MS it is still answered (within GALLERY_STALE_MS) while one read or render
//   refreshes it, so no reader waits for the database once a page was read.
// - Any listing change in this process (publish, unlist, unpublish, hide, account deletion) drops
//   every kept page at once (the gallery cache's generation).
// - A listing page without a search is read here, through the data-access seam (front-db.ts), with
//   the route handler's SQL (gallery/gallery-read.ts). A search that is not kept goes to the route
//   handler, which counts it against its address's search budget (and answers the 429), and keeps
//   what it read for the next request here. Anything but a 200 or a 304 (a bad page number, a
//   database error) is Next's to answer.
// - A /gallery page that is not kept is rendered by Next through the server's own render request
//   (server.ts's renderPage, the one public pages use); the page knows the render by its secret
//   (gallery-pages-secret.ts) and does not count it against anyone's budget. Renders of searches
//   are limited per address here instead (GALLERY_RENDERS_PER_ADDRESS a minute).
// Loaded outside Next's bundle: no "server-only" module may be imported here.
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { LRUCache } from "lru-cache";
import type { Logger } from "pino";
import { galleryHref, readGalleryParams } from "@/lib/gallery-query";
import { chooseLocale, LOCALE_COOKIE, type Locale } from "@/lib/i18n/locales";
import {
  GALLERY_CACHE_MS,
  GALLERY_STALE_MS,
  freshGalleryPage,
  galleryGeneration,
  keptGalleryEtag,
  galleryPageKept,
  keptGalleryPage,
  type KeptGalleryPage,
} from "../gallery/gallery-cache";
import { setGalleryRenderSecret } from "../gallery/gallery-pages-secret";
import {
  galleryKeyOf,
  readGalleryPage,
  readGalleryQuery,
  type GalleryQuery,
} from "../gallery/gallery-read";
import { etagMatches, GALLERY_CACHE_CONTROL } from "../gallery/http-cache";
import { searchWords } from "../gallery/terms";
import { requestIdFrom } from "../http/request-id";
import { acceptsGzip } from "./accept-encoding";
import type { FrontDb } from "./front-db";
import { apiHeadersFor, isHttps } from "./api-headers";
import { keepRenderedPage } from "./page-csp";
import { RENDER_HEADER, type RenderedPage } from "./public-pages";

/** Renders of searches not kept, per client address per minute, per instance. */
export const GALLERY_RENDERS_PER_ADDRESS = 60;
const WINDOW_MS = 60_000;
const MAX_PAGES = 1_000;
const MAX_ADDRESSES = 100_000;
/** How long requests for a search just handed to the route handler wait for it to be kept. */
const HANDED_WAIT_MS = 1_000;
const gzip = promisify(zlib.gzip);

export interface GalleryFrontOptions {
  /** The data-access seam; null when the fast reads are off (Next answers the API). */
  db: FrontDb | null;
  /**
   * Asks Next for a page (with RENDER_HEADER set to `renderSecret`), uncompressed, in `locale`
   * (sent as the NEXT_LOCALE cookie, ADR 041).
   */
  render: (path: string, locale: Locale) => Promise<RenderedPage>;
  /** The value of RENDER_HEADER on the server's own render requests. */
  renderSecret: string;
  /** The client's address (the same rule as the rest of the front). */
  clientAddress: (req: IncomingMessage) => string;
  logger: Logger;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
}

export type GalleryFront = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const LOCALE_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]*)`);

/** The reader's language, as i18n/request.ts chooses it for Next's render: cookie, then header. */
export function readerLocale(req: IncomingMessage): Locale {
  const cookie = req.headers.cookie;
  const acceptLanguage = req.headers["accept-language"];
  return chooseLocale({
    cookie: cookie ? LOCALE_COOKIE_VALUE.exec(cookie)?.[1] : null,
    acceptLanguage: Array.isArray(acceptLanguage) ? acceptLanguage.join(",") : acceptLanguage,
  });
}

/**
 * A kept page's key: its language and its canonical address. Pages are kept per language, so a
 * reader never gets another language's copy (issue 36); the address alone is what Next renders.
 */
const pageKey = (locale: Locale, path: string) => `${locale} ${path}`;
const pageOfKey = (key: string) => {
  const at = key.indexOf(" ");
  return { locale: key.slice(0, at) as Locale, path: key.slice(at + 1) };
};

/** What a kept page varies by, besides its encoding: the two things its language comes from. */
const PAGE_VARY = "Accept-Encoding, Accept-Language, Cookie";

interface KeptHtml {
  etag: string;
  plain: Buffer;
  gzipped: Buffer;
  headers: Record<string, string>;
  generation: number;
  /** When it was rendered, or last found to show the listing as it is. */
  madeAt: number;
  /** The listing it shows: the kept JSON page's ETag when the render began (null: unknown). */
  listingEtag: string | null;
}

export function createGalleryFront(options: GalleryFrontOptions): GalleryFront {
  const { db, logger } = options;
  const now = options.now ?? (() => performance.now());
  setGalleryRenderSecret(options.renderSecret);
  const pages = new LRUCache<string, KeptHtml>({ max: MAX_PAGES });
  const rendering = new Map<string, Promise<KeptHtml | null>>();
  const renders = new LRUCache<string, { count: number; until: number }>({ max: MAX_ADDRESSES });
  /** The kept JSON pages' bodies, made once per kept page. */
  const jsonBodies = new WeakMap<KeptGalleryPage<unknown>, { plain: Buffer; gzipped: Buffer }>();

  /** Searches handed to the route handler lately, and when. */
  const handedToNext = new LRUCache<string, number>({ max: MAX_PAGES });
  /** Whether `key` is kept (or being read) before `deadline` (epoch ms). */
  const keptWithin = async (key: string, deadline: number) => {
    while (!galleryPageKept(key)) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return true;
  };

  /** Counts a render for the address; false when it is over its budget. */
  const allowRender = (address: string) => {
    const at = Date.now();
    const entry = renders.get(address);
    if (!entry || entry.until <= at) {
      renders.set(address, { count: 1, until: at + WINDOW_MS });
      return true;
    }
    entry.count += 1;
    return entry.count <= GALLERY_RENDERS_PER_ADDRESS;
  };

  /** Renders `key` once however many ask; kept unless the listing changed meanwhile. */
  const renderPage = (key: string, listing: GalleryQuery): Promise<KeptHtml | null> => {
    const pending = rendering.get(key);
    if (pending) return pending;
    const generation = galleryGeneration();
    const madeAt = now();
    // The page reads this listing or a newer one: a later check against it errs towards a render.
    const listingEtag = keptGalleryEtag(galleryKeyOf(listing));
    const job = (async () => {
      const { locale, path } = pageOfKey(key);
      const rendered = await options.render(path, locale);
      if (rendered.status !== 200) return null;
      // The same page for every reader carries no nonce: its inline scripts go by hash (ADR 024).
      const { plain, gzipped, etag, headers } = await keepRenderedPage(rendered, false);
      const kept: KeptHtml = { etag, plain, gzipped, headers, generation, madeAt, listingEtag };
      if (galleryGeneration() === generation) pages.set(key, kept);
      return kept;
    })().finally(() => {
      if (rendering.get(key) === job) rendering.delete(key);
    });
    rendering.set(key, job);
    return job;
  };

  /**
   * Refreshes a kept page past GALLERY_CACHE_MS: when the listing it shows is unchanged (one read
   * of the JSON page, shared with the API), the page is kept as it is for another
   * GALLERY_CACHE_MS; otherwise Next renders it again.
   */
  const refresh = async (key: string, kept: KeptHtml, listing: GalleryQuery) => {
    if (db && kept.listingEtag !== null) {
      const generation = galleryGeneration();
      const page = await freshGalleryPage(galleryKeyOf(listing), () =>
        readGalleryPage((name, text, values) => db.query(name, text, values), listing),
      );
      if (page.etag === kept.listingEtag) {
        if (galleryGeneration() === generation && pages.get(key) === kept) kept.madeAt = now();
        return;
      }
    }
    await renderPage(key, listing);
  };
  const refreshing = new Set<string>();

  /** The kept page under `key` that may be answered now; starts its refresh when stale. */
  const keptHtml = (key: string, listing: GalleryQuery): KeptHtml | undefined => {
    const kept = pages.get(key);
    if (!kept) return undefined;
    const age = now() - kept.madeAt;
    if (kept.generation !== galleryGeneration() || age >= GALLERY_CACHE_MS + GALLERY_STALE_MS) {
      pages.delete(key);
      return undefined;
    }
    if (age >= GALLERY_CACHE_MS && !refreshing.has(key) && !rendering.has(key)) {
      refreshing.add(key);
      refresh(key, kept, listing)
        .catch((error: unknown) => logger.warn({ err: error }, "Gallery page refresh failed"))
        .finally(() => refreshing.delete(key));
    }
    return kept;
  };

  function send(
    req: IncomingMessage,
    res: ServerResponse,
    headers: Record<string, string>,
    etag: string,
    bodies: { plain: Buffer; gzipped: Buffer },
    vary = "Accept-Encoding",
  ): number {
    const all: Record<string, string> = {
      ...headers,
      "cache-control": GALLERY_CACHE_CONTROL,
      etag,
      vary,
    };
    if (etagMatches(req.headers["if-none-match"] ?? null, etag)) {
      res.writeHead(304, all);
      res.end();
      return 304;
    }
    const gzipped = acceptsGzip(req);
    const body = gzipped ? bodies.gzipped : bodies.plain;
    res.writeHead(200, {
      ...all,
      ...(gzipped ? { "content-encoding": "gzip" } : {}),
      "content-length": String(body.length),
    });
    res.end(req.method === "HEAD" ? undefined : body);
    return 200;
  }

  async function answerApi(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    requestId: string,
  ): Promise<number | null> {
    if (!db) return null;
    const query = readGalleryQuery(url.searchParams);
    if ("error" in query) return null;
    const key = galleryKeyOf(query);
    // A search not kept is the route handler's: it counts it against the address's budget. The
    // requests for it that arrive meanwhile wait for what it keeps (a moment), instead of each
    // going to the route handler and its budget too.
    if (query.words.length > 0 && !galleryPageKept(key)) {
      const handed = handedToNext.get(key);
      if (handed === undefined || Date.now() - handed > HANDED_WAIT_MS) {
        handedToNext.set(key, Date.now());
        return null;
      }
      if (!(await keptWithin(key, handed + HANDED_WAIT_MS))) return null;
    }
    const page = await keptGalleryPage(key, () =>
      readGalleryPage((name, text, values) => db.query(name, text, values), query),
    );
    let bodies = jsonBodies.get(page);
    if (!bodies) {
      const plain = Buffer.from(page.json);
      bodies = { plain, gzipped: await gzip(plain) };
      jsonBodies.set(page, bodies);
    }
    const headers = {
      ...apiHeadersFor(req),
      "content-type": "application/json",
      "x-request-id": requestId,
    };
    return send(req, res, headers, page.etag, bodies);
  }

  async function answerPage(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    requestId: string,
  ): Promise<number | null> {
    const params = readGalleryParams(Object.fromEntries(url.searchParams));
    const key = pageKey(readerLocale(req), galleryHref(params));
    const listing = { page: params.page, sort: params.sort, words: searchWords(params.search) };
    let kept = keptHtml(key, listing);
    if (!kept) {
      const searching = listing.words.length > 0;
      if (searching && !rendering.has(key) && !allowRender(options.clientAddress(req))) {
        res.writeHead(429, {
          "content-type": "text/plain; charset=utf-8",
          "retry-after": String(WINDOW_MS / 1000),
          "cache-control": "no-store",
          "x-request-id": requestId,
        });
        res.end("Too many Gallery searches from this address. Try again in a minute.\n");
        return 429;
      }
      kept = (await renderPage(key, listing)) ?? undefined;
      // Not a page to keep (an error): Next answers the request itself.
      if (!kept) return null;
    }
    const headers: Record<string, string> = { ...kept.headers, "x-request-id": requestId };
    if (isHttps(req)) {
      headers["strict-transport-security"] = "max-age=63072000; includeSubDomains";
    }
    return send(req, res, headers, kept.etag, kept, PAGE_VARY);
  }

  return async (req, res) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !req.url) return false;
    const queryAt = req.url.indexOf("?");
    const pathname = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
    const isApi = pathname === "/api/published";
    if (!isApi && pathname !== "/gallery") return false;
    // Next's own client navigations (RSC payloads, prefetches) and this server's render request
    if (req.headers.rsc !== undefined || req.headers[RENDER_HEADER] === options.renderSecret) {
      return false;
    }
    const started = performance.now();
    const url = new URL(req.url, "http://front");
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    try {
      const status = isApi
        ? await answerApi(req, res, url, requestId)
        : await answerPage(req, res, url, requestId);
      if (status === null) return false;
      logger.info(
        {
          requestId,
          method: req.method,
          path: pathname,
          status,
          ms: Math.round(performance.now() - started),
          fast: true,
        },
        "request",
      );
      return true;
    } catch (error) {
      if (res.headersSent) throw error;
      logger.debug({ err: error }, "Gallery read handed to Next");
      return false;
    }
  };
}
