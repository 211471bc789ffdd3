// Next's built assets (/_next/static/…) answered in front of its router, from memory.
//
// Their names carry a content hash, so they never change while the build lives. Next reads each one
// from disk and gzips it again at level 6 for every request, on the event loop, through its whole
// request pipeline. A first visit to the editor fetches 14 of them at once, and in a trace they
// arrived 350–500 ms after they were asked for. Here each file is read and compressed once (gzip at
// level 9, kept with the raw bytes), and every later request is a copy from memory. A missing file,
// a Range or HEAD request, or a type not listed goes to Next untouched.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { acceptsGzip } from "./accept-encoding";

const PREFIX = "/_next/static/";
/** Hashed build output: letters, digits and a few separators, never a ".." segment. */
const SAFE_PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_~.\-/]+$/;
const TYPES: Record<string, { type: string; compress: boolean }> = {
  ".js": { type: "application/javascript; charset=UTF-8", compress: true },
  ".css": { type: "text/css; charset=UTF-8", compress: true },
  ".json": { type: "application/json; charset=UTF-8", compress: true },
  ".map": { type: "application/json; charset=UTF-8", compress: true },
  ".txt": { type: "text/plain; charset=UTF-8", compress: true },
  ".svg": { type: "image/svg+xml", compress: true },
  ".woff2": { type: "font/woff2", compress: false },
  ".woff": { type: "font/woff", compress: false },
  ".ttf": { type: "font/ttf", compress: true },
  ".png": { type: "image/png", compress: false },
  ".jpg": { type: "image/jpeg", compress: false },
  ".webp": { type: "image/webp", compress: false },
  ".avif": { type: "image/avif", compress: false },
  ".ico": { type: "image/x-icon", compress: true },
};
const COMPRESS_FROM_BYTES = 1024;
const gzip = promisify(zlib.gzip);

interface Asset {
  raw: Buffer;
  gzipped: Buffer | null;
  type: string;
  etag: string;
}

export type StaticAssets = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** Serves `<staticDir>/<path>` for GET /_next/static/<path>; resolves false for anything else. */
export function createStaticAssets(staticDir: string): StaticAssets {
  const root = path.resolve(staticDir);
  const cache = new Map<string, Promise<Asset | null>>();

  async function load(relative: string): Promise<Asset | null> {
    const kind = TYPES[path.extname(relative).toLowerCase()];
    const file = path.resolve(root, relative);
    if (!kind || !file.startsWith(root + path.sep)) return null;
    const raw = await fs.readFile(file).catch(() => null);
    if (!raw) return null;
    const gzipped =
      kind.compress && raw.length >= COMPRESS_FROM_BYTES ? await gzip(raw, { level: 9 }) : null;
    const etag = `"${createHash("sha1").update(raw).digest("base64url").slice(0, 22)}"`;
    return { raw, gzipped, type: kind.type, etag };
  }

  return async (req, res) => {
    const url = req.url ?? "";
    if (req.method !== "GET" || !url.startsWith(PREFIX) || req.headers.range) return false;
    const relative = url.slice(PREFIX.length).split("?", 1)[0] ?? "";
    if (!SAFE_PATH.test(relative)) return false;
    let pending = cache.get(relative);
    if (!pending) {
      pending = load(relative);
      cache.set(relative, pending);
      // A file not there (yet), or one that failed to load, is tried again next time.
      const forget = () => cache.delete(relative);
      pending.then((asset) => asset ?? forget(), forget);
    }
    const asset = await pending;
    if (!asset) return false;
    const headers: Record<string, string | number> = {
      "cache-control": "public, max-age=31536000, immutable",
      "content-type": asset.type,
      "x-content-type-options": "nosniff",
      etag: asset.etag,
    };
    if (asset.gzipped) headers.vary = "Accept-Encoding";
    if (req.headers["if-none-match"] === asset.etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const body = asset.gzipped && acceptsGzip(req) ? asset.gzipped : asset.raw;
    if (body === asset.gzipped) headers["content-encoding"] = "gzip";
    headers["content-length"] = body.length;
    res.writeHead(200, headers);
    res.end(body);
    return true;
  };
}
