import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "@/tests/helpers/raw-http";
import { createStaticAssets } from "./static-assets";

const HANDED_ON = 599;
const script = `console.log(${JSON.stringify("heirloom ".repeat(400))});\n`;
let dir: string;
let server: http.Server;
let port: number;

const get = (urlPath: string, headers: Record<string, string> = {}, method = "GET") =>
  rawRequest(port, urlPath, headers, method);

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-static-"));
  await fs.mkdir(path.join(dir, "static/chunks"), { recursive: true });
  await fs.writeFile(path.join(dir, "static/chunks/app-3f2a.js"), script);
  await fs.writeFile(path.join(dir, "static/chunks/tiny.css"), "a{}");
  await fs.writeFile(path.join(dir, "static/chunks/font.woff2"), Buffer.alloc(4096, 7));
  await fs.writeFile(path.join(dir, "static/chunks/notes.xyz"), "x");
  await fs.writeFile(path.join(dir, "secret.txt"), "outside static");
  const assets = createStaticAssets(path.join(dir, "static"));
  server = http.createServer((req, res) => {
    void assets(req, res).then((answered) => {
      if (!answered) res.writeHead(HANDED_ON).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("built assets in front of Next", () => {
  it("serves a script gzipped to a client that accepts it, with a year of caching", async () => {
    const answer = await get("/_next/static/chunks/app-3f2a.js", { "accept-encoding": "gzip, br" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(answer.headers["content-type"]).toBe("application/javascript; charset=UTF-8");
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(answer.headers.vary).toBe("Accept-Encoding");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(script.length / 10);
    expect(gunzipSync(answer.body).toString()).toBe(script);
  });

  it("serves the raw bytes to a client that does not accept gzip", async () => {
    const answer = await get("/_next/static/chunks/app-3f2a.js");
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.body.toString()).toBe(script);
  });

  it("answers 304 to a client that has the same version", async () => {
    const first = await get("/_next/static/chunks/app-3f2a.js");
    const again = await get("/_next/static/chunks/app-3f2a.js", {
      "if-none-match": String(first.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("does not compress what is small or compressed already", async () => {
    const css = await get("/_next/static/chunks/tiny.css", { "accept-encoding": "gzip" });
    expect(css.headers["content-encoding"]).toBeUndefined();
    expect(css.body.toString()).toBe("a{}");
    const font = await get("/_next/static/chunks/font.woff2", { "accept-encoding": "gzip" });
    expect(font.headers["content-type"]).toBe("font/woff2");
    expect(font.headers["content-encoding"]).toBeUndefined();
    expect(font.body.length).toBe(4096);
  });

  it.each([
    ["a missing file", "/_next/static/chunks/missing.js"],
    ["a type it does not know", "/_next/static/chunks/notes.xyz"],
    ["a path that climbs", "/_next/static/../secret.txt"],
    ["an encoded climb", "/_next/static/%2e%2e/secret.txt"],
    ["another path", "/trees/abc"],
  ])("hands %s to Next", async (_name, urlPath) => {
    expect((await get(urlPath)).status).toBe(HANDED_ON);
  });

  it("hands HEAD and Range requests to Next", async () => {
    expect((await get("/_next/static/chunks/app-3f2a.js", {}, "HEAD")).status).toBe(HANDED_ON);
    const ranged = await get("/_next/static/chunks/app-3f2a.js", { range: "bytes=0-9" });
    expect(ranged.status).toBe(HANDED_ON);
  });

  it("serves a file that appears after it was first asked for", async () => {
    expect((await get("/_next/static/chunks/late.js")).status).toBe(HANDED_ON);
    await fs.writeFile(path.join(dir, "static/chunks/late.js"), "1;");
    expect((await get("/_next/static/chunks/late.js")).status).toBe(200);
  });
});
