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
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${options.nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${embeddable ? "*" : "'none'"}`,
  ].join("; ");
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
