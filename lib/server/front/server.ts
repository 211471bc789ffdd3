// The production server: Next's request handler behind node:http, so that the client address
// comes from the socket (not a header anyone can send) and PGlite is closed cleanly on exit.
import { randomUUID } from "node:crypto";
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import next from "next";
import { getEnv } from "@/lib/env";
import { LOCALE_COOKIE } from "@/lib/i18n/locales";
import { createFastReads } from "./fast-reads";
import { createStaticAssets } from "./static-assets";
import { pgFrontDb, pgliteFrontDb, type FrontDb } from "./front-db";
import { getPgPool } from "./pg-pool";
import { getPglite, processPglite } from "./pglite";
import { createPublicPages, RENDER_HEADER, type RenderedPage } from "./public-pages";
import { createGalleryFront } from "./gallery";
import {
  existingViewCounter,
  processViewCounter,
  VIEW_COUNT_FLUSH_SQL,
  ViewCounter,
} from "../published/view-counter";
import { processLogger } from "./process-logger";
import { processSingleton } from "./process-singletons";
import { answerClientError, answerConnect, answerUnsupportedMethod } from "./methods";
import { startAdminSocket } from "./admin-socket";
import { listenOn } from "./listen";
import { resolveClientAddress } from "@/lib/client-address";

/** How long an idle keep-alive connection is kept open. */
export const KEEP_ALIVE_MS = 65_000;
/** How long a connection whose request body was left unread stays open after the answer. */
const UNREAD_BODY_LINGER_MS = 1_000;

export async function startServer(options: { dev?: boolean } = {}) {
  const env = getEnv();
  const app = next({ dev: options.dev ?? false, port: env.PORT, hostname: "0.0.0.0" });
  await app.prepare();
  const handle = app.getRequestHandler();
  // One data-access seam for both engines (front-db.ts, ADR 023): PostgreSQL's pool, or the
  // process's one PGlite, which the start script opened and Prisma's adapter in Next shares.
  const frontDb: FrontDb = env.DATABASE_URL
    ? pgFrontDb(getPgPool(env.DATABASE_URL))
    : pgliteFrontDb(getPglite(env.PGLITE_DIR, { port: env.PORT }));
  // The hot reads skip Next's router (ADR 010).
  const fastReads = env.FAST_READS
    ? createFastReads({
        db: frontDb,
        jwtSecret: env.JWT_SECRET,
        // Images on local disk only; Next serves those kept in Vercel Blob or an S3 bucket.
        uploadsDir: env.BLOB_READ_WRITE_TOKEN || env.S3_BUCKET ? undefined : env.UPLOADS_DIR,
        logger: processLogger(),
      })
    : null;
  /**
   * The client's address (view count, Gallery search limit, and every limit in Next through the
   * header toNext writes): the socket's, or the right-most X-Forwarded-For hop that is not one of
   * the trusted proxies (TRUST_PROXY, lib/client-address.ts). Resolved once per request.
   */
  const clients = new WeakMap<IncomingMessage, string>();
  const addressOf = (req: IncomingMessage) => {
    let client = clients.get(req);
    if (client === undefined) {
      const forwarded = req.headers["x-forwarded-for"];
      client = resolveClientAddress(req.socket.remoteAddress, forwarded, env.TRUST_PROXY);
      clients.set(req, client);
    }
    return client;
  };
  // Published trees from memory (ADR 014): each page is rendered by Next once per publication,
  // through a request to this very server that carries a secret only this process knows.
  const renderSecret = randomUUID();
  // `locale`: the Gallery's pages are kept per language (gallery.ts), rendered in it through the
  // cookie Next's request config reads; a public page is rendered without one.
  const renderPage = (pagePath: string, locale?: string) =>
    new Promise<RenderedPage>((resolve, reject) => {
      const ask = request(
        {
          host: "127.0.0.1",
          port: env.PORT,
          path: pagePath,
          headers: {
            [RENDER_HEADER]: renderSecret,
            "accept-encoding": "identity",
            ...(locale ? { cookie: `${LOCALE_COOKIE}=${locale}` } : {}),
          },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("error", reject);
          answer.on("end", () =>
            resolve({
              status: answer.statusCode ?? 500,
              headers: answer.headers,
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      ask.on("error", reject);
      ask.end();
    });
  const publicPages = env.FAST_READS
    ? createPublicPages({
        db: frontDb,
        render: renderPage,
        renderSecret,
        addressOf,
        views: processViewCounter(
          () =>
            new ViewCounter(
              async (treeIds, counts) => {
                await frontDb.query("view_counts", VIEW_COUNT_FLUSH_SQL, [treeIds, counts]);
              },
              (error) =>
                processLogger().error({ err: error }, "could not write public view counts"),
            ),
        ),
        logger: processLogger(),
      })
    : null;
  // The Gallery's listing and pages from memory (ADR 028), rendered with the public pages'
  // renderer, on both engines.
  const galleryPages = options.dev
    ? null
    : createGalleryFront({
        db: env.FAST_READS ? frontDb : null,
        render: renderPage,
        renderSecret,
        clientAddress: addressOf,
        logger: processLogger(),
      });
  const toNext = (req: IncomingMessage, res: ServerResponse) => {
    // Next's handlers read the client as the only hop (http.ts clientIp), whatever was sent.
    req.headers["x-forwarded-for"] = addressOf(req);
    void handle(req, res);
  };
  // Built assets from memory, compressed once (lib/server/static-assets.ts); `next dev` serves
  // its own.
  const staticAssets = options.dev
    ? null
    : createStaticAssets(path.join(process.env.HEIRLOOM_DIST_DIR || ".next", "static"));
  const inFront = async (req: IncomingMessage, res: ServerResponse) =>
    (await answerUnsupportedMethod(req, res, env.PORT)) ||
    ((await staticAssets?.(req, res)) ?? false) ||
    ((await publicPages?.(req, res)) ?? false) ||
    ((await galleryPages?.(req, res)) ?? false) ||
    ((await fastReads?.(req, res)) ?? false);
  const server = createServer((req, res) => {
    // An answer given before the body was read (413, 503, 401 to a large upload): Node would go on
    // receiving the rest of the body to discard it, so a refused 150 MB import still cost 150 MB
    // of transfer. A body still arriving a moment after the answer closes the connection (the
    // client has read the answer by then); a small one is discarded and the connection kept.
    res.once("finish", () => {
      if (req.complete) return;
      // Node discards what is left of the body; a small one is done long before the timer, and
      // the connection stays open for the client's next request (a keep-alive save after a 503).
      req.resume();
      setTimeout(() => {
        if (!req.complete) req.socket.destroy();
      }, UNREAD_BODY_LINGER_MS).unref();
    });
    inFront(req, res).then(
      (answered) => {
        if (!answered) toNext(req, res);
      },
      (error: unknown) => {
        processLogger().error({ err: error }, "answer in front of Next failed");
        if (res.headersSent) res.destroy();
        else toNext(req, res);
      },
    );
  });
  // Node closes idle keep-alive connections after 5 s; a client or proxy that reuses one just then
  // gets EPIPE/ECONNRESET on a request the app never saw. Outlive the usual proxy idle timeouts
  // (60 s) instead, so the client side always closes first.
  server.on("connect", answerConnect(env.PORT));
  server.on("clientError", answerClientError(env.PORT));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  // `npm run backup` asks the process holding the embedded database, over a local socket (ADR 033).
  const adminSocket = env.DATABASE_URL
    ? null
    : await startAdminSocket({
        env,
        pglite: () => getPglite(env.PGLITE_DIR, { port: env.PORT }),
        logger: processLogger(),
      });
  try {
    await listenOn(server, env.PORT);
  } catch (error) {
    // Not serving (#32 finding 8): the caller ends the process, which gives the database back.
    await adminSocket?.close();
    throw error;
  }
  console.log(`Heirloom is serving ${env.APP_URL} on port ${env.PORT}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing`);
    server.close();
    server.closeAllConnections();
    void adminSocket?.close();
    const db = processSingleton("__heirloomDb");
    // The views counted since the last batch are written before the database goes (ADR 014);
    // the embedded database is closed last, so that its folder is left clean.
    void Promise.resolve(existingViewCounter()?.close())
      .catch(() => undefined)
      .then(() => db?.$disconnect())
      .catch(() => undefined)
      .then(() => processPglite()?.close())
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return server;
}
