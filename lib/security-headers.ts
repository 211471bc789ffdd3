/**
 * Response headers for every request. Scripts run only with this request's nonce (no
 * 'unsafe-inline' scripts). Styles allow inline because react-select, sonner and ProseMirror set
 * style attributes. Only /public/* may be framed, so published trees can be embedded.
 */
export function securityHeaders(options: {
  nonce: string;
  pathname: string;
  https: boolean;
  dev: boolean;
}): Record<string, string> {
  const embeddable = options.pathname === "/public" || options.pathname.startsWith("/public/");
  const csp = contentSecurityPolicy(
    `script-src 'self' 'nonce-${options.nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    embeddable,
  );
  const headers: Record<string, string> = {
    "Content-Security-Policy": csp,
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
    "Permissions-Policy":
      "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  if (!embeddable) headers["X-Frame-Options"] = "DENY";
  if (options.https) headers["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains";
  return headers;
}

/**
 * The policy of a page kept and served to every reader (the public pages, ADR 014): a nonce the
 * same for everyone would be no nonce at all, so its inline scripts are allowed by their SHA-256
 * hashes instead (computed once per publication, lib/server/front/page-csp.ts), and its other
 * scripts by origin ('self', without 'strict-dynamic', which would ignore it).
 */
export function hashedPageCsp(scriptHashes: readonly string[], embeddable: boolean): string {
  const hashes = scriptHashes.map((hash) => ` 'sha256-${hash}'`).join("");
  return contentSecurityPolicy(`script-src 'self'${hashes}`, embeddable);
}

function contentSecurityPolicy(scriptSrc: string, embeddable: boolean): string {
  return [
    "default-src 'self'",
    scriptSrc,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${embeddable ? "*" : "'none'"}`,
  ].join("; ");
}

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

function apiHeaders(https: boolean): Readonly<Record<string, string>> {
  const headers = securityHeaders({ nonce: "", pathname: "/api", https, dev: false });
  // A JSON answer runs no script, so it needs no nonce: its policy allows nothing at all.
  headers["Content-Security-Policy"] = API_CSP;
  return Object.freeze(headers);
}

const API_HEADERS = { http: apiHeaders(false), https: apiHeaders(true) };

/**
 * The headers of every /api response (set by lib/server/route.ts, not by proxy.ts, so an API
 * request costs no middleware run): the page set, with a policy that allows nothing instead of
 * a per-request nonce. Computed once; never framed, HSTS only over https.
 */
export function apiSecurityHeaders(https: boolean): Readonly<Record<string, string>> {
  return https ? API_HEADERS.https : API_HEADERS.http;
}
