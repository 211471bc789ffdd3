// The fast read path (lib/server/front/fast-reads.ts) must answer exactly what the route handlers
// answer, and must hand every other request to Next untouched. Here it runs on node:http in front
// of a stand-in for Next that answers 599, beside the route handlers, on the engine the caller's
// data-access seam names (ADR 023): tests/api/fast-reads.test.ts runs it on PostgreSQL,
// tests/pglite/fast-reads.test.ts on the embedded default.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import nodePath from "node:path";
import { gunzipSync } from "node:zlib";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEnv } from "@/lib/env";
import { IMAGE_SIZES } from "@/lib/schemas/upload";
import { db } from "@/lib/server/db";
import {
  createFastReads,
  type FastReadsOptions,
  matchFastRead,
} from "@/lib/server/front/fast-reads";
import type { FrontDb } from "@/lib/server/front/front-db";
import { createPublicPages } from "@/lib/server/front/public-pages";
import { ViewCounter } from "@/lib/server/published/view-counter";
import { getStorage } from "@/lib/server/storage";
import { variantKey } from "@/lib/server/uploads/delete-upload-files";
import { type Raw, rawRequest } from "./raw-http";
import { api, call } from "./api";
import { type TestUser, buildLegacy, createTree, createUser, insertPeople } from "./factories";
import { createRandom } from "@/scripts/lib/legacy/generate";
import { structureSaves } from "./tree-saves";
import { makePng } from "./upload-fixtures";

/** The fast reads on one engine: `makeDb` answers its data-access seam (front-db.ts). */
export function describeFastReads(makeDb: () => FrontDb) {
  let frontDb: FrontDb;

  const HANDED_TO_NEXT = 599;

  type Get = (path: string, headers?: Record<string, string>, method?: string) => Promise<Raw>;

  /**
   * The server in front of Next as the production server composes it: the public reads (GET
   * /api/published/{id} is one, from the publication's kept JSON), then the fast reads.
   */
  function startFastServer(options: Partial<FastReadsOptions> = {}) {
    frontDb ??= makeDb();
    const db = options.db ?? frontDb;
    const fastReads = createFastReads({
      db,
      jwtSecret: getEnv().JWT_SECRET,
      uploadsDir: getEnv().UPLOADS_DIR,
      logger: pino({ level: "silent" }),
      ...options,
    });
    const publicReads = createPublicPages({
      db,
      render: () => Promise.resolve({ status: HANDED_TO_NEXT, headers: {}, body: Buffer.alloc(0) }),
      renderSecret: "unused",
      views: new ViewCounter(() => Promise.resolve()),
      logger: pino({ level: "silent" }),
    });
    const fast = async (req: http.IncomingMessage, res: http.ServerResponse) =>
      (await publicReads(req, res)) || (await fastReads(req, res));
    const server = http.createServer((req, res) => {
      void fast(req, res).then((answered) => {
        if (answered) return;
        // What Next would get: the request as it came, body unread.
        let unread = 0;
        req.on("data", (chunk: Buffer) => (unread += chunk.length));
        req.on("end", () => {
          res.writeHead(HANDED_TO_NEXT, { "x-unread-bytes": String(unread) });
          res.end();
        });
      });
    });
    return new Promise<{ server: http.Server; get: Get }>((resolve) =>
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        resolve({ server, get: (p, h, m) => rawGet(port, p, h, m) });
      }),
    );
  }

  const rawGet = rawRequest;

  const TRANSPORT = new Set(["date", "connection", "keep-alive", "content-length", "x-request-id"]);

  /** Same status, bytes and headers as the route handler (transport headers aside). */
  async function expectSameAsRouteHandler(fast: Raw, path: string, token?: string) {
    const handler = await api.get(path, { token });
    expect(handler.status).toBe(200);
    expect(fast.status).toBe(200);
    expect(fast.body.equals(handler.bytes)).toBe(true);
    const fromHandler = Object.fromEntries(
      [...handler.headers].filter(([name]) => !TRANSPORT.has(name) && name !== "vary"),
    );
    const fromFast = Object.fromEntries(
      Object.entries(fast.headers).filter(([name]) => !TRANSPORT.has(name) && name !== "vary"),
    );
    expect(fromFast).toEqual(fromHandler);
    expect(fast.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(fast.headers["content-length"])).toBe(fast.body.length);
  }

  let owner: TestUser;
  let stranger: TestUser;
  let treeId: string;
  let avatar: string;
  let fastServer: Awaited<ReturnType<typeof startFastServer>>;

  beforeAll(async () => {
    [owner, stranger] = await Promise.all([createUser(), createUser()]);
    treeId = (await createTree(owner.token, { title: "Fast Legacy" }))._id;
    const peopleIds = await insertPeople(treeId, 40);
    const saved = await api.patch(
      `/api/trees/${treeId}`,
      { data: buildLegacy(peopleIds, { nodes: 30 }) },
      { token: owner.token },
    );
    expect(saved.status).toBe(200);
    expect(
      (await api.put(`/api/published/${treeId}`, undefined, { token: owner.token })).status,
    ).toBe(200);
    avatar = `avatar/${randomUUID()}.png`;
    await getStorage().put(avatar, await makePng(300, 300), "image/png");
    fastServer = await startFastServer();
  });

  afterAll(async () => {
    fastServer.server.close();
    const storage = getStorage();
    await storage.delete(avatar);
    for (const size of IMAGE_SIZES) await storage.delete(variantKey(size, avatar));
    await db.user.deleteMany({ where: { id: { in: [owner.username, stranger.username] } } });
  });

  describe("the fast read path answers as the route handler does", () => {
    it("GET /api/trees/{id}, with the ETag", async () => {
      const path = `/api/trees/${treeId}`;
      const fast = await fastServer.get(path, { authorization: `Bearer ${owner.token}` });
      await expectSameAsRouteHandler(fast, path, owner.token);
      expect(fast.headers.etag).toMatch(/^"\d+-\d+"$/);
    });

    it("GET /api/people?tree=", async () => {
      const path = `/api/people?tree=${treeId}`;
      const fast = await fastServer.get(path, { authorization: `Bearer ${owner.token}` });
      await expectSameAsRouteHandler(fast, path, owner.token);
      expect(JSON.parse(fast.body.toString())).toHaveLength(40);
    });

    it("GET /api/people?tree=&fields=canvas (the editor's first load, ADR 032)", async () => {
      const path = `/api/people?tree=${treeId}&fields=canvas`;
      const fast = await fastServer.get(path, { authorization: `Bearer ${owner.token}` });
      await expectSameAsRouteHandler(fast, path, owner.token);
      const people = JSON.parse(fast.body.toString()) as Record<string, unknown>[];
      expect(people).toHaveLength(40);
      expect(Object.keys(people[0]!)).toEqual(["_id", "avatar", "firstName", "lastName", "links"]);
    });

    it("keeps each person's canvas JSON as row_to_json wrote it, through hostile names and every kind of write", async () => {
      // The stored text (migration person_canvas_json, a generated column) is what the canvas
      // reads join: it must be byte for byte what row_to_json wrote of those columns on every read
      // before, whichever path wrote the person (the API, a bulk insert, raw SQL).
      const tree = (await createTree(owner.token, { title: "Hostile names" }))._id;
      const names = [
        ['He said "hi" \\ back', "tab\there\nnewline\r"],
        ["\u0001\u001f\u007f control", "</script><!-- -->"],
        ["👩‍👩‍👧 family", "Ünïcödé e\u0301 \u2028\u2029"],
        ["", ""],
        ["x".repeat(100), '\'; DROP TABLE "Person"; --'],
      ];
      const ids: string[] = [];
      for (const [firstName, lastName] of names) {
        const created = await api.post(
          "/api/people",
          { tree, firstName, lastName },
          { token: owner.token },
        );
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        ids.push((created.body as { _id: string })._id);
      }
      ids.push(...(await insertPeople(tree, 3)));
      // an avatar and links written by raw SQL, and a rename through the API
      await db.$executeRawUnsafe(
        `UPDATE "Person" SET "avatar" = $1, "links" = $2::jsonb WHERE "id" = $3`,
        'avatar/a"b\\c.png',
        JSON.stringify([{ title: 'Le "tree" \\ ✓', treeId: randomUUID(), personId: randomUUID() }]),
        ids[0],
      );
      const renamed = await api.put(
        `/api/people/${ids[1]}`,
        { firstName: 'Renamed "again"', lastName: "\\" },
        { token: owner.token },
      );
      expect(renamed.status).toBe(200);

      const rows = await db.$queryRawUnsafe<{ id: string; stored: string; written: string }[]>(
        `SELECT p."id", p."canvasJson" AS "stored", row_to_json(r)::text AS "written"
         FROM "Person" p CROSS JOIN LATERAL (
           SELECT p."id" AS "_id", p."avatar", p."firstName", p."lastName", p."links"
         ) r
         WHERE p."treeId" = $1`,
        tree,
      );
      expect(rows).toHaveLength(ids.length);
      for (const row of rows) expect(row.stored).toBe(row.written);
      const people = await db.person.findMany({ where: { treeId: tree } });
      const canvas = (
        await api.get(`/api/people?tree=${tree}&fields=canvas`, { token: owner.token })
      ).body as Record<string, unknown>[];
      expect(canvas).toHaveLength(ids.length);
      for (const { id, avatar, firstName, lastName, links } of people) {
        expect(canvas).toContainEqual({ _id: id, avatar, firstName, lastName, links });
      }
      expect(canvas.map((p) => p.firstName)).toContain('Renamed "again"');
      expect(canvas.map((p) => p.firstName)).toContain("👩‍👩‍👧 family");
    });

    it("GET /api/trees/{id}?fields=canvas (the editor's one read, ADR 038), with the ETag", async () => {
      const path = `/api/trees/${treeId}?fields=canvas`;
      const fast = await fastServer.get(path, { authorization: `Bearer ${owner.token}` });
      await expectSameAsRouteHandler(fast, path, owner.token);
      const answer = JSON.parse(fast.body.toString()) as { data: { person: unknown }; people: [] };
      expect(answer.people).toHaveLength(40);
      expect(answer.data.person).toEqual(expect.any(Number));
      const named = await fastServer.get(`/api/trees/${treeId}`, {
        authorization: `Bearer ${owner.token}`,
      });
      expect(fast.headers.etag).toBe(named.headers.etag);
    });

    it("GET /api/trees/{id}?fields=canvas reads its head and its people, and whole when they disagree", async () => {
      const path = `/api/trees/${treeId}?fields=canvas`;
      const names: string[] = [];
      let renameFirst = false;
      let renamed: { id: string; firstName: string } | undefined;
      const watched: FrontDb = {
        engine: frontDb.engine,
        async query(name, text, values) {
          names.push(name);
          if (name === "tree_canvas_people_part" && renameFirst) {
            // a write between the two parts' snapshots: the people part sees a newer generation
            renameFirst = false;
            const first = await db.person.findFirstOrThrow({
              where: { treeId },
              orderBy: [{ createdAt: "asc" }, { id: "asc" }],
            });
            renamed = first;
            const put = await api.put(
              `/api/people/${first.id}`,
              { firstName: "Renamed Between" },
              { token: owner.token },
            );
            expect(put.status).toBe(200);
          }
          return frontDb.query(name, text, values);
        },
      };
      // nothing kept: each read reads every part
      const { server, get } = await startFastServer({ db: watched, cacheBytes: 0 });
      try {
        const auth = { authorization: `Bearer ${owner.token}` };
        await expectSameAsRouteHandler(await get(path, auth), path, owner.token);
        const parts = ["tree_canvas_head_ids", "tree_canvas_people_part"];
        const bodies = () => names.filter((name) => name.startsWith("tree_canvas")).sort();
        // (on PostgreSQL at once, on two connections; the tree has no chunks)
        expect(bodies()).toEqual(parts);
        names.length = 0;
        renameFirst = true;
        const raced = await get(path, auth);
        expect(renameFirst).toBe(false);
        // the parts disagreed: the one statement answered, as the route handler does now
        expect(bodies()).toEqual([...parts, "tree_canvas_json"].sort());
        await expectSameAsRouteHandler(raced, path, owner.token);
      } finally {
        server.close();
        if (renamed) {
          await api.put(
            `/api/people/${renamed.id}`,
            { firstName: renamed.firstName },
            { token: owner.token },
          );
        }
      }
    });

    it("GET /api/published/{id}, for anyone", async () => {
      const path = `/api/published/${treeId}`;
      await expectSameAsRouteHandler(await fastServer.get(path), path);
    });

    it("GET /api/upload/200x200/{avatar} once the variant is made", async () => {
      const path = `/api/upload/200x200/${avatar}`;
      // The first request makes the variant: only Next does that.
      expect((await fastServer.get(path)).status).toBe(HANDED_TO_NEXT);
      const made = await api.get(path);
      expect(made.status).toBe(200);
      await expectSameAsRouteHandler(await fastServer.get(path), path);
    });

    it("GET /api/upload/200x200/{avatar} in the format the Accept header picks (ADR 015)", async () => {
      const path = `/api/upload/200x200/${avatar}`;
      const accept = "image/avif,image/webp,*/*";
      expect((await fastServer.get(path, { accept })).status).toBe(HANDED_TO_NEXT);
      const made = await call("GET", path, { headers: { accept } });
      expect(made.headers.get("content-type")).toBe("image/avif");
      const fast = await fastServer.get(path, { accept });
      expect(fast.status).toBe(200);
      expect(fast.headers["content-type"]).toBe("image/avif");
      expect(fast.headers.vary).toBe("Accept");
      expect(fast.body.equals(made.bytes)).toBe(true);
      // A browser without AVIF or WebP still gets the PNG, never the AVIF.
      expect(
        (await fastServer.get(path, { accept: "image/png,*/*" })).headers["content-type"],
      ).toBe("image/png");
      await getStorage().delete(variantKey("200x200", avatar, "avif"));
    });

    it("keeps the API security headers, HSTS only over https", async () => {
      const path = `/api/published/${treeId}`;
      const plain = await fastServer.get(path);
      expect(plain.headers["content-security-policy"]).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(plain.headers["x-frame-options"]).toBe("DENY");
      expect(plain.headers["strict-transport-security"]).toBeUndefined();
      const https = await fastServer.get(path, { "x-forwarded-proto": "https" });
      expect(https.headers["strict-transport-security"]).toContain("max-age=");
    });

    it("echoes the caller's request id", async () => {
      const fast = await fastServer.get(`/api/published/${treeId}`, { "x-request-id": "trace-42" });
      expect(fast.headers["x-request-id"]).toBe("trace-42");
    });

    it("gzips a large answer when the client accepts it", async () => {
      const path = `/api/trees/${treeId}`;
      const auth = { authorization: `Bearer ${owner.token}` };
      const plain = await fastServer.get(path, auth);
      const zipped = await fastServer.get(path, { ...auth, "accept-encoding": "gzip, br" });
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(zipped.headers["content-encoding"]).toBe("gzip");
      expect(zipped.headers.vary).toBe("Accept-Encoding");
      expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    });

    it("reads the generated secret from the database when JWT_SECRET is unset", async () => {
      const key = "jwt_secret";
      const before = await db.setting.findUnique({ where: { key } });
      const { server, get } = await startFastServer({ jwtSecret: undefined });
      try {
        const path = `/api/trees/${treeId}`;
        const auth = { authorization: `Bearer ${owner.token}` };
        if (!before) expect((await get(path, auth)).status).toBe(HANDED_TO_NEXT);
        // The tokens here are signed with JWT_SECRET (or, without it, the generated secret already
        // stored): store it as the generated secret.
        const secret = getEnv().JWT_SECRET ?? before!.value;
        await db.setting.upsert({
          where: { key },
          create: { key, value: secret },
          update: { value: secret },
        });
        const { server: second, get: getSecond } = await startFastServer({ jwtSecret: undefined });
        try {
          expect((await getSecond(path, auth)).status).toBe(200);
        } finally {
          second.close();
        }
      } finally {
        server.close();
        if (before) await db.setting.update({ where: { key }, data: { value: before.value } });
        else await db.setting.delete({ where: { key } });
      }
    });
  });

  describe("the fast read path hands to Next", () => {
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    it.each<[string, () => [string, Record<string, string>?, string?]]>([
      ["no token", () => [`/api/trees/${treeId}`]],
      ["a forged token", () => [`/api/trees/${treeId}`, bearer(`${owner.token.slice(0, -2)}xx`)]],
      ["a token that is not a JWT", () => [`/api/trees/${treeId}`, bearer("plumbob")]],
      ["someone else's tree", () => [`/api/trees/${treeId}`, bearer(stranger.token)]],
      ["someone else's people", () => [`/api/people?tree=${treeId}`, bearer(stranger.token)]],
      [
        "someone else's canvas tree",
        () => [`/api/trees/${treeId}?fields=canvas`, bearer(stranger.token)],
      ],
      ["another fields value", () => [`/api/trees/${treeId}?fields=bio`, bearer(owner.token)]],
      [
        "a canvas query with more",
        () => [`/api/trees/${treeId}?fields=canvas&x=1`, bearer(owner.token)],
      ],
      ["a missing tree", () => [`/api/trees/${randomUUID()}`, bearer(owner.token)]],
      ["a tree that is not published", () => [`/api/published/${randomUUID()}`]],
      ["an id too long to be one", () => [`/api/trees/${"a".repeat(65)}`, bearer(owner.token)]],
      ["a percent-encoded id", () => [`/api/trees/%41${treeId}`, bearer(owner.token)]],
      ["a trailing slash", () => [`/api/trees/${treeId}/`, bearer(owner.token)]],
      ["a people query with more", () => [`/api/people?tree=${treeId}&x=1`, bearer(owner.token)]],
      ["a people query without a tree", () => ["/api/people", bearer(owner.token)]],
      ["a size that is not served", () => [`/api/upload/300x300/${avatar}`]],
      ["an original", () => [`/api/upload/orig/${avatar}`]],
      ["a variant not made yet", () => [`/api/upload/600x320/${avatar}`]],
      ["a path that climbs", () => [`/api/upload/200x200/avatar/../../x.png`]],
      ["HEAD", () => [`/api/trees/${treeId}`, bearer(owner.token), "HEAD"]],
      ["another route", () => ["/api/version"]],
    ])("for %s", async (_name, request) => {
      const [path, headers, method] = request();
      const answer = await fastServer.get(path, headers, method);
      expect(answer.status).toBe(HANDED_TO_NEXT);
    });

    it("for a token whose session was revoked (password changed elsewhere)", async () => {
      const user = await createUser();
      const tree = await createTree(user.token);
      const path = `/api/trees/${tree._id}`;
      expect((await fastServer.get(path, bearer(user.token))).status).toBe(200);
      await db.session.deleteMany({ where: { userId: user.username } });
      expect((await fastServer.get(path, bearer(user.token))).status).toBe(HANDED_TO_NEXT);
      await db.user.delete({ where: { id: user.username } });
    });

    it("for a deleted tree", async () => {
      const user = await createUser();
      const tree = await createTree(user.token);
      const path = `/api/trees/${tree._id}`;
      expect((await fastServer.get(path, bearer(user.token))).status).toBe(200);
      expect((await api.delete(path, undefined, { token: user.token })).status).toBe(200);
      expect((await fastServer.get(path, bearer(user.token))).status).toBe(HANDED_TO_NEXT);
      await db.user.delete({ where: { id: user.username } });
    });

    it("when the database fails, leaving the request for Next", async () => {
      const broken: FrontDb = {
        engine: "postgresql",
        query: () =>
          Promise.reject(Object.assign(new Error("terminating connection"), { code: "57P01" })),
      };
      const { server, get } = await startFastServer({ db: broken });
      try {
        expect((await get(`/api/published/${treeId}`)).status).toBe(HANDED_TO_NEXT);
      } finally {
        server.close();
      }
    });
  });

  describe("matchFastRead", () => {
    it("takes GETs of the four hot routes only", () => {
      expect(matchFastRead("GET", "/api/trees/abc")).toEqual({ kind: "tree", treeId: "abc" });
      expect(matchFastRead("GET", "/api/trees/abc?x=1")).toEqual({ kind: "tree", treeId: "abc" });
      expect(matchFastRead("GET", "/api/trees/abc?fields=canvas")).toEqual({
        kind: "treeCanvas",
        treeId: "abc",
      });
      expect(matchFastRead("GET", "/api/trees/abc?fields=bio")).toBeNull();
      expect(matchFastRead("GET", "/api/trees/abc?x=1&fields")).toBeNull();
      expect(matchFastRead("GET", "/api/trees/abc?subfields=1")).toEqual({
        kind: "tree",
        treeId: "abc",
      });
      expect(matchFastRead("GET", "/api/people?tree=abc")).toEqual({
        kind: "people",
        treeId: "abc",
      });
      expect(matchFastRead("GET", "/api/people?tree=abc&fields=canvas")).toEqual({
        kind: "canvas",
        treeId: "abc",
      });
      expect(matchFastRead("GET", "/api/people?tree=abc&fields=all")).toBeNull();
      // The public reads (public-pages.ts) answer it, from the publication's kept JSON.
      expect(matchFastRead("GET", "/api/published/abc")).toBeNull();
      expect(matchFastRead("GET", "/api/upload/100x100/cover/x.jpeg")).toEqual({
        kind: "image",
        size: "100x100",
        name: "cover/x.jpeg",
      });
      expect(matchFastRead("PATCH", "/api/trees/abc")).toBeNull();
      expect(matchFastRead("GET", "/api/trees/abc/export")).toBeNull();
      expect(matchFastRead("GET", "/api/published/abc/og")).toBeNull();
      expect(matchFastRead("GET", "/trees/abc")).toBeNull();
    });
  });

  describe("the cached tree and people bodies", () => {
    const gzipped = (token: string) => ({
      authorization: `Bearer ${token}`,
      "accept-encoding": "gzip",
    });
    let user: TestUser;
    let tree: string;
    let person: string;
    let cached: Awaited<ReturnType<typeof startFastServer>>;
    /** The names of the statements the cached server's pool ran, in order. */
    const statements: string[] = [];
    /** How many chunks each of its reads of the editor's tree head read with it. */
    const chunksRead: number[] = [];

    beforeAll(async () => {
      user = await createUser();
      tree = (await createTree(user.token, { title: "Cached Legacy" }))._id;
      const ids = await insertPeople(tree, 30);
      person = ids[0]!;
      const saved = await api.patch(
        `/api/trees/${tree}`,
        { data: buildLegacy(ids, { nodes: 20 }) },
        { token: user.token },
      );
      expect(saved.status).toBe(200);
      const real = makeDb();
      const recording: FrontDb = {
        engine: real.engine,
        async query<Row extends Record<string, unknown>>(
          name: string,
          text: string,
          values: readonly unknown[],
        ) {
          // The generated secret (without JWT_SECRET) is read once per process, not per request.
          if (name !== "jwt_secret") statements.push(`heirloom_${name}`);
          const rows = await real.query<Row>(name, text, values);
          if (name.startsWith("tree_canvas_head")) {
            chunksRead.push(rows.filter((row) => row.key !== null).length);
          }
          return rows;
        },
      };
      cached = await startFastServer({ db: recording });
    });

    afterAll(async () => {
      cached.server.close();
      await db.user.delete({ where: { id: user.username } });
    });

    const CANVAS_BODIES = new Set([
      "heirloom_tree_canvas_json",
      "heirloom_tree_canvas_head",
      "heirloom_tree_canvas_head_ids",
      "heirloom_tree_canvas_people_part",
    ]);
    /**
     * A read the cache could not answer: the generations, then the body's statement; for the
     * editor's tree, its head and what it does not keep (its people, chunks), or the whole.
     */
    function expectFresh(statements: string[], path: string, what?: string) {
      expect(statements[0], what).toBe("heirloom_tree_generations");
      const bodies = statements.slice(1);
      if (path.startsWith("/api/trees/") && path.endsWith("?fields=canvas")) {
        expect(bodies.length, what).toBeGreaterThanOrEqual(1);
        expect(bodies.length, what).toBeLessThanOrEqual(3);
        for (const name of bodies) expect(CANVAS_BODIES.has(name), `${what}: ${name}`).toBe(true);
      } else {
        expect(bodies, what).toHaveLength(1);
      }
    }

    /** A gzipped fast read, checked byte for byte (once unzipped) against the route handler. */
    async function read(path: string) {
      statements.length = 0;
      const fast = await cached.get(path, gzipped(user.token));
      expect(fast.status).toBe(200);
      expect(fast.headers["content-encoding"]).toBe("gzip");
      const handler = await api.get(path, { token: user.token });
      expect(gunzipSync(fast.body).equals(handler.bytes)).toBe(true);
      expect(fast.headers.etag).toBe(handler.headers.get("etag") ?? undefined);
      return { fast, statements: [...statements] };
    }

    it("answers a repeat read from the cache, after one small query", async () => {
      for (const path of [
        `/api/trees/${tree}`,
        `/api/trees/${tree}?fields=canvas`,
        `/api/people?tree=${tree}`,
        `/api/people?tree=${tree}&fields=canvas`,
      ]) {
        const first = await read(path);
        expectFresh(first.statements, path);
        const again = await read(path);
        expect(again.statements).toEqual(["heirloom_tree_generations"]);
        expect(again.fast.body.equals(first.fast.body)).toBe(true);
      }
    });

    it("answers fresh after every kind of write", async () => {
      const treePath = `/api/trees/${tree}`;
      const canvasPath = `/api/trees/${tree}?fields=canvas`;
      const peoplePath = `/api/people?tree=${tree}`;
      const writes: [string, () => Promise<{ status: number }>, string][] = [
        [
          "a structure save",
          () =>
            api.patch(
              treePath,
              { data: buildLegacy([person], { nodes: 3 }) },
              { token: user.token },
            ),
          treePath,
        ],
        [
          "a title change",
          () => api.patch(treePath, { title: "Renamed Legacy" }, { token: user.token }),
          treePath,
        ],
        [
          "a structure save, for the editor's answer",
          () =>
            api.patch(
              treePath,
              { data: buildLegacy([person], { nodes: 4 }) },
              { token: user.token },
            ),
          canvasPath,
        ],
        [
          "a new person",
          () => api.post("/api/people", { tree, firstName: "Newly" }, { token: user.token }),
          peoplePath,
        ],
        [
          // the editor's answer holds the canvas people
          "a new person, for the editor's answer",
          () => api.post("/api/people", { tree, firstName: "Newer" }, { token: user.token }),
          canvasPath,
        ],
        [
          "a person's edit",
          () => api.put(`/api/people/${person}`, { firstName: "Edited" }, { token: user.token }),
          peoplePath,
        ],
        [
          // the tree's answer gives each reference its person's names (issue 13)
          "a person's rename, for the tree's answer",
          () => api.put(`/api/people/${person}`, { firstName: "Renamed" }, { token: user.token }),
          treePath,
        ],
        [
          "a person's rename, for the editor's answer",
          () => api.put(`/api/people/${person}`, { lastName: "Again" }, { token: user.token }),
          canvasPath,
        ],
        [
          "a person's deletion",
          () => api.delete(`/api/people/${person}`, undefined, { token: user.token }),
          peoplePath,
        ],
      ];
      for (const [what, write, path] of writes) {
        const before = await read(path);
        await read(path);
        const written = await write();
        expect(written.status, what).toBeLessThan(300);
        const after = await read(path);
        expectFresh(after.statements, path, what);
        expect(after.fast.body.equals(before.fast.body), what).toBe(false);
      }
    });

    it("reads of the editor's tree only what changed since it last read it, on both engines", async () => {
      // a legacy large enough to be stored in chunks (ADR 037)
      const parted = (await createTree(user.token, { title: "Parted Legacy" }))._id;
      const ids = await insertPeople(parted, 60);
      const whole = buildLegacy(ids, { nodes: 400 });
      expect(
        (await api.patch(`/api/trees/${parted}`, { data: whole }, { token: user.token })).status,
      ).toBe(200);
      const chunks = await db.treeChunk.count({ where: { treeId: parted } });
      expect(chunks).toBeGreaterThan(8);
      const path = `/api/trees/${parted}?fields=canvas`;
      const saves = structureSaves(() => user.token);
      let version = (
        await api.get<{ version: number }>(`/api/trees/${parted}`, { token: user.token })
      ).body.version;
      const patch = async (operations: unknown) => {
        const saved = await saves.sendPatch(parted, operations, `"${version}"`);
        version = saved.body.version;
        return saved;
      };
      // a node deep in the legacy, inside one chunk; the root, in the tree's own row
      const deep = "/data/children/1/children/2/children/0/children/1/hidden";
      const someone = ids[ids.length - 1]!;
      const writes: [string, () => Promise<{ status: number }>, string[], number[]][] = [
        [
          "a rename",
          () => api.put(`/api/people/${someone}`, { firstName: "Kept" }, { token: user.token }),
          ["heirloom_tree_canvas_people_part"],
          [],
        ],
        [
          "a new Sim (last in the list: no one moves)",
          () =>
            api.post("/api/people", { tree: parted, firstName: "Newest" }, { token: user.token }),
          ["heirloom_tree_canvas_people_part"],
          [],
        ],
        [
          "a structure save at the root (no chunk changed)",
          () => patch([{ op: "replace", path: "/data/hidden", value: true }]),
          ["heirloom_tree_canvas_head"],
          [0],
        ],
        [
          "a structure save deep in the legacy (one chunk changed)",
          () => patch([{ op: "replace", path: deep, value: true }]),
          ["heirloom_tree_canvas_head"],
          [1],
        ],
        [
          "a title change",
          () => api.patch(`/api/trees/${parted}`, { title: "Parts Kept" }, { token: user.token }),
          ["heirloom_tree_canvas_head"],
          [0],
        ],
        [
          "a whole new structure (every chunk new)",
          () => saves.sendWhole(parted, buildLegacy(ids, { nodes: 380 })),
          ["heirloom_tree_canvas_head"],
          [-1],
        ],
        [
          "a person's deletion (the people move, the structure is written anew)",
          () => api.delete(`/api/people/${ids[0]}`, undefined, { token: user.token }),
          ["heirloom_tree_canvas_head_ids", "heirloom_tree_canvas_people_part"],
          [-1],
        ],
      ];
      await read(path);
      for (const [what, write, bodies, keys] of writes) {
        const before = await read(path);
        const written = await write();
        expect(written.status, what).toBeLessThan(300);
        chunksRead.length = 0;
        // read() compares the answer byte for byte with the route handler's
        const after = await read(path);
        expect(after.statements[0], what).toBe("heirloom_tree_generations");
        expect(after.statements.slice(1).sort(), what).toEqual(bodies);
        const stored = await db.treeChunk.count({ where: { treeId: parted } });
        // -1: every chunk stored
        expect(chunksRead, what).toEqual(keys.map((count) => (count === -1 ? stored : count)));
        expect(after.fast.body.equals(before.fast.body), what).toBe(false);
      }
      // without gzip no body is cached, but the parts are kept: the head alone
      const plainRead = async () => {
        statements.length = 0;
        const plain = await cached.get(path, { authorization: `Bearer ${user.token}` });
        expect(plain.status).toBe(200);
        expect(plain.body.equals((await api.get(path, { token: user.token })).bytes)).toBe(true);
        return [...statements].sort();
      };
      expect(await plainRead()).toEqual(["heirloom_tree_canvas_head"]);
      const renamed = await api.put(
        `/api/people/${someone}`,
        { lastName: "Plain" },
        {
          token: user.token,
        },
      );
      expect(renamed.status).toBe(200);
      expect(await plainRead()).toEqual([
        "heirloom_tree_canvas_head",
        "heirloom_tree_canvas_people_part",
      ]);
      // a gzipped body of that generation was never made, but every part is kept at it
      expect((await read(path)).statements).toEqual(["heirloom_tree_generations"]);
    });

    it("answers a real imported genealogy's tree from its kept parts as the route handler does", async () => {
      // gedcom4j's sample 3 (4,578 people, the genealogy): an import's own chunk layout,
      // a root of hundreds of children, which the built legacies above do not have
      const gedcom = gunzipSync(
        fs.readFileSync(nodePath.resolve("../shared/data/gedcom-corpus/gedcom4j-sample3.ged.gz")),
      );
      const imported = await call<{ tree: { _id: string } }>("POST", "/api/trees/import", {
        token: user.token,
        rawBody: new Uint8Array(gedcom),
        headers: { "content-type": "application/octet-stream" },
      });
      expect(imported.status).toBe(201);
      const genealogy = imported.body.tree._id;
      // an import writes the structure as one value; its first save stores it in chunks
      expect(await db.treeChunk.count({ where: { treeId: genealogy } })).toBe(0);
      // An import dates its Sims a millisecond apart from its start, in their order (up to 4.6 s
      // ahead of the clock here): as an import an hour old, so that a new Sim sorts after them.
      await db.$executeRawUnsafe(
        `UPDATE "Person" SET "createdAt" = "createdAt" - interval '1 hour' WHERE "treeId" = $1`,
        genealogy,
      );
      const canvas = `/api/trees/${genealogy}?fields=canvas`;
      const saves = structureSaves(() => user.token);
      type Node = { person?: { _id: string }; children: Node[] };
      const current = async () =>
        (
          await api.get<{ data: Node; version: number }>(`/api/trees/${genealogy}`, {
            token: user.token,
          })
        ).body;
      /** The pointer of the node `depth` levels down the first child with children, each time. */
      const deepPointer = (root: Node, depth: number) => {
        let at = "/data";
        let node = root;
        for (let level = 0; level < depth; level += 1) {
          const next = node.children.findIndex((child) => child.children.length > 0);
          if (next === -1) break;
          at += `/children/${next}`;
          node = node.children[next]!;
        }
        return at;
      };
      const first = await read(canvas);
      expect(first.statements).toContain("heirloom_tree_canvas_head_ids");
      expect(chunksRead.at(-1)).toBe(0);

      const before = await current();
      const someone = before.data.children[0]?.person?._id ?? before.data.person!._id;
      const addDeep = async () => {
        const tree = await current();
        return saves.sendPatch(
          genealogy,
          [
            {
              op: "add",
              path: `${deepPointer(tree.data, 4)}/children/-`,
              value: { person: { _id: someone }, children: [] },
            },
          ],
          `"${tree.version}"`,
        );
      };
      let chunks = 0;
      const writes: [string, () => Promise<{ status: number }>, (statements: string[]) => void][] =
        [
          [
            "the first save after the import (every chunk new)",
            addDeep,
            () => {
              expect(chunks).toBeGreaterThan(8);
              expect(chunksRead.at(-1)).toBe(chunks);
            },
          ],
          [
            "a rename",
            () =>
              api.put(`/api/people/${someone}`, { firstName: "Renamed" }, { token: user.token }),
            (statements) => expect(statements).toContain("heirloom_tree_canvas_people_part"),
          ],
          [
            "a child added deep in the genealogy",
            addDeep,
            (statements) => {
              expect(statements).toContain("heirloom_tree_canvas_head");
              expect(chunksRead.at(-1)).toBeLessThanOrEqual(2);
            },
          ],
          [
            "a new Sim",
            () =>
              api.post(
                "/api/people",
                { tree: genealogy, firstName: "Newest" },
                { token: user.token },
              ),
            (statements) => expect(statements).toContain("heirloom_tree_canvas_people_part"),
          ],
          [
            // their references leave the structure, which is written anew: every chunk
            "a Sim deleted (everyone after them moves)",
            () => api.delete(`/api/people/${someone}`, undefined, { token: user.token }),
            (statements) => {
              expect(statements).toContain("heirloom_tree_canvas_head_ids");
              expect(chunksRead.at(-1)).toBe(chunks);
            },
          ],
        ];
      for (const [what, write, expectRead] of writes) {
        expect((await write()).status, what).toBeLessThan(300);
        chunks = await db.treeChunk.count({ where: { treeId: genealogy } });
        const { statements: ran } = await read(canvas);
        expect(ran, what).not.toContain("heirloom_tree_canvas_json");
        expectRead(ran);
        // and again, from what was kept
        await read(canvas);
      }
    });

    it("answers the editor's tree from its kept parts as the route handler does, through random edits", async () => {
      const random = createRandom(23);
      const below = (n: number) => Math.floor(random() * n);
      const walked = (await createTree(user.token, { title: "Walked Legacy" }))._id;
      let people = await insertPeople(walked, 40);
      const saves = structureSaves(() => user.token);
      expect((await saves.sendWhole(walked, buildLegacy(people, { nodes: 300 }))).status).toBe(200);
      const path = `/api/trees/${walked}?fields=canvas`;
      type Node = { children: Node[] };
      /** Every node's JSON Pointer in the structure, the root's first. */
      const pointers = (node: Node, at = "/data"): string[] => [
        at,
        ...node.children.flatMap((child, i) => pointers(child, `${at}/children/${i}`)),
      ];
      const edits: (() => Promise<{ status: number }>)[] = [];
      const structureEdit = async () => {
        const tree = (
          await api.get<{ data: Node; version: number }>(`/api/trees/${walked}`, {
            token: user.token,
          })
        ).body;
        const all = pointers(tree.data);
        const at = all[below(all.length)]!;
        const kind = below(3);
        const ops =
          kind === 0 || at === "/data"
            ? [
                {
                  op: "add",
                  path: `${at}/children/-`,
                  value: buildLegacy([people[below(people.length)]!], { nodes: 1 + below(30) }),
                },
              ]
            : kind === 1
              ? [{ op: "remove", path: at }]
              : [{ op: "replace", path: `${at}/hidden`, value: random() < 0.5 }];
        return saves.sendPatch(walked, ops, `"${tree.version}"`);
      };
      edits.push(
        structureEdit,
        structureEdit,
        structureEdit,
        () =>
          api.put(
            `/api/people/${people[below(people.length)]}`,
            { firstName: `Walked ${below(1000)}` },
            { token: user.token },
          ),
        async () => {
          const made = await api.post<{ _id: string }>(
            "/api/people",
            { tree: walked, firstName: "Walker" },
            { token: user.token },
          );
          people = [...people, made.body._id];
          return made;
        },
        async () => {
          const gone = people[below(people.length)]!;
          people = people.filter((id) => id !== gone);
          return api.delete(`/api/people/${gone}`, undefined, { token: user.token });
        },
        async () => {
          // a Sim that sorts first (an import's older date): every position moves, and the
          // structure is not written
          const early = await db.person.create({
            data: { treeId: walked, firstName: "Early", createdAt: new Date(below(1e12)) },
          });
          people = [...people, early.id];
          return { status: 200 };
        },
        async () => {
          // a Sim gone behind the app's back, its references left to nobody, then back with its
          // id, last in the list: the old list leads the new one, and those references resolve
          const gone = people[below(people.length)]!;
          const row = await db.person.delete({ where: { id: gone } });
          await read(path);
          // a read without gzip (never from the body cache) keeps the parts of that list
          const plain = await cached.get(path, { authorization: `Bearer ${user.token}` });
          expect(plain.body.equals((await api.get(path, { token: user.token })).bytes)).toBe(true);
          await db.person.create({
            data: { id: row.id, treeId: walked, firstName: row.firstName, lastName: row.lastName },
          });
          return { status: 200 };
        },
      );
      for (let step = 0; step < 40; step += 1) {
        const edit = edits[below(edits.length)]!;
        expect((await edit()).status, `step ${step}`).toBeLessThan(300);
        // read() compares the answer byte for byte with the route handler's
        await read(path);
        if (random() < 0.3) await read(path);
      }
    });

    it("still checks the owner and the session on every read", async () => {
      const path = `/api/people?tree=${tree}`;
      await read(path);
      await read(path);
      expect((await cached.get(path, gzipped(stranger.token))).status).toBe(HANDED_TO_NEXT);
      await db.session.deleteMany({ where: { userId: user.username } });
      expect((await cached.get(path, gzipped(user.token))).status).toBe(HANDED_TO_NEXT);
    });

    it("hands a deleted tree to Next, cached or not", async () => {
      const other = await createUser();
      const otherTree = (await createTree(other.token))._id;
      await insertPeople(otherTree, 30);
      const path = `/api/people?tree=${otherTree}`;
      expect((await cached.get(path, gzipped(other.token))).status).toBe(200);
      expect((await cached.get(path, gzipped(other.token))).status).toBe(200);
      expect(
        (await api.delete(`/api/trees/${otherTree}`, undefined, { token: other.token })).status,
      ).toBe(200);
      expect((await cached.get(path, gzipped(other.token))).status).toBe(HANDED_TO_NEXT);
      await db.user.delete({ where: { id: other.username } });
    });
  });
}
