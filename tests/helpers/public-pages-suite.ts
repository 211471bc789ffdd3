// Published trees served from memory in front of Next (lib/server/front/public-pages.ts, ADR 014,
// 023, 024): the pages' HTML kept per publication with an ETag and a short shared-cache lifetime,
// the snapshot at an address that changes with each publish, GET /api/published/{id} from the
// publication's kept JSON, views counted in memory once per reader. Here it runs on node:http in
// front of a stand-in for Next that answers 599, with a clock the test moves, beside the route
// handlers, on the engine the caller's data-access seam names: tests/api/public-pages.test.ts runs
// it on PostgreSQL, tests/pglite/public-pages.test.ts on the embedded default.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, inflateRawSync } from "node:zlib";
import pino from "pino";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import type { FrontDb } from "@/lib/server/front/front-db";
import {
  CHECK_MS,
  createPublicPages,
  etagMatches,
  RENDER_HEADER,
  type RenderedPage,
} from "@/lib/server/front/public-pages";
import {
  PUBLIC_PAGE_CACHE_CONTROL,
  PUBLIC_PAGE_S_MAXAGE,
  snapshotPath,
} from "@/lib/server/published/snapshot-url";
import {
  VIEW_COUNT_FLUSH_SQL,
  VIEW_WINDOW_MS,
  ViewCounter,
} from "@/lib/server/published/view-counter";
import { api } from "./api";
import { rawRequest } from "./raw-http";
import { type TestUser, buildLegacy, createTree, createUser, insertPeople } from "./factories";

const HANDED_TO_NEXT = 599;
const RENDER_SECRET = "render-secret-for-tests";

/** The public pages on one engine: `makeDb` answers its data-access seam (front-db.ts). */
export function describePublicPages(makeDb: () => FrontDb) {
  /** Every statement the front ran, by name, in order. */
  const statements: string[] = [];
  let frontDb: FrontDb;
  const recordingDb = (): FrontDb => ({
    engine: frontDb.engine,
    query: (name, text, values) => {
      statements.push(name);
      return frontDb.query(name, text, values);
    },
  });
  const writeViews = async (treeIds: string[], counts: number[]) => {
    await frontDb.query("view_counts", VIEW_COUNT_FLUSH_SQL, [treeIds, counts]);
  };
  /** The list's page count in the stand-in's HTML. */
  const LIST_PAGES = 3;

  let clock = Date.now();
  let renders: string[] = [];

  /** Next's stand-in renders a page whose bytes say which render it was. */
  async function render(path: string): Promise<RenderedPage> {
    renders.push(path);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const nonce = `nonce-${renders.length}`;
    return {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": `script-src 'nonce-${nonce}'`,
        "set-cookie": "never=kept",
      },
      body: Buffer.from(
        `<!DOCTYPE html><html><head><script src="/_next/static/app.js" nonce="${nonce}" async=""></script></head>` +
          `<body>render ${renders.length} of ${path}` +
          `<meta name="heirloom-list-pages" content="${LIST_PAGES}"/>` +
          `<script nonce="${nonce}">self.__next_f.push([1,"a"])</script>` +
          `<script nonce="${nonce}">performance.mark("x")</script></body></html>`,
      ),
    };
  }

  function startFront(views: ViewCounter) {
    const front = createPublicPages({
      db: recordingDb(),
      render,
      renderSecret: RENDER_SECRET,
      views,
      logger: pino({ level: "silent" }),
      now: () => clock,
    });
    const server = http.createServer((req, res) => {
      void front(req, res).then((answered) => {
        if (answered) return;
        res.writeHead(HANDED_TO_NEXT);
        res.end();
      });
    });
    return new Promise<{ server: http.Server; port: number }>((resolve) =>
      server.listen(0, "127.0.0.1", () =>
        resolve({ server, port: (server.address() as AddressInfo).port }),
      ),
    );
  }

  const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    rawRequest(front.port, path, headers, method);

  const viewCountOf = async (treeId: string) =>
    (await db.publishedTree.findUniqueOrThrow({ where: { treeId } })).viewCount;

  const publish = async (treeId: string) => {
    const response = await api.put<{ lastPublishDate: string }>(
      `/api/published/${treeId}`,
      undefined,
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    return response.body.lastPublishDate;
  };

  let owner: TestUser;
  let views: ViewCounter;
  let front: Awaited<ReturnType<typeof startFront>>;

  beforeAll(async () => {
    frontDb = makeDb();
    owner = await createUser();
    views = new ViewCounter(writeViews, undefined, { intervalMs: 60_000, now: () => clock });
    front = await startFront(views);
  });

  afterAll(async () => {
    await views.close();
    await new Promise((resolve) => front.server.close(resolve));
  });

  beforeEach(() => {
    renders = [];
    statements.length = 0;
    // Past every check this process made: each test starts from the database's state.
    clock += 10 * CHECK_MS;
  });

  async function publishedLegacy(title = "Cached Legacy") {
    const tree = await createTree(owner.token, { title });
    const ids = await insertPeople(tree._id, 30);
    await api.patch(
      `/api/trees/${tree._id}`,
      { data: buildLegacy(ids, { nodes: 20 }) },
      {
        token: owner.token,
      },
    );
    const lastPublishDate = await publish(tree._id);
    return { treeId: tree._id, lastPublishDate };
  }

  describe("the public page's HTML", () => {
    it("is rendered once per publication, then served from memory with an ETag and s-maxage", async () => {
      const { treeId } = await publishedLegacy();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => get(`/public/${treeId}`, { "accept-encoding": "gzip" })),
      );
      expect(renders).toEqual([`/public/${treeId}`]);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.headers["cache-control"]).toBe(PUBLIC_PAGE_CACHE_CONTROL);
        expect(answer.headers["cache-control"]).toMatch(
          /^public, .*s-maxage=60, stale-while-revalidate=\d+$/,
        );
        expect(answer.headers["content-encoding"]).toBe("gzip");
        expect(answer.headers["content-security-policy"]).not.toContain("nonce");
        expect(answer.headers["set-cookie"]).toBeUndefined();
        expect(answer.headers.etag).toBe(answers[0]!.headers.etag);
        expect(gunzipSync(answer.body).toString()).toContain(`render 1 of /public/${treeId}`);
      }
      // ?p= shares the page (the canvas reads it in the browser); no gzip gets the same bytes plain.
      const withPerson = await get(`/public/${treeId}?p=someone`);
      expect(withPerson.status).toBe(200);
      expect(withPerson.body.toString()).toContain("render 1 of");
      expect(renders).toHaveLength(1);
    });

    it("answers 304 to a matching If-None-Match, and 200 to another", async () => {
      const { treeId } = await publishedLegacy();
      const first = await get(`/public/${treeId}`);
      const etag = first.headers.etag!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`]) {
        const again = await get(`/public/${treeId}`, { "if-none-match": header });
        expect(again.status).toBe(304);
        expect(again.body).toHaveLength(0);
        expect(again.headers.etag).toBe(etag);
        expect(again.headers["cache-control"]).toBe(PUBLIC_PAGE_CACHE_CONTROL);
      }
      expect((await get(`/public/${treeId}`, { "if-none-match": '"other"' })).status).toBe(200);
      expect(etagMatches(undefined, etag)).toBe(false);
    });

    it("is rendered again after a republish, with a new ETag", async () => {
      const { treeId } = await publishedLegacy();
      const before = await get(`/public/${treeId}`);
      await publish(treeId);
      clock += CHECK_MS;
      const after = await get(`/public/${treeId}`, { "if-none-match": before.headers.etag! });
      expect(after.status).toBe(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(renders).toHaveLength(2);
    });

    it.each([
      ["an RSC request of Next's router", () => [`/public/ID`, { rsc: "1" }]],
      ["the server's own render request", () => [`/public/ID`, { [RENDER_HEADER]: RENDER_SECRET }]],
      ["a POST", () => [`/public/ID`, {}, "POST"]],
      ["a page below the list", () => [`/public/ID/list/more`]],
      ["an id the page would refuse", () => [`/public/not-an-id`]],
    ] as [string, () => [string, Record<string, string>?, string?]][])(
      "hands on %s",
      async (_, args) => {
        const { treeId } = await publishedLegacy();
        const [path, headers, method] = args();
        const answer = await get(path.replace("ID", treeId), headers, method);
        expect(answer.status).toBe(HANDED_TO_NEXT);
      },
    );
  });

  describe("the snapshot", () => {
    it("changes address on republish; the old address is gone, the new one is immutable", async () => {
      const { treeId, lastPublishDate } = await publishedLegacy();
      const first = snapshotPath(treeId, lastPublishDate);
      const served = await get(first, { "accept-encoding": "gzip" });
      expect(served.status).toBe(200);
      expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      // The same bytes as the route handler, which serves it in `next dev` and on PGlite.
      const handler = await api.get(first);
      expect(handler.status).toBe(200);
      expect(handler.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(gunzipSync(served.body).equals(handler.bytes)).toBe(true);
      const deflate = served.body.subarray(10, served.body.length - 8);
      expect(inflateRawSync(deflate).equals(handler.bytes)).toBe(true);
      const snapshot = JSON.parse(handler.bytes.toString()) as Record<string, unknown>;
      expect(Object.keys(snapshot)).toEqual([
        "_id",
        "title",
        "description",
        "cover",
        "data",
        "heirs",
        "people",
        "lastPublishDate",
      ]);
      expect(snapshot.title).toBe("Cached Legacy");

      const second = snapshotPath(treeId, await publish(treeId));
      expect(second).not.toBe(first);
      clock += CHECK_MS;
      expect((await get(second)).status).toBe(200);
      expect((await get(first)).status).toBe(HANDED_TO_NEXT);
      expect((await api.get(first)).status).toBe(404);
    });

    it("gets a new address even when republished within the same millisecond", async () => {
      const { treeId, lastPublishDate } = await publishedLegacy();
      const dates = [lastPublishDate];
      // Overlapping publishes: each waits for the row the one before it is writing.
      for (let round = 0; round < 4; round += 1) {
        dates.push(...(await Promise.all(Array.from({ length: 6 }, () => publish(treeId)))));
      }
      const versions = new Set(dates.map((date) => snapshotPath(treeId, date)));
      expect(versions.size).toBe(dates.length);
    });
  });

  describe("unpublishing and deleting", () => {
    it.each([
      [
        "unpublished",
        (treeId: string) =>
          api.delete(`/api/published/${treeId}`, undefined, { token: owner.token }),
      ],
      [
        "deleted, then unpublished",
        async (treeId: string) => {
          await api.delete(`/api/trees/${treeId}`, undefined, { token: owner.token });
          return api.delete(`/api/published/${treeId}`, undefined, { token: owner.token });
        },
      ],
    ])("stops serving the HTML and the JSON once s-maxage runs out: %s", async (_, withdraw) => {
      const { treeId, lastPublishDate } = await publishedLegacy();
      const snapshot = snapshotPath(treeId, lastPublishDate);
      expect((await get(`/public/${treeId}`)).status).toBe(200);
      expect((await get(snapshot)).status).toBe(200);
      expect((await withdraw(treeId)).status).toBe(200);

      // A shared cache may keep the page for s-maxage; this server forgets it much sooner.
      clock += PUBLIC_PAGE_S_MAXAGE * 1000;
      expect((await get(`/public/${treeId}`)).status).toBe(HANDED_TO_NEXT);
      expect((await get(snapshot)).status).toBe(HANDED_TO_NEXT);
      // What Next then answers: the page's 404 (getPublishedTree) and the route handler's.
      expect((await api.get(`/api/published/${treeId}`)).status).toBe(404);
      expect((await api.get(snapshot)).status).toBe(404);
    });
  });

  describe("view counts", () => {
    it("counts one view per reader per tree per window (200 or 304), in memory, written in one batch", async () => {
      const { treeId } = await publishedLegacy();
      const other = await publishedLegacy("Another Legacy");
      const reader = { "user-agent": "Reader A" };
      const first = await get(`/public/${treeId}`, reader);
      // One client's 300 GETs are one view (issue 22): the page, the list, a 304 and any query.
      await Promise.all(Array.from({ length: 300 }, () => get(`/public/${treeId}?x=1`, reader)));
      await get(`/public/${treeId}/list`, reader);
      await get(`/public/${treeId}`, { ...reader, "if-none-match": first.headers.etag! });
      await get(`/public/${treeId}`, reader, "HEAD");
      // Another reader (here another browser at the same address), and another tree, count again.
      await get(`/public/${treeId}`, { "user-agent": "Reader B" });
      await get(`/public/${treeId}`, { "user-agent": "Reader B" });
      await get(`/public/${other.treeId}`, reader);
      expect(await viewCountOf(treeId)).toBe(0);
      await views.flush();
      expect(await viewCountOf(treeId)).toBe(2);
      expect(await viewCountOf(other.treeId)).toBe(1);
      // Nothing but a keyed hash per reader and tree is kept, for the window.
      expect(views.rememberedReaders).toBeGreaterThanOrEqual(3);
      clock += VIEW_WINDOW_MS - 60_000;
      await get(`/public/${treeId}`, reader);
      await views.flush();
      expect(await viewCountOf(treeId)).toBe(2);
      // The same reader counts again once the window it was counted in and the next have passed
      // (30 to 60 minutes later: the windows turn every 30 minutes).
      clock += VIEW_WINDOW_MS + 60_000;
      await get(`/public/${treeId}`, reader);
      await views.flush();
      expect(await viewCountOf(treeId)).toBe(3);
    });

    it("writes by itself every interval, and a restart loses at most the last interval's views", async () => {
      const { treeId } = await publishedLegacy();
      const interval = 200;
      // After the crash, nothing more from the old process reaches the database.
      let crashed = false;
      const beforeCrash = new ViewCounter(
        async (ids, counts) => {
          if (crashed) throw new Error("the process is gone");
          await writeViews(ids, counts);
        },
        undefined,
        interval,
      );
      for (let view = 0; view < 30; view += 1) beforeCrash.count(treeId);
      await new Promise((resolve) => setTimeout(resolve, interval * 3));
      expect(await viewCountOf(treeId)).toBe(30);
      // The views of the last interval are all that a crash loses.
      for (let view = 0; view < 4; view += 1) beforeCrash.count(treeId);
      expect(beforeCrash.unwritten).toBe(4);
      crashed = true;
      await beforeCrash.close();
      expect(await viewCountOf(treeId)).toBe(30);

      // A clean stop (SIGTERM in scripts/server.ts) writes everything.
      const afterRestart = new ViewCounter(writeViews, undefined, 60_000);
      for (let view = 0; view < 7; view += 1) afterRestart.count(treeId);
      await afterRestart.close();
      expect(await viewCountOf(treeId)).toBe(30 + 7);
    });

    it("keeps a failed batch for the next write", async () => {
      const { treeId } = await publishedLegacy();
      let fail = true;
      const counter = new ViewCounter(async (ids, counts) => {
        if (fail) throw new Error("database away");
        await writeViews(ids, counts);
      });
      for (let view = 0; view < 5; view += 1) counter.count(treeId);
      await counter.flush();
      expect(counter.unwritten).toBe(5);
      fail = false;
      await counter.close();
      expect(await viewCountOf(treeId)).toBe(5);
    });
  });

  describe("any query, one kept page (issue 22)", () => {
    it("serves ?p=, ?x=1 and any other query from the one page rendered per publication", async () => {
      const { treeId } = await publishedLegacy();
      const first = await get(`/public/${treeId}`);
      for (const query of [
        "?p=someone",
        "?x=1",
        "?_rsc=abc",
        "?p=a&utm_source=b",
        "?" + "y".repeat(2000),
      ]) {
        const answer = await get(`/public/${treeId}${query}`);
        expect(answer.status, query).toBe(200);
        expect(answer.headers.etag, query).toBe(first.headers.etag);
      }
      expect(renders).toEqual([`/public/${treeId}`]);
    });

    it("keeps the list's pages apart (?page=N) and sends a page past the last to the last", async () => {
      const { treeId } = await publishedLegacy();
      const list = `/public/${treeId}/list`;
      expect((await get(`${list}?x=1`)).body.toString()).toContain(`of ${list}<`);
      expect((await get(`${list}?page=1&p=someone`)).status).toBe(200);
      const second = await get(`${list}?page=2&x=1`);
      expect(second.status).toBe(200);
      expect(second.body.toString()).toContain(`of ${list}?page=2<`);
      // Past the last page, or a page number no list has: the last page, never a render each.
      for (const query of ["?page=3", "?page=4", "?page=9999"]) await get(`${list}${query}`);
      const past = await get(`${list}?page=9999`);
      expect(past.status).toBe(302);
      expect(past.headers.location).toBe(`${list}?page=${LIST_PAGES}`);
      // Not a page number: the first page.
      expect((await get(`${list}?page=abc`)).body.toString()).toContain(`of ${list}<`);
      expect((await get(`${list}?page=99999`)).body.toString()).toContain(`of ${list}<`);
      expect(renders.sort()).toEqual([list, `${list}?page=2`, `${list}?page=3`].sort());
      // Views of the list count as views of the tree (one reader here).
      await views.flush();
      expect(await viewCountOf(treeId)).toBe(1);
    });

    it("renders one page at a time however many readers ask for different pages", async () => {
      const trees = await Promise.all([
        publishedLegacy("A"),
        publishedLegacy("B"),
        publishedLegacy("C"),
      ]);
      let running = 0;
      let most = 0;
      const slowRender = async (path: string) => {
        running += 1;
        most = Math.max(most, running);
        try {
          return await render(path);
        } finally {
          running -= 1;
        }
      };
      const pages = createPublicPages({
        db: recordingDb(),
        render: slowRender,
        renderSecret: RENDER_SECRET,
        views,
        logger: pino({ level: "silent" }),
        now: () => clock,
      });
      const server = http.createServer((req, res) => {
        void pages(req, res).then((answered) => {
          if (!answered) res.writeHead(HANDED_TO_NEXT).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as AddressInfo).port;
      try {
        const answers = await Promise.all(
          trees.flatMap(({ treeId }) =>
            [`/public/${treeId}`, `/public/${treeId}/list`].map(
              (path) =>
                new Promise<number>((resolve, reject) =>
                  http
                    .get({ host: "127.0.0.1", port, path }, (res) => {
                      res.resume();
                      res.on("end", () => resolve(res.statusCode ?? 0));
                    })
                    .on("error", reject),
                ),
            ),
          ),
        );
        expect(answers).toEqual(Array(6).fill(200));
        expect(most).toBe(1);
      } finally {
        server.close();
      }
    });
  });

  describe("a kept page carries no nonce (issue 22)", () => {
    it("allows its inline scripts by hash, the same bytes and policy for every reader", async () => {
      const { treeId } = await publishedLegacy();
      const one = await get(`/public/${treeId}`);
      const two = await get(`/public/${treeId}`);
      expect(one.body.equals(two.body)).toBe(true);
      const html = one.body.toString();
      const csp = String(one.headers["content-security-policy"]);
      expect(html).not.toMatch(/nonce/);
      expect(csp).not.toMatch(/nonce|strict-dynamic|unsafe-inline'[^;]*script/);
      const sha = (text: string) => createHash("sha256").update(text).digest("base64");
      const scriptSrc = csp.split("; ").find((part) => part.startsWith("script-src "));
      expect(scriptSrc).toBe(
        `script-src 'self' 'sha256-${sha('self.__next_f.push([1,"a"])')}' 'sha256-${sha('performance.mark("x")')}'`,
      );
      expect(csp).toContain("frame-ancestors *");
      expect(csp).toContain("object-src 'none'");
    });
  });

  describe("Accept-Encoding (issue 22)", () => {
    it("honours gzip;q=0 on the page, the snapshot and the published JSON", async () => {
      const { treeId, lastPublishDate } = await publishedLegacy();
      for (const path of [
        `/public/${treeId}`,
        `/public/${treeId}/list`,
        snapshotPath(treeId, lastPublishDate),
        `/api/published/${treeId}`,
      ]) {
        for (const refusal of ["gzip;q=0", "gzip;q=0, identity", "*;q=0", "br"]) {
          const answer = await get(path, { "accept-encoding": refusal });
          expect(answer.status, `${path} ${refusal}`).toBe(200);
          expect(answer.headers["content-encoding"], `${path} ${refusal}`).toBeUndefined();
          expect(() => JSON.parse(answer.body.toString()) as unknown, path).not.toThrow(/gzip/);
          expect(answer.body[0], `${path} ${refusal}`).not.toBe(0x1f);
        }
        const zipped = await get(path, { "accept-encoding": "gzip;q=0.5, br" });
        expect(zipped.headers["content-encoding"], path).toBe("gzip");
      }
    });
  });

  describe("GET /api/published/{id} (issue 22)", () => {
    it("answers the route handler's bytes from the publication's kept JSON, compressed, with the current view count", async () => {
      const { treeId } = await publishedLegacy();
      const path = `/api/published/${treeId}`;
      const zipped = await get(path, { "accept-encoding": "gzip" });
      expect(zipped.status).toBe(200);
      expect(zipped.headers["content-encoding"]).toBe("gzip");
      expect(zipped.headers["content-type"]).toBe("application/json");
      expect(zipped.headers["cache-control"]).toBe("no-store");
      expect(zipped.headers["content-security-policy"]).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      const handler = await api.get(path);
      expect(handler.status).toBe(200);
      expect(gunzipSync(zipped.body).toString()).toBe(handler.bytes.toString());
      // One gzip member (browsers read only the first): its deflate stream alone is the whole body.
      const deflate = zipped.body.subarray(10, zipped.body.length - 8);
      expect(inflateRawSync(deflate).toString()).toBe(handler.bytes.toString());
      const plain = await get(path);
      expect(plain.body.toString()).toBe(handler.bytes.toString());
      // The JSON is read and compressed once per publication; each answer reads one small row.
      statements.length = 0;
      await Promise.all(Array.from({ length: 10 }, () => get(path, { "accept-encoding": "gzip" })));
      expect(new Set(statements)).toEqual(new Set(["published_version"]));
      expect(statements).toHaveLength(10);
      // The view count is the current one.
      await get(`/public/${treeId}`, { "user-agent": "counted" });
      await views.flush();
      const after = JSON.parse((await get(path)).body.toString()) as { viewCount: number };
      expect(after.viewCount).toBe(1);
      expect((await api.get(path)).bytes.toString()).toBe((await get(path)).body.toString());
    });

    it("shares the kept JSON with the snapshot, and reads the new one after a republish", async () => {
      const { treeId, lastPublishDate } = await publishedLegacy();
      await get(snapshotPath(treeId, lastPublishDate));
      await get(`/api/published/${treeId}`);
      expect(statements.filter((name) => name === "published_snapshot")).toHaveLength(1);
      await db.tree.update({ where: { id: treeId }, data: { title: "Renamed Legacy" } });
      await publish(treeId);
      const renamed = JSON.parse((await get(`/api/published/${treeId}`)).body.toString()) as {
        title: string;
      };
      expect(renamed.title).toBe("Renamed Legacy");
    });

    it("serves any query from the one cached body, and hands a tree that is not published to Next", async () => {
      const { treeId } = await publishedLegacy();
      statements.length = 0;
      const plain = await get(`/api/published/${treeId}`);
      for (const query of ["?x=1", "?_=1732000000000", "?x=2&y=3"]) {
        const answer = await get(`/api/published/${treeId}${query}`);
        expect(answer.status).toBe(200);
        expect(answer.body.equals(plain.body)).toBe(true);
      }
      // one build of the publication for all four reads (finding 3: a query cannot make more)
      expect(statements.filter((name) => name === "published_snapshot")).toHaveLength(1);
      await api.delete(`/api/published/${treeId}`, undefined, { token: owner.token });
      expect((await get(`/api/published/${treeId}`)).status).toBe(HANDED_TO_NEXT);
    });
  });
}
