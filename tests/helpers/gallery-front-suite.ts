// The Gallery in front of Next (lib/server/front/gallery.ts, ADR 028): GET /api/published?… from
// the kept JSON pages and /gallery from Next's kept render, invalidated by listing changes, on the
// engine the caller's data-access seam names (tests/api/gallery-front.test.ts on PostgreSQL,
// tests/pglite/gallery-front.test.ts on the embedded default). Next is a stand-in that answers 599.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { GalleryPage } from "@/lib/schemas/published";
import { db } from "@/lib/server/db";
import type { FrontDb } from "@/lib/server/front/front-db";
import { createGalleryFront } from "@/lib/server/front/gallery";
import { RENDER_HEADER, type RenderedPage } from "@/lib/server/front/public-pages";
import {
  GALLERY_CACHE_MS,
  GALLERY_STALE_MS,
  galleryChanged,
  setGalleryClock,
} from "@/lib/server/gallery/gallery-cache";
import { isGalleryRender } from "@/lib/server/gallery/gallery-pages-secret";
import { GALLERY_CACHE_CONTROL } from "@/lib/server/gallery/http-cache";
import { setGalleryHidden } from "@/lib/server/gallery/hide-tree";
import { api } from "./api";
import { type Raw, rawRequest } from "./raw-http";
import { createTree, createUser, giveSim, type TestUser } from "./factories";

const HANDED_TO_NEXT = 599;
const RENDER_SECRET = "gallery-render-secret-for-tests";

const json = (raw: Raw) => JSON.parse(raw.body.toString("utf8")) as GalleryPage;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeGalleryFront(makeDb: () => FrontDb) {
  /** Every statement the front ran, by name. */
  const statements: string[] = [];
  let frontDb: FrontDb;
  let clock = 1_000_000;
  let renders: string[] = [];
  /** The language of each render, in the order of `renders`. */
  let renderLocales: string[] = [];
  let server: http.Server;
  let port: number;
  let owner: TestUser;

  /** Next's stand-in renders a page whose bytes say which render it was, with a nonce. */
  async function render(path: string, locale: string): Promise<RenderedPage> {
    renders.push(path);
    renderLocales.push(locale);
    // The page reads its listing as app/(app)/gallery/page.tsx does (the route handler's read).
    const params = new URL(path, "http://front").searchParams;
    const listing = new URLSearchParams({
      "page[number]": params.get("page") ?? "1",
      sort: params.get("sort") ?? "newest",
      search: params.get("search") ?? "",
    });
    expect((await api.get(`/api/published?${listing.toString()}`)).status).toBe(200);
    await wait(20);
    const nonce = `nonce-${renders.length}`;
    return {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": `script-src 'nonce-${nonce}'`,
        "x-frame-options": "DENY",
        "set-cookie": "never=kept",
      },
      body: Buffer.from(
        `<!DOCTYPE html><html lang="${locale}"><body>render ${renders.length} of ${path}` +
          `<script nonce="${nonce}">self.__next_f.push([1,"a"])</script></body></html>`,
      ),
    };
  }

  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(port, path, headers);

  /** Publishes a new tree titled `title`, listed in the Gallery. */
  async function listTree(title: string) {
    const tree = await createTree(owner.token, { title, description: "<p>A legacy</p>" });
    // an empty tree is never listed (issue 36)
    await giveSim(owner.token, tree._id);
    const published = await api.put(
      `/api/published/${tree._id}`,
      { publishToGallery: true },
      { token: owner.token },
    );
    expect(published.status).toBe(200);
    return tree._id;
  }

  beforeAll(async () => {
    frontDb = makeDb();
    owner = await createUser();
    setGalleryClock(() => clock);
    const front = createGalleryFront({
      db: {
        engine: frontDb.engine,
        query: (name, text, values) => {
          statements.push(name);
          return frontDb.query(name, text, values);
        },
      },
      render,
      renderSecret: RENDER_SECRET,
      clientAddress: (req) => req.socket.remoteAddress ?? "unknown",
      logger: pino({ level: "silent" }),
      now: () => clock,
    });
    server = http.createServer((req, res) => {
      void front(req, res).then((answered) => {
        if (answered) return;
        res.writeHead(HANDED_TO_NEXT);
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    await listTree("Front warm-up");
  }, 180_000);

  afterAll(async () => {
    setGalleryClock(() => performance.now());
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    statements.length = 0;
    renders = [];
    renderLocales = [];
    clock += 60_000;
    galleryChanged();
  });

  describe("GET /api/published?… in front", () => {
    it("answers a page as the route handler does, reading the database once for many readers", async () => {
      const first = await get("/api/published?page[number]=1&search=");
      expect(first.status).toBe(200);
      expect(first.headers["content-type"]).toBe("application/json");
      expect(first.headers["cache-control"]).toBe(GALLERY_CACHE_CONTROL);
      expect(first.headers["x-content-type-options"]).toBe("nosniff");
      expect(statements).toEqual(["gallery_page_newest", "gallery_count"]);
      const page = json(first);
      expect(page.data.length).toBeGreaterThan(0);
      expect(Object.keys(page.data[0]!)).toEqual(
        expect.arrayContaining(["_id", "title", "description", "cover"]),
      );
      // The route handler reads the same SQL through Prisma: the same answer, field by field.
      galleryChanged();
      const routed = await api.get<GalleryPage>("/api/published?page[number]=1&search=");
      expect(routed.status).toBe(200);
      expect(page).toEqual(routed.body);

      statements.length = 0;
      const many = await Promise.all(
        Array.from({ length: 20 }, () => get("/api/published?page[number]=1")),
      );
      expect(many.every((r) => r.status === 200)).toBe(true);
      expect(statements).toEqual([]);
      // gzip, and 304 to the ETag
      const gzipped = await get("/api/published?page[number]=1", { "accept-encoding": "gzip" });
      expect(gzipped.headers["content-encoding"]).toBe("gzip");
      expect(JSON.parse(gunzipSync(gzipped.body).toString("utf8"))).toEqual(routed.body);
      const etag = String(gzipped.headers.etag);
      const notModified = await get("/api/published?page[number]=1", { "if-none-match": etag });
      expect(notModified.status).toBe(304);
      expect(notModified.body.length).toBe(0);
    });

    it("sees a listing, an unpublish and an operator's hide at once", async () => {
      const ids = async () =>
        json(await get("/api/published?page[number]=1")).data.map((i) => i._id);
      expect(await ids()).not.toContain("nothing");
      const treeId = await listTree("Front listed at once");
      expect(await ids()).toContain(treeId);
      await setGalleryHidden(treeId, true);
      expect(await ids()).not.toContain(treeId);
      await setGalleryHidden(treeId, false);
      expect(await ids()).toContain(treeId);
      const unpublished = await api.delete(`/api/published/${treeId}`, undefined, {
        token: owner.token,
      });
      expect(unpublished.status).toBe(200);
      expect(await ids()).not.toContain(treeId);
    });

    it("answers a kept page past its time at once, while one read refreshes it", async () => {
      const treeId = await listTree("Front stale original");
      const titleOf = async () =>
        json(await get("/api/published?page[number]=1")).data.find((i) => i._id === treeId)?.title;
      expect(await titleOf()).toBe("Front stale original");
      // Another instance's change: no galleryChanged() here.
      await db.publishedTree.update({ where: { treeId }, data: { title: "Front stale renamed" } });
      clock += GALLERY_CACHE_MS - 1;
      statements.length = 0;
      expect(await titleOf()).toBe("Front stale original");
      expect(statements).toEqual([]);
      clock += 2;
      expect(await titleOf()).toBe("Front stale original");
      expect(statements).toEqual(["gallery_page_newest", "gallery_count"]);
      await wait(200);
      expect(await titleOf()).toBe("Front stale renamed");
      // Too old to answer: read again before answering.
      await db.publishedTree.update({ where: { treeId }, data: { title: "Front stale again" } });
      clock += GALLERY_CACHE_MS + GALLERY_STALE_MS;
      expect(await titleOf()).toBe("Front stale again");
    });

    it("leaves a search that is not kept, a bad page and client navigations to Next", async () => {
      const word = `frontw${Date.now().toString(36)}`;
      const treeId = await listTree(`Front ${word}`);
      const path = `/api/published?page[number]=1&search=${word}`;
      expect((await get(path)).status).toBe(HANDED_TO_NEXT);
      expect(statements).toEqual([]);
      // The route handler (rate-limited per address) reads it and keeps it; the front answers it.
      const routed = await api.get<GalleryPage>(path);
      expect(routed.body.data.map((i) => i._id)).toEqual([treeId]);
      const kept = await get(path);
      expect(kept.status).toBe(200);
      expect(json(kept)).toEqual(routed.body);
      expect(statements).toEqual([]);
      // Requests for a search just handed over wait for what the route handler keeps.
      const other = `frontx${Date.now().toString(36)}`;
      const otherPath = `/api/published?page[number]=1&search=${other}`;
      expect((await get(otherPath)).status).toBe(HANDED_TO_NEXT);
      const waiting = Promise.all([get(otherPath), get(otherPath)]);
      await wait(50);
      const otherRouted = await api.get<GalleryPage>(otherPath);
      expect((await waiting).map((r) => r.status)).toEqual([200, 200]);
      expect(json((await waiting)[0])).toEqual(otherRouted.body);
      expect((await get("/api/published?page[number]=0")).status).toBe(HANDED_TO_NEXT);
      expect((await get("/api/published?sort=oldest")).status).toBe(HANDED_TO_NEXT);
      expect((await get("/api/published?page[number]=1", { rsc: "1" })).status).toBe(
        HANDED_TO_NEXT,
      );
    });
  });

  describe("/gallery in front", () => {
    it("renders a page once through the server's renderer, by hash, with an ETag and 304", async () => {
      const answers = await Promise.all(Array.from({ length: 10 }, () => get("/gallery")));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      expect(renders).toEqual(["/gallery"]);
      const [first] = answers;
      const body = first!.body.toString("utf8");
      expect(body).toContain("render 1 of /gallery");
      expect(body).not.toContain("nonce");
      expect(first!.headers["content-security-policy"]).toMatch(/'sha256-[^']+'/);
      expect(first!.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(first!.headers["x-frame-options"]).toBe("DENY");
      expect(first!.headers["set-cookie"]).toBeUndefined();
      expect(first!.headers["cache-control"]).toBe(GALLERY_CACHE_CONTROL);
      const etag = String(first!.headers.etag);
      expect((await get("/gallery", { "if-none-match": etag })).status).toBe(304);
      // The same page under another spelling of its address is the same kept page.
      expect((await get("/gallery?page=1&sort=newest")).status).toBe(200);
      expect(renders).toEqual(["/gallery"]);
      // The page knows the server's render by its secret.
      expect(isGalleryRender(RENDER_SECRET)).toBe(true);
      expect(isGalleryRender("guess")).toBe(false);
      expect((await get("/gallery", { [RENDER_HEADER]: RENDER_SECRET })).status).toBe(
        HANDED_TO_NEXT,
      );
      expect((await get("/gallery", { rsc: "1" })).status).toBe(HANDED_TO_NEXT);
    });

    it("keeps one copy per language: a reader never gets another language's page (issue 36)", async () => {
      const lang = (raw: { body: Buffer }) => /<html lang="([^"]+)"/.exec(raw.body.toString())?.[1];
      const english = await get("/gallery");
      expect(english.status).toBe(200);
      expect(lang(english)).toBe("en");
      expect(String(english.headers.vary)).toContain("Accept-Language");
      expect(String(english.headers.vary)).toContain("Cookie");

      const german = await get("/gallery", { "accept-language": "de-AT,de;q=0.9,en;q=0.5" });
      expect(lang(german)).toBe("de");
      // the cookie the language menu (or the account's setting) sets comes before the header
      const japanese = await get("/gallery", {
        cookie: "theme=dark; NEXT_LOCALE=ja",
        "accept-language": "de",
      });
      expect(lang(japanese)).toBe("ja");
      expect(renders).toEqual(["/gallery", "/gallery", "/gallery"]);
      expect(renderLocales).toEqual(["en", "de", "ja"]);
      expect(new Set([english, german, japanese].map((r) => r.headers.etag)).size).toBe(3);

      // each language's copy is kept and answered to its own readers only
      expect(lang(await get("/gallery", { "accept-language": "de" }))).toBe("de");
      expect(lang(await get("/gallery", { cookie: "NEXT_LOCALE=ja" }))).toBe("ja");
      expect(lang(await get("/gallery"))).toBe("en");
      expect(lang(await get("/gallery", { "accept-language": "xx, fr;q=0" }))).toBe("en");
      expect(renders).toHaveLength(3);
      // another language's ETag is not this reader's copy
      const notMine = await get("/gallery", {
        "accept-language": "de",
        "if-none-match": String(english.headers.etag),
      });
      expect(notMine.status).toBe(200);
      expect(lang(notMine)).toBe("de");
    });

    it("renders again after a listing change, and answers the stale page while it re-renders", async () => {
      expect((await get("/gallery?sort=views")).body.toString()).toContain("render 1 of");
      await listTree("Front page change");
      expect((await get("/gallery?sort=views")).body.toString()).toContain("render 2 of");
      clock += GALLERY_CACHE_MS + 1;
      expect((await get("/gallery?sort=views")).body.toString()).toContain("render 2 of");
      await wait(100);
      expect((await get("/gallery?sort=views")).body.toString()).toContain("render 3 of");
      expect(renders).toEqual([
        "/gallery?sort=views",
        "/gallery?sort=views",
        "/gallery?sort=views",
      ]);
    });

    it("keeps a page whose listing did not change without rendering it, and renders it when it did", async () => {
      const treeId = await listTree("Front unchanged listing");
      await get("/gallery?page=1");
      clock += GALLERY_CACHE_MS + 1;
      await get("/gallery");
      await wait(150);
      // Rendered twice: first, then once with the listing it shows known.
      expect(renders).toEqual(["/gallery", "/gallery"]);
      statements.length = 0;
      clock += GALLERY_CACHE_MS + 1;
      expect((await get("/gallery")).body.toString()).toContain("render 2 of");
      await wait(150);
      // One read of the listing found it unchanged: no render.
      expect(statements).toEqual(["gallery_page_newest", "gallery_count"]);
      expect(renders).toHaveLength(2);
      // Another instance renames a listed tree: the next refresh renders.
      await db.publishedTree.update({
        where: { treeId },
        data: { title: "Front renamed listing" },
      });
      clock += GALLERY_CACHE_MS + 1;
      await get("/gallery");
      await wait(150);
      expect(renders).toHaveLength(3);
      expect((await get("/gallery")).body.toString()).toContain("render 3 of");
    });
  });
}
