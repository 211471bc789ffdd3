import { describe, expect, it } from "vitest";
import { apiSecurityHeaders, securityHeaders } from "./security-headers";

const base = { nonce: "abc123", pathname: "/", https: false, dev: false };

describe("securityHeaders", () => {
  it("allows scripts only with the nonce, never unsafe-inline or eval in production", () => {
    const csp = securityHeaders(base)["Content-Security-Policy"]!;
    const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src"))!;
    expect(scriptSrc).toContain("'nonce-abc123'");
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(scriptSrc).not.toContain("unsafe-eval");
  });

  it("forbids framing except for public trees", () => {
    expect(securityHeaders(base)["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(securityHeaders(base)["X-Frame-Options"]).toBe("DENY");
    const open = securityHeaders({ ...base, pathname: "/public/t1" });
    expect(open["Content-Security-Policy"]).toContain("frame-ancestors *");
    expect(open["X-Frame-Options"]).toBeUndefined();
    expect(securityHeaders({ ...base, pathname: "/publicity" })["X-Frame-Options"]).toBe("DENY");
  });

  it("sends HSTS only over https", () => {
    expect(securityHeaders(base)["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders({ ...base, https: true })["Strict-Transport-Security"]).toMatch(
      /max-age=\d+/,
    );
  });

  it("always sends nosniff, a referrer policy and a permissions policy", () => {
    const headers = securityHeaders(base);
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["Permissions-Policy"]).toContain("camera=()");
  });

  it("gives API responses the same headers, with a policy that allows nothing and no nonce", () => {
    const page = securityHeaders({ ...base, pathname: "/api/trees" });
    const api = apiSecurityHeaders(false);
    expect(Object.keys(api).sort()).toEqual(Object.keys(page).sort());
    expect(api["Content-Security-Policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api["X-Frame-Options"]).toBe("DENY");
    expect(api["X-Content-Type-Options"]).toBe("nosniff");
    expect(api["Strict-Transport-Security"]).toBeUndefined();
    expect(apiSecurityHeaders(true)["Strict-Transport-Security"]).toMatch(/max-age=\d+/);
  });
});
