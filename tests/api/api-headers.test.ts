import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";

/** proxy.ts does not run for /api: lib/server/route.ts sets these on every answer. */
function expectApiHeaders(headers: Headers, what: string) {
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(headers.get("referrer-policy"), what).toBe("strict-origin-when-cross-origin");
  expect(headers.get("permissions-policy"), what).toContain("camera=()");
  expect(headers.get("cross-origin-opener-policy"), what).toBe("same-origin");
  expect(headers.get("x-frame-options"), what).toBe("DENY");
  expect(headers.get("content-security-policy"), what).toBe(
    "default-src 'none'; frame-ancestors 'none'",
  );
}

describe("API security headers", () => {
  it("are on answers, errors and unknown API paths, with HSTS only over https", async () => {
    const cases = [
      ["GET /api/version", await api.get("/api/version"), 200],
      ["GET /api/trees without a token", await api.get("/api/trees"), 401],
      ["GET /api/nope", await api.get("/api/nope"), 404],
      ["POST /api/nope/deeper", await api.post("/api/nope/deeper", {}), 404],
      ["GET /api/trees/x/nope", await api.get("/api/trees/x/nope"), 404],
    ] as const;
    for (const [what, response, status] of cases) {
      expect(response.status, what).toBe(status);
      expectApiHeaders(response.headers, what);
      expect(response.headers.get("strict-transport-security"), what).toBeNull();
    }
    expect((await api.get("/api/nope")).body).toEqual({ errors: [{ detail: "Not found" }] });
    const https = await api.get("/api/version", { headers: { "x-forwarded-proto": "https" } });
    expect(https.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
  });

  it("keep a handler's own policy (images allow nothing) and add the rest", async () => {
    const missing = await api.get("/api/upload/orig/avatar/nothing.png");
    expect(missing.status).toBe(404);
    expectApiHeaders(missing.headers, "a missing image");
  });
});
