// The Gallery (issue 25): a player publishes with "Show in the Gallery"; a reader, signed in or
// not, finds the tree in /gallery by a Sim's name (without its accents) and opens it, on a laptop
// and on a phone. The page is readable before scripts and cacheable like the public pages.
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createPersonViaApi, createTreeViaApi, node, saveTreeDataViaApi } from "./tree-fixtures";
import { docScreenshot } from "./support/screenshots";
import { loginInBrowser, signUpViaApi } from "./support/session";

// A busy machine: the first page loads of a fresh server can be slow.
test.setTimeout(180_000);

const VIEWPORTS = [
  { name: "laptop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

/** Opens the Gallery from the shell's navigation (the drawer on a phone). */
async function openGalleryFromNav(page: Page, phone: boolean) {
  if (phone) {
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Gallery" }).click();
  } else {
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Gallery" })
      .click();
  }
  await expect(page).toHaveURL(/\/gallery$/);
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    const phone = viewport.name === "phone";

    test("publish with Show in the Gallery, find the tree by a Sim's name, open it", async ({
      page,
      browser,
      request,
    }) => {
      const tag = randomBytes(3).toString("hex");
      const user = await signUpViaApi(request, "gallery");
      const tree = await createTreeViaApi(request, user.token, {
        title: `The Gallery Legacy ${tag}`,
        description: "<p>Four generations in <strong>Willow Creek</strong>.</p>",
      });
      const founder = await createPersonViaApi(request, user.token, tree._id, {
        firstName: `Jünö${tag}`,
        lastName: "Château",
      });
      const child = await createPersonViaApi(request, user.token, tree._id, {
        firstName: "Odile",
        lastName: "Château",
      });
      await saveTreeDataViaApi(
        request,
        user.token,
        tree._id,
        node(founder, { children: [node(child)] }),
      );

      // The player publishes, ticking "Show in the Gallery" (off, and disabled until public).
      await loginInBrowser(page, user.token);
      await page.goto(`/trees/${tree._id}/publish`);
      const isPublic = page.getByRole("checkbox", { name: "Is Public" });
      const inGallery = page.getByRole("checkbox", { name: "Show in the Gallery" });
      await expect(isPublic).toBeVisible({ timeout: 60_000 });
      await expect(inGallery).not.toBeChecked();
      await expect(inGallery).toBeDisabled();
      await expect(page.getByText(/The Gallery is where readers browse and search/)).toBeVisible();
      await isPublic.check();
      await expect(inGallery).toBeEnabled();
      await inGallery.check();
      await docScreenshot(page, `gallery-publish-${viewport.name}.png`);
      await page.getByRole("button", { name: "Save Settings" }).click();
      await expect(page.getByText("It is shown in the Gallery.")).toBeVisible({ timeout: 60_000 });
      const status = await request.get(`/api/published/${tree._id}`);
      expect(((await status.json()) as { publishToGallery: boolean }).publishToGallery).toBe(true);

      // A reader without an account finds it by the Sim's name, typed without accents.
      const reader = await browser.newPage({ viewport });
      await reader.goto("/");
      await openGalleryFromNav(reader, phone);
      await reader.getByRole("searchbox", { name: "Search the Gallery" }).fill(`juno${tag}`);
      await reader.getByRole("button", { name: "Search" }).click();
      await expect(reader).toHaveURL(new RegExp(`/gallery\\?search=juno${tag}$`));
      const tile = reader.getByRole("link", { name: new RegExp(`The Gallery Legacy ${tag}`) });
      await expect(tile).toHaveCount(1);
      await expect(tile).toContainText("2 Sims · 2 generations");
      await expect(tile).toContainText("Four generations in Willow Creek.");
      await docScreenshot(reader, `gallery-search-${viewport.name}.png`, { fullPage: true });
      await tile.click();
      await expect(reader).toHaveURL(new RegExp(`/public/${tree._id}$`));
      // the page's title; on a phone the header gives its room to "Find a Sim"
      await expect(reader).toHaveTitle(new RegExp(`The Gallery Legacy ${tag}`));
      await reader.close();
    });
  });
}

test("the Gallery is readable without scripts, has Open Graph tags, and is cached with an ETag", async ({
  browser,
  request,
}) => {
  const page = await browser.newPage({
    javaScriptEnabled: false,
    viewport: { width: 1440, height: 900 },
  });
  await page.goto("/gallery");
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toBeVisible();
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /Gallery/);
  await expect(page.getByRole("link", { name: "Most viewed" })).toHaveAttribute(
    "href",
    "/gallery?sort=views",
  );
  await docScreenshot(page, "gallery-no-scripts-laptop.png", { fullPage: true });
  await page.close();

  const first = await request.get("/gallery");
  expect(first.status()).toBe(200);
  expect(first.headers()["cache-control"]).toBe(
    "public, max-age=0, s-maxage=30, stale-while-revalidate=30",
  );
  let etag = first.headers().etag;
  expect(etag).toMatch(/^".+"$/);
  // Other tests publish into the Gallery at the same time: a listing that changed between the
  // two requests is answered afresh, under another ETag, and is asked again with that one.
  let status = 0;
  for (let attempt = 0; attempt < 3 && status !== 304; attempt += 1) {
    const again = await request.get("/gallery", { headers: { "if-none-match": etag! } });
    status = again.status();
    if (status === 200) {
      expect(again.headers().etag).not.toBe(etag);
      etag = again.headers().etag;
    }
  }
  expect(status).toBe(304);
});
