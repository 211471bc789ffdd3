import { expect, test } from "@playwright/test";

test("the production server answers the version call and serves the home page", async ({
  page,
  request,
}) => {
  const version = await request.get("/api/version");
  expect(version.status()).toBe(200);
  const body = (await version.json()) as { version: unknown; color: unknown };
  expect(typeof body.version).toBe("string");
  expect(body.color).toBe("unknown");
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Heirloom/);
});
