import { NextResponse, type NextRequest } from "next/server";
import { securityHeaders } from "@/lib/security-headers";

/**
 * Adds a per-request CSP nonce and the security headers to every page. It does not run for /api
 * (nor /uploads, rewritten to /api/upload/orig): a JSON answer needs no nonce, and a middleware
 * run cost more CPU than most API handlers; lib/server/route.ts sets the API's headers
 * (apiSecurityHeaders), and app/api/[...path] answers unknown API paths through it.
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const https =
    request.nextUrl.protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  const headers = securityHeaders({
    nonce,
    pathname: request.nextUrl.pathname,
    https,
    dev: process.env.NODE_ENV === "development",
  });
  // Next reads the nonce from the request's CSP header and puts it on its own scripts.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]!);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    { source: "/((?!api/|uploads/|uploads-orig/|_next/static|_next/image|favicon.ico).*)" },
  ],
};
