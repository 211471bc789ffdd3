import { expect, test } from "@playwright/test";

test("the production server answers the version call and serves the home page", async ({
  page,
  request,
}) => {
  const version = await request.get("/api/version");
  expect(version.status()).toBe(200);
  expect(await version.json()).toMatchObject({
    version: expect.any(String) as string,
    color: "unknown",
  });
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Heirloom/);
});
