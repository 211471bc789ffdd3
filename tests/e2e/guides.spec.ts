import { expect, test, type Page } from "@playwright/test";
import { GUIDES } from "@/components/guides/guide-list";

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

/** Scrolls to the pager at the bottom, follows a link and checks the page glides back to the top. */
async function follow(page: Page, name: RegExp) {
  const link = page.getByRole("navigation", { name: "Guides" }).getByRole("link", { name });
  await link.scrollIntoViewIfNeeded();
  expect(await scrollY(page)).toBeGreaterThan(0);
  await link.click();
}

test("walk every guide with Next, then back with Previous", async ({ page }) => {
  await page.goto("/guides");
  await expect(page.getByRole("heading", { level: 1, name: "Guides" })).toBeVisible();
  const main = page.getByRole("main");
  for (const guide of GUIDES) {
    await expect(main.getByRole("link", { name: new RegExp(guide.title) })).toHaveAttribute(
      "href",
      `/guides/${guide.slug}`,
    );
  }

  await main.getByRole("link", { name: new RegExp(GUIDES[0].title) }).click();
  for (const [index, guide] of GUIDES.entries()) {
    await expect(page).toHaveURL(new RegExp(`/guides/${guide.slug}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(guide.title);
    await expect(main.getByRole("link", { name: "Back to all guides" })).toHaveAttribute(
      "href",
      "/guides",
    );
    await expect(main.getByText(`Guide ${index + 1} of ${GUIDES.length}`)).toBeVisible();
    const next = GUIDES[index + 1];
    if (!next) break;
    await follow(page, new RegExp(`Next:.*${next.title}`));
    await expect.poll(() => scrollY(page)).toBe(0);
  }
  await expect(page.getByRole("link", { name: /^Next:/ })).toHaveCount(0);

  for (let index = GUIDES.length - 1; index > 0; index -= 1) {
    const previous = GUIDES[index - 1]!;
    await follow(page, new RegExp(`Previous:.*${previous.title}`));
    await expect(page).toHaveURL(new RegExp(`/guides/${previous.slug}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(previous.title);
    await expect.poll(() => scrollY(page)).toBe(0);
  }
  await expect(page.getByRole("link", { name: /^Previous:/ })).toHaveCount(0);

  await follow(page, /^All guides$/);
  await expect(page).toHaveURL(/\/guides$/);
});

test("the guides state the rules of the product", async ({ page }) => {
  const rules: [string, RegExp][] = [
    ["tree-editor", /saves automatically/],
    ["tree-editor", /Save Tree/],
    ["publising-trees", /snapshot/],
    ["publising-trees", /unpublish it first/],
    ["tree-editor", /only possible by asking us/],
    ["create-and-edit-sims", /updates\s+every place they are placed/],
    ["placing-sims", /removes all of its child nodes/],
    ["linking-sims-to-other-trees", /must be public/],
  ];
  for (const [slug, text] of rules) {
    await page.goto(`/guides/${slug}`);
    await expect(page.getByRole("article")).toContainText(text);
  }
});

test("an unknown guide is a 404", async ({ page }) => {
  const response = await page.goto("/guides/no-such-guide");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  await page.getByRole("link", { name: "Return home" }).click();
  await expect(page.getByRole("heading", { name: "Welcome to Heirloom" })).toBeVisible();
});
