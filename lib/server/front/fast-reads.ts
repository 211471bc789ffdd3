// The fast read path: the hot owner GETs answered in front of Next's router (ADR 010), on both
// engines through the data-access seam (front-db.ts, ADR 023). GET /api/published/{id} is
// answered with the public pages (public-pages.ts), from the publication's cached body.
//
// Next's request pipeline costs about 2.5 ms of CPU per API request before a handler runs, five
// times what the whole read costs on node:http. The production server (scripts/server.ts) hands
// each request here first. A request is answered here only when the answer is a 200 that the route
// handler would give too: the same SQL text (lib/server/sql/reads.ts), the same token check, the
// same headers and request log. Anything else (no or a bad token, someone else's or a missing
// tree, an odd query, a database error) returns false untouched, and Next's route handler answers
// it, so every error keeps its one implementation. Loaded outside Next's bundle: no "server-only"
// module may be imported here.
import fs from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Logger } from "pino";
import { imageName, objectId } from "@/lib/schemas/common";
import { IMAGE_SIZES } from "@/lib/schemas/upload";
import { JWT_SECRET_SETTING, verifyTokenWith } from "../auth/verify";
import { requestIdFrom } from "../http/request-id";
import { acceptsGzip } from "./accept-encoding";
import { apiHeadersFor } from "./api-headers";
import { BodyCache } from "./body-cache";
import { createCanvasReader, type KnownTree } from "./canvas-read";
import type { FrontDb } from "./front-db";
import {
  PEOPLE_CANVAS_JSON_FOR_SESSION_SQL,
  PEOPLE_JSON_FOR_SESSION_SQL,
  TREE_CANVAS_JSON_FOR_SESSION_SQL,
  TREE_GENERATIONS_FOR_SESSION_SQL,
  TREE_JSON_FOR_SESSION_SQL,
} from "../sql/reads";
import { contentTypeForKey } from "../storage/content-type";
import { isStorable } from "../storable";
import { treeEtag } from "../trees/etag";
import { withPersonNames } from "../trees/ref-names";
import { IMAGE_HEADERS, negotiateFormat, variantKey } from "../uploads/image-files";

export interface FastReadsOptions {
  /** The data-access seam (front-db.ts): PostgreSQL's pool or the process's PGlite. */
  db: FrontDb;
  /** JWT_SECRET when set; otherwise the secret the app generated and keeps in "Setting". */
  jwtSecret?: string;
  /** Where local disk keeps uploads; unset when they live in Vercel Blob (Next serves those). */
  uploadsDir?: string;
  logger: Logger;
  /** The budget of the cached tree and people bodies, in bytes (default 64 MiB; 0 turns it off). */
  cacheBytes?: number;
}

/** The default budget of the cached bodies: about 160 gzipped people lists of 10,000 Sims. */
export const FAST_READS_CACHE_BYTES = 64 * 2 ** 20;

/** Answers the request and resolves true, or resolves false having touched nothing. */
export type FastReads = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

type Route =
  | { kind: "tree"; treeId: string }
  /** GET /api/trees/{id}?fields=canvas: the tree with its canvas people (ADR 038). */
  | { kind: "treeCanvas"; treeId: string }
  | { kind: "people"; treeId: string }
  /** GET /api/people?tree=&fields=canvas: what the editor's canvas draws (ADR 032). */
  | { kind: "canvas"; treeId: string }
  | { kind: "image"; size: string; name: string };

interface Answer {
  /** JSON text, a body gzipped already (from the cache, or the editor's from its parts), or a file. */
  body: string | Buffer | fs.FileHandle;
  size?: number;
  headers: Record<string, string>;
  /** Where the gzipped body goes in the cache once made. */
  cacheAs?: { key: string; generation: number };
}

// Each id and image name is then checked as the route handler checks it (lib/schemas/common.ts).
const TREE = /^\/api\/trees\/([^/]+)$/;
const PEOPLE_QUERY = /^tree=([^&]+)$/;
const CANVAS_QUERY = /^tree=([^&]+)&fields=canvas$/;
const FIELDS = /(^|&)fields(=|&|$)/;
const IMAGE = /^\/api\/upload\/([^/]+)\/(.+)$/;
const SIZES: ReadonlySet<string> = new Set(IMAGE_SIZES);
const isId = (text: string | undefined): text is string =>
  text !== undefined && objectId.safeParse(text).success;
/** Files up to this size are read whole; larger ones are streamed. */
const SMALL_FILE_BYTES = 256 * 1024;
/** Next compresses answers of 1 KB or more (the `compression` package's threshold). */
const COMPRESS_FROM_BYTES = 1024;
const gzip = promisify(zlib.gzip);
/** Each JSON read's prepared statement's name and text. */
const JSON_READS: Record<"tree" | "treeCanvas" | "people" | "canvas", [string, string]> = {
  tree: ["tree_json", TREE_JSON_FOR_SESSION_SQL],
  treeCanvas: ["tree_canvas_json", TREE_CANVAS_JSON_FOR_SESSION_SQL],
  people: ["people_json", PEOPLE_JSON_FOR_SESSION_SQL],
  canvas: ["people_canvas_json", PEOPLE_CANVAS_JSON_FOR_SESSION_SQL],
};
/** Which fast read a request is, from its raw path and query; null for anything else. */
export function matchFastRead(method: string | undefined, url: string | undefined): Route | null {
  if (method !== "GET" || !url?.startsWith("/api/")) return null;
  const queryAt = url.indexOf("?");
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? "" : url.slice(queryAt + 1);
  let match = TREE.exec(pathname);
  if (isId(match?.[1])) {
    if (query === "fields=canvas") return { kind: "treeCanvas", treeId: match[1] };
    // the route handler reads `fields` alone (any other value is its 400) and ignores the rest
    return FIELDS.test(query) ? null : { kind: "tree", treeId: match[1] };
  }
  if (pathname === "/api/people") {
    match = PEOPLE_QUERY.exec(query);
    if (isId(match?.[1])) return { kind: "people", treeId: match[1] };
    match = CANVAS_QUERY.exec(query);
    return isId(match?.[1]) ? { kind: "canvas", treeId: match[1] } : null;
  }
  match = IMAGE.exec(pathname);
  const [, size = "", name = ""] = match ?? [];
  if (SIZES.has(size) && imageName.safeParse(name).success) return { kind: "image", size, name };
  return null;
}

export function createFastReads(options: FastReadsOptions): FastReads {
  const { db, logger } = options;
  const cacheBytes = options.cacheBytes ?? FAST_READS_CACHE_BYTES;
  const cache = cacheBytes > 0 ? new BodyCache(cacheBytes) : null;
  let secret: Uint8Array | undefined = options.jwtSecret
    ? new TextEncoder().encode(options.jwtSecret)
    : undefined;

  async function jwtSecret(): Promise<Uint8Array | undefined> {
    if (secret) return secret;
    const rows = await db.query<{ value: string }>(
      "jwt_secret",
      `SELECT "value" FROM "Setting" WHERE "key" = $1`,
      [JWT_SECRET_SETTING],
    );
    // None yet: the app generates it (lib/server/auth/secret.ts) on its first sign-in.
    if (rows[0]) secret = new TextEncoder().encode(rows[0].value);
    return secret;
  }

  /**
   * The token's claims (username, session id, account id) when its signature and expiry hold.
   * Whether its session is live and its account the same one is checked by the read's own
   * statement (CURRENT_SESSION in sql/reads.ts).
   */
  async function claimsOf(req: IncomingMessage): Promise<[string, string, string] | null> {
    const match = /^Bearer\s+(\S+)$/i.exec((req.headers.authorization ?? "").trim());
    const key = match?.[1] ? await jwtSecret() : undefined;
    const claims = match?.[1] && key ? await verifyTokenWith(match[1], key) : null;
    return claims && isStorable(claims.username) ? [claims.username, claims.sid, claims.aid] : null;
  }

  /**
   * A named statement: each connection parses and plans it once, not on every request (the
   * planning was about a third of PostgreSQL's work for these one-row reads).
   */
  const query = async <Row extends Record<string, unknown>>(
    name: string,
    text: string,
    values: unknown[],
  ) => ({ rows: await db.query<Row>(name, text, values) });

  interface JsonRow extends Record<string, unknown> {
    json: string;
    names?: string | null;
    version?: number;
    detailsVersion?: number;
    generation: number;
  }

  /**
   * GET /api/trees/{id}?fields=canvas's answer, from the parts this process keeps of the tree and
   * what changed since (canvas-read.ts): half the bodies' budget.
   */
  const readTreeCanvas = createCanvasReader({ db, keepBytes: cacheBytes / 2 });

  const readJson = async (
    kind: keyof typeof JSON_READS,
    treeId: string,
    claims: [string, string, string],
  ) => (await query<JsonRow>(...JSON_READS[kind], [treeId, ...claims])).rows;

  async function read(route: Route, req: IncomingMessage): Promise<Answer | null> {
    const json = { "content-type": "application/json" };
    switch (route.kind) {
      case "tree":
      case "treeCanvas":
      case "people":
      case "canvas": {
        const claims = await claimsOf(req);
        if (!claims) return null;
        const key = `${route.kind}:${route.treeId}`;
        /** What the cache's check read of the tree, once it has. */
        let known: KnownTree | undefined;
        const wantsGzip = acceptsGzip(req);
        // The cache holds gzipped bodies only; a client without gzip gets a fresh answer.
        const cacheable = cache !== null && wantsGzip;
        if (cacheable) {
          // The owner's current session and the tree's current generation, in one small read:
          // the cached body is served only if it was made from this very generation.
          const { rows } = await query<{
            treeBodyGeneration: number;
            peopleGeneration: number;
            version: number;
            detailsVersion: number;
            treeGeneration: number;
          }>("tree_generations", TREE_GENERATIONS_FOR_SESSION_SQL, [route.treeId, ...claims]);
          const current = rows[0];
          if (!current) return null;
          known = {
            treeGeneration: Number(current.treeGeneration),
            peopleGeneration: Number(current.peopleGeneration),
            version: current.version,
            detailsVersion: current.detailsVersion,
          };
          // both tree answers hold the tree and its people (names, or the canvas people)
          const isTree = route.kind === "tree" || route.kind === "treeCanvas";
          const generation = isTree ? current.treeBodyGeneration : current.peopleGeneration;
          const body = cache.get(key, generation);
          if (body) {
            const etag = treeEtag(current.version, current.detailsVersion);
            return { body, headers: isTree ? { ...json, etag } : json };
          }
        }
        if (route.kind === "treeCanvas") {
          const canvas = await readTreeCanvas(route.treeId, claims, known, wantsGzip);
          if (!canvas) return null;
          // getTreeCanvasJson's: references by position in the canvas people sent with it;
          // gzipped from its parts' deflated forms (as send() would gzip it, from 1 KB on)
          const compress =
            wantsGzip &&
            (canvas.json.length >= COMPRESS_FROM_BYTES ||
              Buffer.byteLength(canvas.json) >= COMPRESS_FROM_BYTES);
          return {
            body: compress ? await canvas.gzip() : canvas.json,
            headers: { ...json, etag: treeEtag(canvas.version, canvas.detailsVersion) },
            cacheAs: cacheable ? { key, generation: canvas.generation } : undefined,
          };
        }
        // Each statement answers the JSON text and its generation; the tree also its version.
        const row = (await readJson(route.kind, route.treeId, claims))[0];
        if (!row) return null;
        const cacheAs = cacheable ? { key, generation: row.generation } : undefined;
        if (route.kind === "people" || route.kind === "canvas") {
          return { body: row.json, headers: json, cacheAs };
        }
        return {
          // getTreeJson's answer: references carry the people's current names (issue 13)
          body: withPersonNames(row.json, row.names ?? null),
          headers: { ...json, etag: treeEtag(row.version!, row.detailsVersion!) },
          cacheAs,
        };
      }
      case "image": {
        if (!options.uploadsDir) return null;
        // LocalDiskStorage's file for the variant in the format the Accept header picks (ADR 015):
        // made already, or Next makes it.
        const key = variantKey(route.size, route.name, negotiateFormat(req.headers.accept));
        const file = path.join(options.uploadsDir, key);
        const handle = await fs.open(file, "r").catch(() => null);
        if (!handle) return null;
        const stat = await handle.stat().catch(() => null);
        if (!stat?.isFile()) {
          await handle.close();
          return null;
        }
        // lib/server/uploads/get-image.ts imageResponse
        return {
          body: handle,
          size: stat.size,
          headers: { "content-type": contentTypeForKey(key), ...IMAGE_HEADERS },
        };
      }
    }
  }

  async function send(req: IncomingMessage, res: ServerResponse, answer: Answer, id: string) {
    // lib/server/route.ts run(): the handler's own headers win over the API's.
    const headers: Record<string, string | number> = {
      ...apiHeadersFor(req),
      "cache-control": "no-store",
      ...answer.headers,
      "x-request-id": id,
    };
    if (Buffer.isBuffer(answer.body)) {
      // Gzipped already, from the cache or made so (only a client that accepts gzip is given one).
      if (answer.cacheAs) cache?.set(answer.cacheAs.key, answer.cacheAs.generation, answer.body);
      headers.vary = "Accept-Encoding";
      headers["content-encoding"] = "gzip";
      headers["content-length"] = answer.body.length;
      res.writeHead(200, headers);
      res.end(answer.body);
      return;
    }
    if (typeof answer.body !== "string") {
      headers["content-length"] = answer.size ?? 0;
      res.writeHead(200, headers);
      const file = answer.body;
      if ((answer.size ?? 0) <= SMALL_FILE_BYTES) {
        // A thumbnail (~20 KB): one read costs less than a stream's chunks and ticks.
        const bytes = await file.readFile().finally(() => file.close());
        res.end(bytes);
        return;
      }
      const stream = file.createReadStream();
      stream.on("error", () => res.destroy());
      stream.pipe(res);
      return;
    }
    let body: Buffer = Buffer.from(answer.body);
    if (body.length >= COMPRESS_FROM_BYTES) {
      headers.vary = "Accept-Encoding";
      if (acceptsGzip(req)) {
        // Level 1, off the event loop: a fifth of level 6's CPU for a tenth more bytes.
        body = await gzip(body, { level: 1 });
        headers["content-encoding"] = "gzip";
        if (answer.cacheAs) cache?.set(answer.cacheAs.key, answer.cacheAs.generation, body);
      }
    }
    headers["content-length"] = body.length;
    res.writeHead(200, headers);
    res.end(body);
  }

  return async (req, res) => {
    const route = matchFastRead(req.method, req.url);
    if (!route) return false;
    const started = performance.now();
    let answer: Answer | null;
    try {
      answer = await read(route, req);
    } catch (error) {
      logger.debug({ err: error }, "fast read handed to Next");
      return false;
    }
    if (!answer) return false;
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    await send(req, res, answer, requestId);
    logger.info(
      {
        requestId,
        method: "GET",
        path: (req.url ?? "").split("?", 1)[0],
        status: 200,
        ms: Math.round(performance.now() - started),
        fast: true,
      },
      "request",
    );
    return true;
  };
}
