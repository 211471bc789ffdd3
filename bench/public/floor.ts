/**
 * The floor of `bench:public`: files served from memory by a bare node:http server, gzipped as
 * they are given, with an ETag and 304. Started by bench/public/run.ts (its parent sends the
 * files over IPC and gets the port back).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

interface Entry {
  target: string;
  file: string;
  etag: string;
  type: string;
}

process.once("message", (entries: Entry[]) => {
  const bodies = new Map(
    entries.map((entry) => [entry.target, { ...entry, body: fs.readFileSync(entry.file) }]),
  );
  const server = http.createServer((req, res) => {
    const entry = bodies.get(req.url ?? "");
    if (!entry) {
      res.writeHead(404);
      res.end();
      return;
    }
    if (req.headers["if-none-match"] === entry.etag) {
      res.writeHead(304, { etag: entry.etag });
      res.end();
      return;
    }
    res.writeHead(200, {
      "content-type": entry.type,
      "content-encoding": "gzip",
      "content-length": entry.body.length,
      etag: entry.etag,
    });
    res.end(entry.body);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
});
