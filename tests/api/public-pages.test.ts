// Published trees served from memory in front of Next (lib/server/public-pages.ts, ADR 014): the
// page's HTML kept per publication with an ETag and a short shared-cache lifetime, the snapshot at
// an address that changes with each publish, views counted in memory. Here it runs on node:http in
// front of a stand-in for Next that answers 599, on the real PostgreSQL, with a clock the test
// moves, beside the route handlers.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getEnv } from "@/lib/env";
import { db } from "@/lib/server/db";
import { getPgPool } from "@/lib/server/front/pg-pool";
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
import { VIEW_COUNT_FLUSH_SQL, ViewCounter } from "@/lib/server/published/view-counter";
import { api } from "../helpers/api";
import {
  type TestUser,
  buildLegacy,
  createTree,
  createUser,
  insertPeople,
} from "../helpers/factories";

const HANDED_TO_NEXT = 599;
const RENDER_SECRET = "render-secret-for-tests";

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const pool = () => getPgPool(getEnv().DATABASE_URL!);
const writeViews = async (treeIds: string[], counts: number[]) => {
  await pool().query(VIEW_COUNT_FLUSH_SQL, [treeIds, counts]);
};

let clock = Date.now();
let renders: string[] = [];

/** Next's stand-in renders a page whose bytes say which render it was. */
async function render(path: string): Promise<RenderedPage> {
  renders.push(path);
  await new Promise((resolve) => setTimeout(resolve, 20));
  return {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "script-src 'nonce-abc'",
      "set-cookie": "never=kept",
    },
    body: Buffer.from(
      `<!DOCTYPE html><html><body>render ${renders.length} of ${path}</body></html>`,
    ),
  };
}

function startFront(views: ViewCounter) {
  const front = createPublicPages({
    pool: pool(),
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

function get(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: front.port, path, method, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

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
  owner = await createUser();
  views = new ViewCounter(writeViews, undefined, 60_000);
  front = await startFront(views);
});

afterAll(async () => {
  await views.close();
  await new Promise((resolve) => front.server.close(resolve));
});

beforeEach(() => {
  renders = [];
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
      expect(answer.headers["content-security-policy"]).toBe("script-src 'nonce-abc'");
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
    ["another query", () => [`/public/ID?_rsc=abc`]],
    ["the list view", () => [`/public/ID/list`]],
    ["a POST", () => [`/public/ID`, {}, "POST"]],
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
    const snapshot = JSON.parse(handler.bytes.toString()) as Record<string, unknown>;
    expect(Object.keys(snapshot)).toEqual([
      "_id",
      "title",
      "description",
      "cover",
      "data",
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
      (treeId: string) => api.delete(`/api/published/${treeId}`, undefined, { token: owner.token }),
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
  it("counts each page view (200 or 304) in memory and writes them in one batch", async () => {
    const { treeId } = await publishedLegacy();
    const first = await get(`/public/${treeId}`);
    await Promise.all(Array.from({ length: 48 }, () => get(`/public/${treeId}`)));
    await get(`/public/${treeId}`, { "if-none-match": first.headers.etag! });
    await get(`/public/${treeId}`, {}, "HEAD");
    await get(
      snapshotPath(
        treeId,
        (await api.get<{ lastPublishDate: string }>(`/api/published/${treeId}`)).body
          .lastPublishDate,
      ),
    );
    expect(await viewCountOf(treeId)).toBe(0);
    await views.flush();
    expect(await viewCountOf(treeId)).toBe(50);
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
    counter.count(treeId, 5);
    await counter.flush();
    expect(counter.unwritten).toBe(5);
    fail = false;
    await counter.close();
    expect(await viewCountOf(treeId)).toBe(5);
  });
});
