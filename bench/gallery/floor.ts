/**
 * The floor of `bench:gallery`: the same answers served from memory by a bare node:http server,
 * with an ETag. Started by bench/gallery/run.ts, which sends the bodies over IPC and gets the port.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

process.once("message", (entries: { path: string; body: string; type: string }[]) => {
  const bodies = new Map(entries.map((e) => [e.path, { ...e, bytes: Buffer.from(e.body) }]));
  const server = http.createServer((req, res) => {
    const entry = bodies.get(req.url ?? "");
    if (!entry) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": entry.type, "content-length": entry.bytes.length });
    res.end(entry.bytes);
  });
  server.listen(0, "127.0.0.1", () => {
    process.send?.((server.address() as AddressInfo).port);
  });
});
