// GET /api/published/{id} of a large publication in bounded parts (issue 22, finding 3): the
// server in front of Next (lib/server/front/public-pages.ts) and the route handler read the
// publication's JSON in rows of at most 1 MiB (lib/server/published/published-json-parts.ts) and
// never as one text, and still answer the very bytes of PUBLISHED_JSON_SQL, gzipped or not.
// tests/api/published-json-parts.test.ts runs it on PostgreSQL, tests/pglite/… on PGlite.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import type { FrontDb } from "@/lib/server/front/front-db";
import { createPublicPages, type RenderedPage } from "@/lib/server/front/public-pages";
import {
  getPublishedTreeJson,
  getPublishedTreeJsonParts,
} from "@/lib/server/published/get-published-tree";
import {
  PUBLISHED_PART_BYTES,
  PUBLISHED_PART_MAX_BYTES,
} from "@/lib/server/published/published-json-parts";
import { ViewCounter } from "@/lib/server/published/view-counter";
import { api } from "./api";
import { rawRequest } from "./raw-http";
import { type TestUser, buildLegacy, createTree, createUser } from "./factories";

const HANDED_TO_NEXT = 599;
/** Sims and the length of each one's bio: about 5 MiB of JSON, so at least five parts. */
const PEOPLE = 160;
/**
 * A bio of one-, two-, three- and four-byte characters (11 bytes a round, an odd number), so that
 * the 1 MiB cuts fall inside characters and must be moved to the next one.
 */
const BIO = `<p>${"a\u00e9\u20ac\u{1F333}".repeat(3_000)}</p>`;

export function describePublishedJsonParts(makeDb: () => FrontDb) {
  /** The UTF-8 bytes of each text the front read from the database, by statement. */
  const read: { name: string; bytes: number }[] = [];
  let frontDb: FrontDb;
  let owner: TestUser;
  let views: ViewCounter;
  let server: http.Server;
  let port = 0;

  beforeAll(async () => {
    frontDb = makeDb();
    owner = await createUser();
    views = new ViewCounter(async () => undefined, undefined, { intervalMs: 60_000 });
    const front = createPublicPages({
      db: {
        engine: frontDb.engine,
        query: async (name, text, values) => {
          const rows = await frontDb.query(name, text, values);
          for (const row of rows) {
            for (const value of Object.values(row)) {
              if (typeof value === "string") {
                read.push({ name, bytes: Buffer.byteLength(value) });
              }
            }
          }
          return rows as never;
        },
      },
      render: async (): Promise<RenderedPage> => ({
        status: 500,
        headers: {},
        body: Buffer.from(""),
      }),
      renderSecret: "render-secret-for-tests",
      views,
      logger: pino({ level: "silent" }),
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
  });

  afterAll(async () => {
    await views.close();
    await new Promise((resolve) => server.close(resolve));
  });

  async function largePublication(): Promise<string> {
    const tree = await createTree(owner.token, { title: "Large \u{1F333} Legacy" });
    const ids = Array.from({ length: PEOPLE }, () => crypto.randomUUID());
    await db.person.createMany({
      data: ids.map((id, i) => ({
        id,
        treeId: tree._id,
        firstName: `Sim ${i + 1} \u00e9`,
        lastName: "Legacy",
        bio: BIO,
      })),
    });
    await api.patch(
      `/api/trees/${tree._id}`,
      { data: buildLegacy(ids, { nodes: 40 }) },
      { token: owner.token },
    );
    const published = await api.put(`/api/published/${tree._id}`, undefined, {
      token: owner.token,
    });
    expect(published.status).toBe(200);
    return tree._id;
  }

  describe("GET /api/published/{id} of a large publication (issue 22)", () => {
    it("is read in parts of 1 MiB (and a character), never as one text, and answers PUBLISHED_JSON_SQL's bytes", async () => {
      const treeId = await largePublication();
      const whole = await getPublishedTreeJson(treeId);
      expect(Buffer.byteLength(whole)).toBeGreaterThan(4 * PUBLISHED_PART_BYTES);
      read.length = 0;
      const path = `/api/published/${treeId}`;
      // Four readers at once: one read of the database between them.
      const answers = await Promise.all([
        rawRequest(port, path, { "accept-encoding": "gzip" }),
        rawRequest(port, path, { "accept-encoding": "gzip" }),
        rawRequest(port, path),
        rawRequest(port, path, { "accept-encoding": "gzip;q=0" }),
      ]);
      const snapshotRows = read.filter((row) => row.name === "published_snapshot");
      expect(snapshotRows.length).toBeGreaterThanOrEqual(5);
      expect(Math.max(...read.map((row) => row.bytes))).toBeLessThanOrEqual(
        PUBLISHED_PART_MAX_BYTES,
      );
      for (const [i, answer] of answers.entries()) {
        expect(answer.status, `reader ${i}`).toBe(200);
        const body = i < 2 ? gunzipSync(answer.body) : answer.body;
        expect(answer.headers["content-encoding"], `reader ${i}`).toBe(i < 2 ? "gzip" : undefined);
        expect(body.equals(Buffer.from(whole)), `reader ${i}`).toBe(true);
      }
      // Kept: the next readers read one small row each.
      read.length = 0;
      const again = await rawRequest(port, path, { "accept-encoding": "gzip" });
      expect(gunzipSync(again.body).equals(Buffer.from(whole))).toBe(true);
      expect(read.map((row) => row.name)).toEqual(["published_version"]);
    });

    it("is read by the route handler in parts of 1 MiB (and a character), and answered with the same bytes", async () => {
      const treeId = await largePublication();
      const whole = await getPublishedTreeJson(treeId);
      const parts = await getPublishedTreeJsonParts(treeId);
      expect(parts.length).toBeGreaterThanOrEqual(5);
      for (const part of parts.slice(0, -1)) {
        expect(Buffer.byteLength(part)).toBeLessThanOrEqual(PUBLISHED_PART_MAX_BYTES);
      }
      expect(parts.join("")).toBe(whole);
      const handler = await api.get(`/api/published/${treeId}`);
      expect(handler.status).toBe(200);
      expect(handler.headers.get("content-type")).toBe("application/json");
      expect(handler.bytes.equals(Buffer.from(whole))).toBe(true);
      expect((handler.body as { title: string }).title).toBe("Large \u{1F333} Legacy");
    });

    it("is 404 from the route handler when not published, as before", async () => {
      const tree = await createTree(owner.token);
      const answer = await api.get(`/api/published/${tree._id}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ errors: [{ detail: expect.any(String) as string }] });
      expect((await rawRequest(port, `/api/published/${tree._id}`)).status).toBe(HANDED_TO_NEXT);
    });
  });
}
