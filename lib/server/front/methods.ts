// Methods no route has, answered in front of Next (SECURITY.md, #12 finding 5). Next cannot answer
// them: a WHATWG Request refuses TRACE and TRACK (so Next answered 500 as plain text), app routes
// refuse methods outside their list with an empty 400 (PROPFIND), pages render for any method, and
// Node answers CONNECT and methods its parser does not know by closing the socket or with a bare
// 400. Every path now answers 405 with Allow and the security headers; /api in the error shape.
import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { apiSecurityHeaders } from "../../security-headers";

/** The methods the API's routes are written for (lib/server/route.ts answers the ones a route lacks). */
const ROUTE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Pages, static files and built assets: read-only. */
export const PAGE_ALLOW = "GET, HEAD, OPTIONS";
const PAGE_METHODS = new Set(["GET", "HEAD"]);

/** /api and the upload addresses Next rewrites to it (next.config.ts). */
export function isApiPath(url: string): boolean {
  return /^\/(api|uploads|uploads-orig)(\/|\?|$)/.test(url);
}

const notAllowed = (method: string, allow: string) =>
  `This address does not take ${method}. It takes ${allow}.`;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function answerFor(
  method: string,
  url: string,
  https: boolean,
  allow: string | null,
  status = 405,
): Answer {
  const api = isApiPath(url);
  const detail = status === 404 ? "Not found" : notAllowed(method, allow ?? PAGE_ALLOW);
  const headers: Record<string, string> = {
    ...apiSecurityHeaders(https),
    "Cache-Control": "no-store",
    "Content-Type": api ? "application/json" : "text/plain; charset=utf-8",
    "X-Request-Id": randomUUID(),
  };
  if (status === 405) headers.Allow = allow ?? PAGE_ALLOW;
  const body = api ? JSON.stringify({ errors: [{ detail }] }) : `${detail}\n`;
  return { status, headers, body };
}

const isHttps = (req: IncomingMessage) => req.headers["x-forwarded-proto"] === "https";

/**
 * An API route's Allow, asked of the server itself with OPTIONS (each route answers it with its
 * own methods, lib/server/route.ts): null with the status when the path has no route (404).
 */
function askAllow(port: number, url: string): Promise<{ status: number; allow: string | null }> {
  return new Promise((resolve) => {
    const request = http.request(
      { host: "127.0.0.1", port, method: "OPTIONS", path: url, timeout: 5_000 },
      (response) => {
        response.resume();
        const allow = response.headers.allow;
        resolve({
          status: response.statusCode === 404 ? 404 : 405,
          allow: typeof allow === "string" ? allow : null,
        });
      },
    );
    request.on("error", () => resolve({ status: 405, allow: null }));
    request.on("timeout", () => request.destroy());
    request.end();
  });
}

async function apiAnswer(port: number, method: string, url: string, https: boolean) {
  const { status, allow } = await askAllow(port, url);
  return answerFor(method, url, https, allow ?? "OPTIONS", status);
}

function send(res: ServerResponse, answer: Answer, head: boolean) {
  res.writeHead(answer.status, {
    ...answer.headers,
    "Content-Length": Buffer.byteLength(answer.body),
  });
  res.end(head ? undefined : answer.body);
}

/** Writes an answer on a socket that has no ServerResponse (CONNECT, an unparsable method). */
function writeRaw(socket: Duplex, answer: Answer) {
  if (!socket.writable) return;
  const reason = http.STATUS_CODES[answer.status] ?? "";
  const lines = [`HTTP/1.1 ${answer.status} ${reason}`];
  const headers = { ...answer.headers, "Content-Length": String(Buffer.byteLength(answer.body)) };
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  lines.push("Connection: close", "", answer.body);
  socket.end(lines.join("\r\n"));
}

/**
 * Answers a request whose method its path does not take, before Next sees it; false for the
 * requests Next should answer (every method an API route is written for; GET and HEAD of pages).
 */
export async function answerUnsupportedMethod(
  req: IncomingMessage,
  res: ServerResponse,
  port: number,
): Promise<boolean> {
  const method = req.method ?? "GET";
  const url = req.url ?? "/";
  if (isApiPath(url)) {
    if (ROUTE_METHODS.has(method)) return false;
    send(res, await apiAnswer(port, method, url, isHttps(req)), false);
    return true;
  }
  if (PAGE_METHODS.has(method)) return false;
  if (method === "OPTIONS") {
    const headers = { ...apiSecurityHeaders(isHttps(req)), Allow: PAGE_ALLOW };
    res.writeHead(204, headers);
    res.end();
    return true;
  }
  send(res, answerFor(method, url, isHttps(req), PAGE_ALLOW), false);
  return true;
}

/** node:http's "connect" event: CONNECT is never proxied here; 405 like any other method. */
export function answerConnect(port: number) {
  return (req: IncomingMessage, socket: Duplex) => {
    const url = req.url ?? "/";
    const https = isHttps(req);
    socket.on("error", () => socket.destroy());
    void (
      isApiPath(url)
        ? apiAnswer(port, "CONNECT", url, https)
        : Promise.resolve(answerFor("CONNECT", url, https, PAGE_ALLOW))
    ).then((answer) => writeRaw(socket, answer));
  };
}

/**
 * node:http's "clientError" event. A method Node's parser does not know (any token is a valid
 * method in HTTP) is answered 405 like the others; other malformed requests keep Node's 400.
 */
export function answerClientError(port: number) {
  return (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
    socket.on("error", () => socket.destroy());
    const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(
      error.rawPacket?.toString("latin1") ?? "",
    );
    if (error.code !== "HPE_INVALID_METHOD" || !line?.[1] || !line[2]) {
      // What node:http does without a listener.
      if (!socket.writable || error.code === "ECONNRESET") {
        socket.destroy();
        return;
      }
      const status =
        error.code === "HPE_HEADER_OVERFLOW"
          ? "431 Request Header Fields Too Large"
          : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
            ? "408 Request Timeout"
            : "400 Bad Request";
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
      return;
    }
    const [, method, url] = line;
    void (
      isApiPath(url)
        ? apiAnswer(port, method, url, false)
        : Promise.resolve(answerFor(method, url, false, PAGE_ALLOW))
    ).then((answer) => writeRaw(socket, answer));
  };
}
