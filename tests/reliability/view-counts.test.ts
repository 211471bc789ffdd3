// The public pages of the real production server, on both engines (issues 14, 22 and 23, ADR 014,
// 023, 024): the server in front of Next answers /public/{id} from memory with its cache headers,
// ETag and 304 on PostgreSQL and on the embedded default alike; views are counted in memory once
// per reader and written every VIEW_FLUSH_MS, a clean stop (SIGTERM) writes the rest, a crash
// (SIGKILL) loses at most the last interval's; and a stored tree far over the limits is listed in
// bounded pages while the server keeps answering.
import { createHash } from "node:crypto";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LIST_PAGE_ITEMS } from "@/lib/public-tree/list-pages";
import { VIEW_FLUSH_MS } from "@/lib/server/published/view-counter";
import { createTree, request, signUp } from "./support/client";
import {
  AppServer,
  createDatabase,
  dropDatabase,
  ensureBuild,
  pickPort,
  removeTempDirs,
  tempDir,
} from "./support/server";

/**
 * $1 tree id, $2 person id, $3 children, $4 references a row → the published copy's data becomes
 * the hostile tree of issue 22 (255 and 100): a root and $3 children, each node with 100 partner rows of 100 references, 100 parents and 100
 * adoptive parents (about 115 MB of JSONB), built by the database itself.
 */
const HOSTILE_TREE_SQL = `
  WITH ref AS (
    SELECT jsonb_agg(jsonb_build_object('_id', $2::text)) AS refs FROM generate_series(1, $4::int)
  ),
  partner_row AS (SELECT jsonb_build_object('type', 'PARTNER', 'people', refs) AS entry FROM ref),
  partners AS (SELECT jsonb_agg(partner_row.entry) AS rows FROM partner_row, generate_series(1, 100)),
  heavy AS (
    SELECT jsonb_build_object(
      'person', jsonb_build_object('_id', $2::text), 'partners', partners.rows,
      'children', '[]'::jsonb, 'parentType', 'NONE', 'parents', ref.refs,
      'adoptiveParents', ref.refs, 'hidden', false) AS node
    FROM ref, partners
  ),
  kids AS (SELECT jsonb_agg(heavy.node) AS nodes FROM heavy, generate_series(1, $3::int))
  UPDATE "PublishedTree" p
  SET "tree" = jsonb_set(p."tree", '{data}', jsonb_set(heavy.node, '{children}', kids.nodes))
  FROM heavy, kids
  WHERE p."treeId" = $1`;

const ENGINES = [
  { engine: "PostgreSQL", port: pickPort(4_700), database: `heirloom_views_${process.pid}` },
  { engine: "PGlite", port: pickPort(4_950), database: null },
] as const;

beforeAll(() => ensureBuild());
afterAll(() => removeTempDirs());

describe.each(ENGINES)("the production server on $engine", ({ port, database }) => {
  let server: AppServer;
  let base: string;
  let dataDir: string;
  let databaseUrl: string | undefined;

  beforeAll(async () => {
    dataDir = tempDir("views");
    databaseUrl = database ? await createDatabase(database) : undefined;
    server = new AppServer({ port, databaseUrl, dataDir });
    base = server.url;
    await server.start();
  });

  afterAll(async () => {
    await server?.stop();
    if (database) await dropDatabase(database);
  });

  async function viewCount(treeId: string): Promise<number> {
    const answer = await request<{ viewCount: number }>(base, "GET", `/api/published/${treeId}`);
    expect(answer.status).toBe(200);
    return answer.body!.viewCount;
  }

  /** `times` views, each by another reader (another browser), or all by `reader`. */
  async function view(treeId: string, times: number, reader?: string) {
    for (let index = 0; index < times; index += 1) {
      const agent = reader ?? `Reader ${index} ${Math.random()}`;
      const answer = await request(base, "GET", `/public/${treeId}`, {
        headers: { "user-agent": agent },
      });
      expect(answer.status).toBe(200);
    }
  }

  async function publishedTree(title: string) {
    const token = await signUp(base, "views");
    const tree = await createTree(base, token, title);
    const published = await request(base, "PUT", `/api/published/${tree._id}`, { token });
    expect(published.status).toBe(200);
    return { token, tree };
  }

  test("/public/{id} is public with s-maxage, has an ETag, answers 304 and carries no nonce", async () => {
    const { tree } = await publishedTree("Cached Legacy");
    const first = await fetch(`${base}/public/${tree._id}?x=1`);
    const html = await first.text();
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toMatch(/^public, .*s-maxage=\d+/);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${base}/public/${tree._id}?p=someone`, {
      headers: { "if-none-match": etag! },
    });
    expect(again.status).toBe(304);
    // Next's own page, kept: every inline script is allowed by its hash, and no nonce is left.
    const csp = first.headers.get("content-security-policy")!;
    expect(csp).not.toMatch(/nonce/);
    expect(html).not.toMatch(/\snonce="/);
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attributes = "", text = ""]) => !/\ssrc=/.test(attributes) && text !== "",
    );
    expect(inline.length).toBeGreaterThan(0);
    for (const [, , text = ""] of inline) {
      const hash = createHash("sha256").update(text).digest("base64");
      expect(csp).toContain(`'sha256-${hash}'`);
    }
    // The published JSON and the list, from memory too.
    const json = await fetch(`${base}/api/published/${tree._id}`, {
      headers: { "accept-encoding": "gzip;q=0" },
    });
    expect(json.headers.get("content-encoding")).toBeNull();
    expect(((await json.json()) as { _id: string })._id).toBe(tree._id);
    const list = await fetch(`${base}/public/${tree._id}/list?utm=1`);
    expect(list.status).toBe(200);
    expect(list.headers.get("etag")).toMatch(/^"[\w-]+"$/);
  });

  test("one reader's 300 GETs are one view; a clean restart keeps every view; a crash loses at most the last interval's", async () => {
    const { tree } = await publishedTree("Counted Legacy");
    await view(tree._id, 300, "One Reader");
    await view(tree._id, 30);
    await server.stop();
    await server.start();
    expect(await viewCount(tree._id)).toBe(31);

    // Views one interval before the crash are written; the crash may take the last ones with it.
    await view(tree._id, 20);
    await new Promise((resolve) => setTimeout(resolve, VIEW_FLUSH_MS * 1.5));
    await view(tree._id, 10);
    await server.kill("SIGKILL");
    await server.start();
    const afterCrash = await viewCount(tree._id);
    expect(afterCrash).toBeGreaterThanOrEqual(31 + 20);
    expect(afterCrash).toBeLessThanOrEqual(31 + 20 + 10);
  });

  test("lists a stored tree far over the limits in bounded pages, and keeps answering others", async () => {
    const { token, tree } = await publishedTree("Hostile Legacy");
    const made = await request<{ _id: string }>(base, "POST", "/api/people", {
      token,
      body: { tree: tree._id, firstName: "Bella", lastName: "Goth" },
    });
    expect(made.status).toBe(200);
    const person = made.body!;
    const published = await request(base, "PUT", `/api/published/${tree._id}`, { token });
    expect(published.status).toBe(200);
    // Stored as the patch stored it, behind the API's back.
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rowCount } = await client.query(HOSTILE_TREE_SQL, [tree._id, person._id, 255, 100]);
        expect(rowCount).toBe(1);
      } finally {
        await client.end();
      }
    } else {
      // The embedded database is the server's own while it runs: stopped, written, started.
      await server.stop();
      const pglite = new PGlite(path.join(dataDir, "pglite"));
      try {
        const { affectedRows } = await pglite.query(HOSTILE_TREE_SQL, [
          tree._id,
          person._id,
          // The whole issue tree (115 MB) runs this test process's PGlite out of memory as it
          // builds it: rows of 25 references here (29 MB).
          255,
          25,
        ]);
        expect(affectedRows).toBe(1);
      } finally {
        await pglite.close();
      }
      await server.start();
    }
    const list = await fetch(`${base}/public/${tree._id}/list`, {
      signal: AbortSignal.timeout(170_000),
    });
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html.length).toBeLessThan(2_000_000);
    const text = (page: string) => page.replace(/<!-- -->/g, "");
    expect(text(html)).toContain("Page 1 of 2");
    expect(html).toContain(`<meta name="heirloom-list-pages" content="2"/>`);
    const last = await fetch(`${base}/public/${tree._id}/list?page=2`);
    expect(last.status).toBe(200);
    expect(text(await last.text())).toContain("Page 2 of 2");
    expect(LIST_PAGE_ITEMS).toBeLessThan(256);
    // The process lives, and answers another client.
    expect((await request(base, "GET", "/api/version")).status).toBe(200);
    expect(server.running).toBe(true);
  });
});
