// A page kept and served to every reader must not carry a nonce (the same nonce for everyone is
// no nonce): its inline scripts are allowed by hash instead (ADR 024). Run once per render.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { hashedPageCsp } from "@/lib/security-headers";

/** An attribute-free `nonce="…"` as React writes it (a quote in text is always escaped). */
const NONCE_ATTRIBUTE = /\snonce="[^"]*"/g;
/** A script element and its text; the text never holds `</script` (React escapes it). */
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

export interface HashedPage {
  html: string;
  /** The base64 SHA-256 of each distinct inline script's text, in document order. */
  scriptHashes: string[];
}

/** The page without its nonce attributes, and the hashes of its inline scripts. */
export function hashInlineScripts(rendered: string): HashedPage {
  const html = rendered.replace(NONCE_ATTRIBUTE, "");
  const hashes = new Set<string>();
  for (const match of html.matchAll(SCRIPT)) {
    const [, attributes = "", text = ""] = match;
    if (/\ssrc\s*=/i.test(attributes) || text === "") continue;
    hashes.add(createHash("sha256").update(text, "utf8").digest("base64"));
  }
  return { html, scriptHashes: [...hashes] };
}

/** A rendered page as Next answered the front's render request. */
export interface RenderedPage {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The render's headers a kept page keeps (its CSP is replaced by a hashed one). */
const KEPT_HEADERS = [
  "content-type",
  "referrer-policy",
  "x-content-type-options",
  "permissions-policy",
  "cross-origin-opener-policy",
  "x-frame-options",
  "link",
];
const gzip = promisify(zlib.gzip);

/** A rendered page as it is kept for every reader: one HTML, gzipped once, with its ETag. */
export interface KeptRender {
  html: string;
  plain: Buffer;
  gzipped: Buffer;
  etag: string;
  headers: Record<string, string>;
}

/**
 * Makes a page rendered with status 200 ready to keep (the public pages and the Gallery): the
 * headers it keeps, its nonces dropped and its inline scripts allowed by hash, `embeddable` in
 * other sites or not, its ETag, and its body gzipped once at the best level.
 */
export async function keepRenderedPage(
  rendered: RenderedPage,
  embeddable: boolean,
): Promise<KeptRender> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = rendered.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const { html, scriptHashes } = hashInlineScripts(rendered.body.toString("utf8"));
  headers["content-security-policy"] = hashedPageCsp(scriptHashes, embeddable);
  const plain = Buffer.from(html);
  return {
    html,
    plain,
    gzipped: await gzip(plain, { level: 9 }),
    etag: `"${createHash("sha256").update(plain).digest("base64url").slice(0, 27)}"`,
    headers,
  };
}
