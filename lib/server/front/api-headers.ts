// What the front's answers share with the route handlers' (lib/server/http/route.ts): whether a
// request came over https, and the API's security headers in both forms, lower-cased once.
import type { IncomingMessage } from "node:http";
import { apiSecurityHeaders } from "@/lib/security-headers";

/** Over https: said by a proxy in front (X-Forwarded-Proto), or this socket's own TLS. */
export const isHttps = (req: IncomingMessage): boolean =>
  req.headers["x-forwarded-proto"] === "https" ||
  Boolean((req.socket as { encrypted?: boolean }).encrypted);

const lowerCased = (headers: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

const API_HEADERS = {
  http: lowerCased(apiSecurityHeaders(false)),
  https: lowerCased(apiSecurityHeaders(true)),
};

/** The API's security headers for this request (HSTS only over https). */
export const apiHeadersFor = (req: IncomingMessage): Record<string, string> =>
  API_HEADERS[isHttps(req) ? "https" : "http"];
