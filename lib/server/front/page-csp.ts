// A page kept and served to every reader must not carry a nonce (the same nonce for everyone is
// no nonce): its inline scripts are allowed by hash instead (ADR 024). Run once per render.
import { createHash } from "node:crypto";

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
