// Issue 32, finding 12: the editor never loses an edit made while the connection drops. A save
// the network refuses is kept on the device (IndexedDB) and says so in the header; the page
// reloads offline (public/sw.js keeps it); when the network returns the edit reaches the server,
// with If-Match as ever (a save made elsewhere meanwhile gives the conflict notice). Heirs marked
// offline are kept too, the details panel says it is offline, and the node editor opens offline.
import {
  expect,
  test,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from "@playwright/test";
import { getTree, node, openEditor, putTreeData, seedTree } from "./support/editor";
import { bearer, loginInBrowser, signUpViaApi, type TestUser } from "./support/session";

const KEPT = "Kept on this device, not saved yet";
const OFFLINE_KEPT =
  "You're offline. Your changes to this tree are kept on this device and will be saved when the connection returns.";
const DETAILS_OFFLINE = "You're offline: the details will load when the connection returns.";
// The server's 409 detail, which the editor's conflict notice shows (as in write-conflicts.spec.ts)
const CONFLICT =
  "This tree was changed somewhere else (another tab or device). Reload to get the latest version.";

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

const nodeOf = (scope: Page | Locator, name: string) =>
  scope.getByRole("group", { name: `Node of ${name}`, exact: true });
const status = (page: Page) => page.locator("[data-save-status]");

async function seed(request: Parameters<typeof signUpViaApi>[0]) {
  const user = await signUpViaApi(request, "train");
  const seeded = await seedTree(request, user.token, "Train Legacy", {
    ada: {
      firstName: "Ada",
      lastName: "Train",
      bio: "<p>Rides the <strong>night train</strong></p>",
    },
    kip: { firstName: "Kip", lastName: "Train" },
  });
  await putTreeData(request, user.token, seeded.tree._id, node(seeded.people.ada));
  return { user, tree: seeded.tree, people: seeded.people };
}

/** The editor in a context of its own, once its page and files are kept for offline use. */
async function openOfflineReady(
  browser: Browser,
  user: TestUser,
  tree: { _id: string; title: string },
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page; canvas: Locator }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await loginInBrowser(page, user.token);
  const canvas = await openEditor(page, tree);
  await expect
    .poll(() => page.evaluate(async () => (await caches.match(location.pathname)) !== undefined), {
      timeout: 30_000,
    })
    .toBe(true);
  return { context, page, canvas };
}

/** The first PATCH of the tree: the network drops while it is on its way (after the server got it, when `answerLost`). */
async function dropDuringNextSave(
  page: Page,
  context: BrowserContext,
  treeId: string,
  answerLost = false,
) {
  await page.route(
    `**/api/trees/${treeId}`,
    async (route) => {
      if (route.request().method() !== "PATCH") return route.fallback();
      if (answerLost) expect((await route.fetch()).status()).toBe(200);
      await goOffline(context);
      await route.abort("internetdisconnected");
    },
    { times: 1 },
  );
}

/**
 * The network drops for the whole context. Chromium's offline emulation is backed by refusing
 * every /api request too, so that no request can slip past it (a page a service worker serves
 * counts as a new document).
 */
async function goOffline(context: BrowserContext) {
  await context.setOffline(true);
  await context.route("**/api/**", (route) => route.abort("internetdisconnected"));
}

async function goOnline(context: BrowserContext) {
  await context.unrouteAll({ behavior: "wait" });
  await context.setOffline(false);
}

async function keptRecord(page: Page, treeId: string) {
  return page.evaluate(
    (id) =>
      new Promise<unknown>((resolve, reject) => {
        const open = indexedDB.open("heirloom-kept-edits", 1);
        open.onupgradeneeded = () => open.result.createObjectStore("trees", { keyPath: "treeId" });
        open.onerror = () => reject(new Error("IndexedDB did not open"));
        open.onsuccess = () => {
          const read = open.result.transaction("trees").objectStore("trees").get(id);
          read.onsuccess = () => {
            resolve(read.result ?? null);
            open.result.close();
          };
          read.onerror = () => reject(new Error("IndexedDB read failed"));
        };
      }),
    treeId,
  );
}

async function setNodePerson(page: Page, group: Locator, name: string) {
  await group.getByRole("button", { name: "Edit node" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Node" });
  await dialog.getByRole("button", { name: "Set Node Person" }).click();
  await dialog.getByLabel("Sim", { exact: true }).fill(name);
  await page.getByRole("option", { name, exact: true }).click();
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
}

for (const viewport of VIEWPORTS) {
  const size = `${viewport.width}x${viewport.height}`;

  test(`an edit saved as the connection drops survives an offline reload and reaches the server (${size})`, async ({
    browser,
    request,
  }, testInfo) => {
    test.setTimeout(120_000);
    const { user, tree, people } = await seed(request);
    const { context, page, canvas } = await openOfflineReady(browser, user, tree, viewport);

    // A child of Ada: its autosave meets the drop.
    await dropDuringNextSave(page, context, tree._id);
    await nodeOf(canvas, "Ada Train").getByRole("button", { name: "Add child" }).click();
    await expect(status(page)).toHaveText(KEPT);
    // a kept save raises no error toast
    await expect(
      page.locator("[data-sonner-toast]").filter({ hasText: "Unknown error occurred" }),
    ).toHaveCount(0);

    // Offline: the node editor opens, and the new child gets Kip.
    await setNodePerson(page, canvas.getByRole("group", { name: "Empty node" }), "Kip Train");
    await expect(nodeOf(canvas, "Kip Train")).toBeVisible();
    await expect(status(page)).toHaveText(KEPT);
    await page.screenshot({ path: testInfo.outputPath(`kept-${size}.png`) });
    expect((await getTree(request, user.token, tree._id)).data.children).toEqual([]);

    // The page reloads while still offline: the kept page says the changes wait on the device.
    await page.reload();
    await expect(page.getByRole("alert").filter({ hasText: OFFLINE_KEPT })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`offline-reload-${size}.png`) });
    expect((await getTree(request, user.token, tree._id)).data.children).toEqual([]);

    // The network returns: the kept tree is shown and saved, and the device forgets it.
    await goOnline(context);
    await expect(nodeOf(page, "Kip Train")).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(async () => (await getTree(request, user.token, tree._id)).data.children)
      .toEqual([
        expect.objectContaining({ person: expect.objectContaining({ _id: people.kip._id }) }),
      ]);
    await expect(status(page)).toHaveText("All changes saved");
    await expect.poll(() => keptRecord(page, tree._id)).toBeNull();
    await context.close();
  });
}

test("a save whose answer the network lost is not taken for a conflict when the network returns", async ({
  browser,
  request,
}) => {
  const { user, tree } = await seed(request);
  const { context, page, canvas } = await openOfflineReady(browser, user, tree, VIEWPORTS[0]!);
  await dropDuringNextSave(page, context, tree._id, true);
  await nodeOf(canvas, "Ada Train").getByRole("button", { name: "Add child" }).click();
  await expect(status(page)).toHaveText(KEPT);
  // the server has it already
  const stored = await getTree(request, user.token, tree._id);
  expect(stored.data.children).toHaveLength(1);

  await goOnline(context);
  await expect(status(page)).toHaveText("All changes saved");
  await expect(page.getByRole("alert").filter({ hasText: CONFLICT })).toHaveCount(0);
  const after = await getTree(request, user.token, tree._id);
  expect(after.version).toBe(stored.version);
  expect(after.data.children).toHaveLength(1);
  await context.close();
});

test("a tree saved elsewhere while this one was offline gives the conflict notice, not an overwrite", async ({
  browser,
  request,
}) => {
  const { user, tree, people } = await seed(request);
  const { context, page, canvas } = await openOfflineReady(browser, user, tree, VIEWPORTS[0]!);
  await dropDuringNextSave(page, context, tree._id);
  await nodeOf(canvas, "Ada Train").getByRole("button", { name: "Add child" }).click();
  await expect(status(page)).toHaveText(KEPT);

  // another tab saves meanwhile (Kip as the root)
  await putTreeData(request, user.token, tree._id, node(people.kip));
  await page.reload();
  await expect(page.getByRole("alert").filter({ hasText: OFFLINE_KEPT })).toBeVisible();
  await goOnline(context);

  const notice = page.getByRole("alert").filter({ hasText: CONFLICT });
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(status(page)).toHaveText("Not saved: changed elsewhere");
  const stored = await getTree(request, user.token, tree._id);
  expect(stored.data.person?._id).toBe(people.kip._id);
  expect(stored.data.children).toEqual([]);

  // Reload takes the other version, and the device forgets what it kept.
  await notice.getByRole("button", { name: "Reload" }).click();
  await expect(nodeOf(page, "Kip Train")).toBeVisible();
  await expect(status(page)).toHaveText("All changes saved");
  await expect.poll(() => keptRecord(page, tree._id)).toBeNull();
  await context.close();
});

for (const viewport of VIEWPORTS) {
  const size = `${viewport.width}x${viewport.height}`;

  test(`offline, a marked heir is kept, the details panel says it is offline, and the node editor opens (${size})`, async ({
    browser,
    request,
  }, testInfo) => {
    const { user, tree, people } = await seed(request);
    const { context, page, canvas } = await openOfflineReady(browser, user, tree, viewport);
    const readHeirs = async () =>
      (
        (await (
          await request.get(`/api/trees/${tree._id}/heirs`, { headers: bearer(user.token) })
        ).json()) as { heirs: string[] }
      ).heirs;

    await goOffline(context);
    await canvas.getByRole("button", { name: "Ada Train", exact: true }).click();
    const panel = page.getByRole("complementary", { name: "Ada Train" });
    await expect(panel.getByRole("status").filter({ hasText: DETAILS_OFFLINE })).toBeVisible();
    await panel.getByRole("checkbox", { name: "Heir" }).check();
    await expect(status(page)).toHaveText(KEPT);
    await expect(panel.getByRole("checkbox", { name: "Heir" })).toBeChecked();
    await page.screenshot({ path: testInfo.outputPath(`heir-offline-${size}.png`) });
    expect(await readHeirs()).toEqual([]);

    // the node editor's code is on the device
    await panel.getByRole("button", { name: "Close" }).click();
    await nodeOf(canvas, "Ada Train").getByRole("button", { name: "Edit node" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Node" });
    await expect(dialog.getByRole("button", { name: "Set Node Person" })).toBeVisible();
    await expect(page.getByText("This page couldn't load")).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath(`node-editor-offline-${size}.png`) });
    await dialog.getByRole("button", { name: "Close" }).click();

    // back online: the heir is saved and the details load
    await canvas.getByRole("button", { name: "Ada Train", exact: true }).click();
    await goOnline(context);
    await expect(panel.locator("strong", { hasText: "night train" })).toBeVisible();
    await expect.poll(readHeirs).toEqual([people.ada._id]);
    await expect(status(page)).toHaveText("All changes saved");
    await expect(panel.getByRole("checkbox", { name: "Heir" })).toBeChecked();
    await context.close();
  });
}
