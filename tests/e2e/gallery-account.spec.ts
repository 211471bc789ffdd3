// Published copies of deleted trees (issue 25): a player deletes a published tree that is in the
// Gallery without unpublishing it first, finds its public copy under "Public copies of deleted
// trees" on the account page, unpublishes it there, and it leaves /gallery. On the way, the tree
// list and the editor's Publish menu show which trees are public and which are in the Gallery.
// On a laptop and on a phone.
import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createPersonViaApi, createTreeViaApi, node, saveTreeDataViaApi } from "./tree-fixtures";
import { docScreenshot } from "./support/screenshots";
import { bearer, loginInBrowser, signUpViaApi } from "./support/session";

// A busy machine: the first page loads of a fresh server can be slow.
test.setTimeout(180_000);

const VIEWPORTS = [
  { name: "laptop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

async function publish(request: APIRequestContext, token: string, treeId: string, list: boolean) {
  const response = await request.put(`/api/published/${treeId}`, {
    headers: bearer(token),
    data: { publishToGallery: list },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** The Gallery's tiles titled `title` for a search, as a reader's browser gets them. */
async function galleryTiles(page: Page, words: string, title: string) {
  await page.goto(`/gallery?search=${encodeURIComponent(words)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toBeVisible();
  return page.getByRole("main").getByRole("link", { name: new RegExp(title) });
}

/** The shell's tree list: the side navigation, or the drawer on a phone. */
async function openTreeList(page: Page, phone: boolean) {
  if (!phone) return page.getByRole("navigation", { name: "Main" });
  await page.getByRole("button", { name: "Menu" }).click();
  return page.getByRole("dialog", { name: "Menu" }).getByRole("navigation", { name: "Main" });
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    const phone = viewport.name === "phone";

    test("a deleted tree's public copy stays in the Gallery until unpublished from the account page", async ({
      page,
      browser,
      request,
    }) => {
      const tag = randomBytes(3).toString("hex");
      const user = await signUpViaApi(request, "orphan");
      const listed = await createTreeViaApi(request, user.token, {
        title: `The Orphan Legacy ${tag}`,
        description: "<p>Three generations in <strong>Oasis Springs</strong>.</p>",
      });
      const founder = await createPersonViaApi(request, user.token, listed._id, {
        firstName: `Nova${tag}`,
        lastName: "Landgraab",
      });
      await saveTreeDataViaApi(request, user.token, listed._id, node(founder));
      await publish(request, user.token, listed._id, true);
      const unlisted = await createTreeViaApi(request, user.token, {
        title: `The Quiet Legacy ${tag}`,
      });
      await publish(request, user.token, unlisted._id, false);
      const unpublished = await createTreeViaApi(request, user.token, {
        title: `The Private Legacy ${tag}`,
      });

      // The tree list marks the listed tree "Gallery", the published one "Public", the other not.
      await loginInBrowser(page, user.token);
      await page.goto("/");
      const nav = await openTreeList(page, phone);
      const linkOf = (title: string) => nav.getByRole("link", { name: new RegExp(title) });
      await expect(linkOf(listed.title).locator("[data-publication]")).toHaveAttribute(
        "data-publication",
        "gallery",
        { timeout: 60_000 },
      );
      await expect(linkOf(listed.title)).toHaveAccessibleName(/published and shown in the gallery/);
      await expect(linkOf(listed.title)).toContainText("Gallery");
      await expect(linkOf(unlisted.title).locator("[data-publication]")).toHaveAttribute(
        "data-publication",
        "public",
      );
      await expect(linkOf(unlisted.title)).toContainText("Public");
      await expect(linkOf(unpublished.title).locator("[data-publication]")).toHaveCount(0);
      await docScreenshot(page, `gallery-tree-list-${viewport.name}.png`);

      // The editor's Publish menu says the same.
      await page.goto(`/trees/${listed._id}`);
      await expect(page.getByRole("heading", { name: "Tree Editor" })).toBeVisible({
        timeout: 60_000,
      });
      const menuButton = page.getByRole("button", { name: phone ? "Editor menu" : "Actions" });
      await menuButton.click();
      const menu = phone ? page.getByRole("navigation", { name: "Editor menu" }) : page;
      const publishItem = menu.getByRole("link", { name: /Publish Tree/ });
      await expect(publishItem).toHaveAccessibleName(/published and shown in the gallery/);
      await expect(publishItem).toContainText("Gallery");
      await docScreenshot(page, `gallery-publish-menu-${viewport.name}.png`);

      // Delete Tree: the confirmation says the public copy stays, and offers to unpublish it
      // first (ticked); the player unticks it.
      await menu.getByRole("button", { name: "Delete Tree" }).click();
      const confirm = page.getByRole("dialog", {
        name: "Are you sure you want to delete this tree?",
      });
      await expect(confirm).toContainText(
        "This tree is published and shown in the Gallery. Its public copy stays, in the Gallery too, after the tree is deleted",
      );
      const unpublishFirst = confirm.getByRole("checkbox", {
        name: "Unpublish it first and take it out of the Gallery",
      });
      await expect(unpublishFirst).toBeChecked();
      await unpublishFirst.uncheck();
      await expect(confirm).toContainText("Public copies of deleted trees");
      await docScreenshot(page, `gallery-delete-keep-copy-${viewport.name}.png`);
      await confirm.getByRole("button", { name: "Delete Tree" }).click();
      await expect(page.getByText("Tree deleted").first()).toBeVisible();
      await expect(page).toHaveURL("/");
      const deleted = await request.get(`/api/trees/${listed._id}`, {
        headers: bearer(user.token),
      });
      expect(deleted.status()).toBe(404);

      // Its public copy is still public and in the Gallery.
      expect((await request.get(`/api/published/${listed._id}`)).status()).toBe(200);
      const reader = await browser.newPage({ viewport });
      await expect(await galleryTiles(reader, `nova${tag}`, listed.title)).toHaveCount(1);

      // The account page lists it, says it is in the Gallery, and opens it.
      await page.goto("/account");
      const panel = page.getByRole("region", { name: "Public copies of deleted trees" });
      const copies = panel.getByRole("list", { name: "Public copies of deleted trees" });
      await expect(copies.getByRole("listitem")).toHaveCount(1, { timeout: 60_000 });
      const copy = copies.getByRole("listitem");
      await expect(copy).toContainText(listed.title);
      await expect(copy).toContainText("In the Gallery");
      await expect(copy.getByRole("link", { name: "Open" })).toHaveAttribute(
        "href",
        `/public/${listed._id}`,
      );
      // Only the deleted tree's copy: the living trees have their publish pages.
      await expect(panel).not.toContainText(unlisted.title);
      await panel.scrollIntoViewIfNeeded();
      await docScreenshot(page, `gallery-deleted-copies-${viewport.name}.png`);

      // Unpublish, after a confirmation.
      await copy.getByRole("button", { name: "Unpublish" }).click();
      const ask = page.getByRole("dialog", { name: `Unpublish “${listed.title}”?` });
      await expect(ask).toContainText("it leaves the Gallery");
      await ask.getByRole("button", { name: "Unpublish" }).click();
      await expect(page.getByText("Tree is no longer published").first()).toBeVisible();
      await expect(panel).toContainText("None of your deleted trees has a public copy.");
      expect((await request.get(`/api/published/${listed._id}`)).status()).toBe(404);

      // It has left the Gallery (the page is kept in front of Next for at most 2 s).
      await expect
        .poll(async () => (await galleryTiles(reader, `nova${tag}`, listed.title)).count(), {
          timeout: 15_000,
        })
        .toBe(0);
      await reader.close();
    });
  });
}

test("Delete Tree unpublishes first by default: the copy and its Gallery tile go with the tree", async ({
  page,
  request,
}) => {
  const tag = randomBytes(3).toString("hex");
  const user = await signUpViaApi(request, "tidy");
  const tree = await createTreeViaApi(request, user.token, { title: `The Tidy Legacy ${tag}` });
  await publish(request, user.token, tree._id, true);
  await loginInBrowser(page, user.token);
  await page.goto(`/trees/${tree._id}`);
  await page.getByRole("button", { name: "Actions" }).click({ timeout: 60_000 });
  await page.getByRole("button", { name: "Delete Tree" }).click();
  const confirm = page.getByRole("dialog", { name: "Are you sure you want to delete this tree?" });
  await expect(confirm.getByRole("checkbox", { name: /Unpublish it first/ })).toBeChecked();
  await confirm.getByRole("button", { name: "Delete Tree" }).click();
  await expect(page).toHaveURL("/");
  expect((await request.get(`/api/published/${tree._id}`)).status()).toBe(404);
  const tiles = await galleryTiles(page, `tidy ${tag}`, tree.title);
  await expect(tiles).toHaveCount(0);
  await page.goto("/account");
  await expect(page.getByRole("region", { name: "Public copies of deleted trees" })).toContainText(
    "None of your deleted trees has a public copy.",
    { timeout: 60_000 },
  );
});
