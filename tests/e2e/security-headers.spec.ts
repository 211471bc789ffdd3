import { expect, test } from "@playwright/test";

test.describe("security headers", () => {
  test("pages get a fresh nonce CSP and run their scripts without a single violation", async ({
    page,
  }) => {
    await page.addInitScript(() => {
      (window as unknown as { __cspViolations: string[] }).__cspViolations = [];
      document.addEventListener("securitypolicyviolation", (event) => {
        (window as unknown as { __cspViolations: string[] }).__cspViolations.push(
          `${event.violatedDirective} ${event.blockedURI}`,
        );
      });
    });
    const first = await page.goto("/");
    const csp = first!.headers()["content-security-policy"]!;
    const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src"))!;
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    // Next's own inline scripts carry the nonce, so the app hydrates.
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc)![1]!;
    expect(await page.locator(`script[nonce]`).count()).toBeGreaterThan(0);
    await page.waitForLoadState("networkidle");
    expect(
      await page.evaluate(
        () => (window as unknown as { __cspViolations: string[] }).__cspViolations,
      ),
    ).toEqual([]);

    const second = await page.goto("/");
    expect(second!.headers()["content-security-policy"]).not.toContain(nonce);
  });

  test("every response carries nosniff, a referrer policy and a permissions policy", async ({
    request,
  }) => {
    for (const path of ["/", "/api/version", "/no-such-page"]) {
      const response = await request.get(path);
      const headers = response.headers();
      expect(headers["x-content-type-options"], path).toBe("nosniff");
      expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
      expect(headers["permissions-policy"], path).toContain("camera=()");
      expect(headers["strict-transport-security"], path).toBeUndefined();
    }
  });

  test("public trees may be framed; nothing else may", async ({ request }) => {
    const publicPage = await request.get("/public/any-tree-id");
    expect(publicPage.headers()["content-security-policy"]).toContain("frame-ancestors *");
    expect(publicPage.headers()["x-frame-options"]).toBeUndefined();
    const home = await request.get("/");
    expect(home.headers()["x-frame-options"]).toBe("DENY");
  });

  test("HSTS is sent when the request arrived over https", async ({ request }) => {
    const response = await request.get("/", { headers: { "x-forwarded-proto": "https" } });
    expect(response.headers()["strict-transport-security"]).toMatch(/max-age=\d+/);
  });
});
