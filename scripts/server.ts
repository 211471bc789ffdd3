// The production server: Next's request handler behind node:http, so that the client address
// comes from the socket (not a header anyone can send) and PGlite is closed cleanly on exit.
import { createServer } from "node:http";
import next from "next";
import { getEnv } from "../lib/env";

/** How long an idle keep-alive connection is kept open. */
export const KEEP_ALIVE_MS = 65_000;

type GlobalWithDb = typeof globalThis & { __heirloomDb?: { $disconnect(): Promise<void> } };

export async function startServer(options: { dev?: boolean } = {}) {
  const env = getEnv();
  const app = next({ dev: options.dev ?? false, port: env.PORT, hostname: "0.0.0.0" });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer((req, res) => {
    const socketAddress = req.socket.remoteAddress ?? "unknown";
    if (!env.TRUST_PROXY || !req.headers["x-forwarded-for"]) {
      req.headers["x-forwarded-for"] = socketAddress;
    }
    void handle(req, res);
  });
  // Node closes idle keep-alive connections after 5 s; a client or proxy that reuses one just then
  // gets EPIPE/ECONNRESET on a request the app never saw. Outlive the usual proxy idle timeouts
  // (60 s) instead, so the client side always closes first.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  await new Promise<void>((resolve) => server.listen(env.PORT, resolve));
  console.log(`Heirloom is serving ${env.APP_URL} on port ${env.PORT}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing`);
    server.close();
    server.closeAllConnections();
    const db = (globalThis as GlobalWithDb).__heirloomDb;
    void Promise.resolve(db?.$disconnect())
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return server;
}
