import { expect, test } from "@playwright/test";
import { bearer, loginInBrowser, signUpViaApi } from "./support/session";

test("an unknown page answers 404 with a way home", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  await page.getByRole("link", { name: "Return home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Welcome to Heirloom" })).toBeVisible();
});

test("the header links home and the Account menu closes on an outside click and Escape", async ({
  page,
}) => {
  await page.goto("/guides");
  const banner = page.getByRole("banner");
  await expect(banner.getByRole("link", { name: "Heirloom" })).toHaveAttribute("href", "/");
  await expect(banner.getByRole("img")).toHaveCount(0); // the logo is decorative next to the name
  await expect(banner.locator('img[src="/assets/logo.svg"]')).toBeVisible();

  const account = page.getByRole("button", { name: "Account", exact: true });
  const login = banner.getByRole("link", { name: "Login" });
  await expect(account).toHaveAttribute("aria-expanded", "false");
  await account.click();
  await expect(account).toHaveAttribute("aria-expanded", "true");
  await expect(login).toHaveAttribute("href", "/login");
  await expect(banner.getByRole("link", { name: "Create Account" })).toHaveAttribute(
    "href",
    "/signup",
  );
  await page.getByRole("heading", { level: 1 }).click();
  await expect(login).toBeHidden();

  await account.click();
  await expect(login).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(login).toBeHidden();
  await expect(account).toBeFocused();
});

test("the side navigation lists the user's trees, or asks a visitor to log in", async ({
  page,
  request,
}) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Guides" })).toHaveAttribute("href", "/guides");
  await expect(nav.getByRole("link", { name: "Log in" })).toHaveAttribute("href", "/login");
  await expect(nav.getByRole("link", { name: "Create New" })).toHaveCount(0);

  const user = await signUpViaApi(request, "navtrees");
  const created = await request.post("/api/trees", {
    headers: bearer(user.token),
    data: { title: "The Plumbob Legacy", description: "", cover: null },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { _id } = (await created.json()) as { _id: string };

  await loginInBrowser(page, user.token);
  await page.goto("/");
  await expect(nav.getByRole("link", { name: "Create New" })).toHaveAttribute(
    "href",
    "/trees/create",
  );
  await expect(nav.getByRole("link", { name: "The Plumbob Legacy" })).toHaveAttribute(
    "href",
    `/trees/${_id}`,
  );
  await expect(nav.getByRole("link", { name: "Log in" })).toHaveCount(0);
});

test("the shell's links prefetch a page when pointed at, not when merely in view", async ({
  page,
}) => {
  // Next's router fetches a page's payload with an RSC header, for a prefetch as for a visit.
  const payloads: string[] = [];
  page.on("request", (request) => {
    if (request.headers()["rsc"] === "1") payloads.push(new URL(request.url()).pathname);
  });
  await page.goto("/guides");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Log in" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  // Home, Guides and Version are all in view: none of them is fetched.
  expect(payloads).toEqual([]);

  await nav.getByRole("link", { name: "Version" }).hover();
  // Next may fetch the page in more than one request (its route tree, then its segments).
  await expect.poll(() => payloads).toContain("/version");
  expect(new Set(payloads)).toEqual(new Set(["/version"]));
  await nav.getByRole("link", { name: "Version" }).click();
  await expect(page).toHaveURL(/\/version$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the menu opens with Menu and closes with Close, the mask, Escape or a link", async ({
    page,
  }) => {
    await page.goto("/");
    const menuButton = page.getByRole("button", { name: "Menu" });
    const drawer = page.getByRole("dialog", { name: "Menu" });
    const mask = page.getByTestId("menu-mask");
    // The desktop side navigation is hidden on a phone.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(drawer).toBeHidden();

    await menuButton.click();
    await expect(drawer).toBeVisible();
    await expect(mask).toBeVisible();
    await expect(drawer.getByRole("link", { name: "Guides" })).toBeVisible();
    await drawer.getByRole("button", { name: "Close" }).click();
    await expect(drawer).toBeHidden();
    await expect(mask).toBeHidden();
    await expect(menuButton).toBeFocused();

    await menuButton.click();
    await expect(drawer).toBeVisible();
    await mask.click({ position: { x: 370, y: 400 } });
    await expect(drawer).toBeHidden();
    await expect(mask).toBeHidden();

    await menuButton.click();
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();

    await menuButton.click();
    await drawer.getByRole("link", { name: "Guides" }).click();
    await expect(page).toHaveURL(/\/guides$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Guides" })).toBeVisible();
  });
});
