// Every route answers a method it does not have with 405 in the spec's error shape (Next's own
// 405 has an empty body and none of the API's headers), and OPTIONS with its real methods.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, call } from "../helpers/api";
import { discoverRoutes } from "../helpers/fuzz-routes";
import { AppServer, ensureBuild, removeTempDirs, tempDir } from "../reliability/support/server";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
// The catch-all answers every method with a JSON 404: it has no "other" methods.
const routes = (await discoverRoutes()).filter((r) => r.template !== "/api/[...path]");

/** The template with every parameter filled in: "/api/trees/[treeId]" → "/api/trees/x". */
const pathOf = (template: string) =>
  template.replace(/\[\.\.\.(\w+)\]/g, "x/y").replace(/\[(\w+)\]/g, "x");

describe.each(routes)("$template", (route) => {
  const own = METHODS.filter((m) => route.handlers.includes(m));
  const allow = [...own, ...(own.includes("GET") ? ["HEAD"] : []), "OPTIONS"];
  const others = METHODS.filter((m) => !own.includes(m));

  it.each(others)("answers %s with 405 and Allow", async (method) => {
    const body = method === "GET" ? undefined : {};
    const response = await call(method, pathOf(route.template), { body });
    expect(response.status).toBe(405);
    expect(response.body).toEqual({
      errors: [{ detail: `This address does not take ${method}. It takes ${allow.join(", ")}.` }],
    });
    expect(response.headers.get("allow")).toBe(allow.join(", "));
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers OPTIONS with 204 and its own methods", async () => {
    const response = await call("OPTIONS", pathOf(route.template));
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe(allow.join(", "));
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

it("leaves a route's own methods alone", async () => {
  expect((await api.get("/api/version")).status).toBe(200);
});

// #12 finding 5, against the production server (scripts/server.ts in front of Next): the
// in-process calls above never see what Node and Next do with TRACE (a plain-text 500), PROPFIND
// (an empty 400), CONNECT (a closed socket), a method Node does not know (a bare 400), or a page
// asked to POST (rendered). Every path answers them 405 with Allow and the security headers.
describe("the production server", () => {
  const port = Number(process.env.OPS_TEST_PORT ?? 3421) + 3;
  const server = new AppServer({ port, dataDir: tempDir("methods") });

  beforeAll(async () => {
    ensureBuild();
    await server.start();
  }, 900_000);
  afterAll(async () => {
    await server.stop();
    removeTempDirs();
  });

  /** One request over a raw socket: fetch and node:http refuse to send some of these methods. */
  function raw(method: string, target: string) {
    return new Promise<{ status: number; headers: Map<string, string>; body: string }>(
      (resolve, reject) => {
        const socket = net.connect(port, "127.0.0.1");
        let text = "";
        socket.setEncoding("latin1");
        socket.on("data", (chunk: string) => (text += chunk));
        socket.on("error", reject);
        socket.on("close", () => {
          const [head = "", ...rest] = text.split("\r\n\r\n");
          const [statusLine = "", ...lines] = head.split("\r\n");
          const headers = new Map(
            lines.map((line) => {
              const at = line.indexOf(":");
              return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()] as const;
            }),
          );
          resolve({
            status: Number(statusLine.split(" ")[1]),
            headers,
            body: rest.join("\r\n\r\n"),
          });
        });
        // Written, not ended: like a browser, the client keeps its side open until the answer
        // (Node drops the answer to a request whose client half-closed first).
        socket.write(
          `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
        );
      },
    );
  }

  const NEVER_ALLOWED = ["TRACE", "TRACK", "CONNECT", "PROPFIND", "MKCOL", "BREW"];
  const securityHeadersOf = (headers: Map<string, string>) => ({
    csp: headers.get("content-security-policy"),
    nosniff: headers.get("x-content-type-options"),
    frame: headers.get("x-frame-options"),
  });
  const SECURITY = {
    csp: "default-src 'none'; frame-ancestors 'none'",
    nosniff: "nosniff",
    frame: "DENY",
  };

  describe.each(routes)("$template", (route) => {
    const own = METHODS.filter((m) => route.handlers.includes(m));
    const allow = [...own, ...(own.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");

    it.each(NEVER_ALLOWED)("answers %s with 405, Allow and the error shape", async (method) => {
      const response = await raw(method, pathOf(route.template));
      expect({ status: response.status, allow: response.headers.get("allow") }).toEqual({
        status: 405,
        allow,
      });
      expect(JSON.parse(response.body)).toEqual({
        errors: [{ detail: `This address does not take ${method}. It takes ${allow}.` }],
      });
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(securityHeadersOf(response.headers)).toEqual(SECURITY);
    });
  });

  it.each(NEVER_ALLOWED)(
    "answers %s on an API path no route has with the API's 404",
    async (method) => {
      const response = await raw(method, "/api/no/such/thing");
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body)).toEqual({ errors: [{ detail: "Not found" }] });
      expect(securityHeadersOf(response.headers)).toEqual(SECURITY);
    },
  );

  const PAGES = [
    "/",
    "/login",
    "/guides/tree-editor",
    "/trees/x",
    "/public/x?p=y",
    "/version",
    "/no-such-page",
    "/favicon.ico",
    "/_next/static/chunks/x.js",
  ];
  const PAGE_METHODS = ["POST", "PUT", "PATCH", "DELETE", ...NEVER_ALLOWED];

  describe.each(PAGES)("the page %s", (page) => {
    it.each(PAGE_METHODS)("answers %s with 405, Allow and the security headers", async (method) => {
      const response = await raw(method, page);
      expect({ status: response.status, allow: response.headers.get("allow") }).toEqual({
        status: 405,
        allow: "GET, HEAD, OPTIONS",
      });
      expect(response.body).toBe(
        `This address does not take ${method}. It takes GET, HEAD, OPTIONS.\n`,
      );
      expect(securityHeadersOf(response.headers)).toEqual(SECURITY);
    });

    it("answers OPTIONS with 204 and Allow", async () => {
      const response = await raw("OPTIONS", page);
      expect({ status: response.status, allow: response.headers.get("allow") }).toEqual({
        status: 204,
        allow: "GET, HEAD, OPTIONS",
      });
    });
  });

  it("still serves pages and API routes their own methods", async () => {
    expect((await raw("GET", "/")).status).toBe(200);
    expect((await raw("HEAD", "/login")).status).toBe(200);
    expect((await raw("GET", "/api/version")).status).toBe(200);
    expect((await raw("POST", "/api/version")).status).toBe(405);
    expect((await raw("POST", "/api/account/signin")).status).toBe(400);
  });
});
