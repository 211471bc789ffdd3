// Issue 12, finding 4: two tabs editing one Sim. The second save meets a newer version: the player's
// text stays on screen, and they may reload or save over.
import { expect, test, type Browser, type Page } from "@playwright/test";
import type { Person } from "@/lib/schemas/person";
import { bearer, loginInBrowser, signUpViaApi } from "./support/session";
import { createPersonViaApi, createTreeViaApi } from "./tree-fixtures";

async function openTab(
  browser: Browser,
  token: string,
  path: string,
  viewport: { width: number; height: number },
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await loginInBrowser(page, token);
  await page.goto(path);
  return page;
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`two tabs edit one Sim: the second keeps its text and may reload or save over (${viewport.width}px)`, async ({
    browser,
    request,
  }, testInfo) => {
    const user = await signUpViaApi(request);
    const tree = await createTreeViaApi(request, user.token, { title: "Two Tabs" });
    const bella = await createPersonViaApi(request, user.token, tree._id, {
      firstName: "Bella",
      lastName: "Goth",
    });
    const path = `/trees/${tree._id}/people/${bella._id}`;
    const readBella = async () =>
      (await (
        await request.get(`/api/people/${bella._id}`, { headers: bearer(user.token) })
      ).json()) as Person;

    const tabA = await openTab(browser, user.token, path, viewport);
    const tabB = await openTab(browser, user.token, path, viewport);
    for (const tab of [tabA, tabB]) {
      await expect(tab.getByLabel("First Name")).toHaveValue("Bella");
    }

    // Tab A saves first.
    await tabA.getByLabel("Last Name").fill("Goth-Landgraab");
    await tabA.getByRole("button", { name: "Update Person" }).click();
    // (after "Person updated" the editor goes back one page, here the blank first page)
    await expect.poll(async () => (await readBella()).lastName).toBe("Goth-Landgraab");

    // Tab B, still on the version it loaded, saves its own change.
    await tabB.getByLabel("First Name").fill("Bellatrix");
    await tabB.getByRole("button", { name: "Update Person" }).click();
    const notice = tabB.getByRole("alert").filter({ hasText: "changed somewhere else" });
    await expect(notice).toBeVisible();
    await expect(notice.getByRole("button", { name: "Reload" })).toBeVisible();
    await expect(notice.getByRole("button", { name: "Save over" })).toBeVisible();
    // nothing typed is lost, and tab A's save stands
    await expect(tabB.getByLabel("First Name")).toHaveValue("Bellatrix");
    await expect(tabB.getByLabel("Last Name")).toHaveValue("Goth");
    await expect(tabB).toHaveURL(new RegExp(`${path}$`));
    expect(await readBella()).toMatchObject({ firstName: "Bella", lastName: "Goth-Landgraab" });
    await tabB.screenshot({ path: testInfo.outputPath(`person-conflict-${viewport.width}.png`) });

    // Save over: tab B's whole form replaces the version the 409 reported.
    await notice.getByRole("button", { name: "Save over" }).click();
    await expect.poll(async () => (await readBella()).firstName).toBe("Bellatrix");
    expect(await readBella()).toMatchObject({ firstName: "Bellatrix", lastName: "Goth" });

    // Reload instead: tab A, now stale, reloads and sees tab B's save.
    await tabA.goto(path);
    await expect(tabA.getByLabel("First Name")).toHaveValue("Bellatrix");
    await request.put(`/api/people/${bella._id}`, {
      headers: bearer(user.token),
      data: { firstName: "Elsewhere" },
    });
    await tabA.getByLabel("Last Name").fill("Typed in A");
    await tabA.getByRole("button", { name: "Update Person" }).click();
    const noticeA = tabA.getByRole("alert").filter({ hasText: "changed somewhere else" });
    await expect(noticeA).toBeVisible();
    await noticeA.getByRole("button", { name: "Reload" }).click();
    await expect(tabA.getByLabel("First Name")).toHaveValue("Elsewhere");
    expect((await readBella()).lastName).toBe("");
  });
}

test("the tree details form keeps its text on a 409 and can save over", async ({
  browser,
  request,
}) => {
  const user = await signUpViaApi(request);
  const tree = await createTreeViaApi(request, user.token, { title: "Original" });
  const tab = await openTab(browser, user.token, `/trees/${tree._id}/details`, {
    width: 1440,
    height: 900,
  });
  await expect(tab.getByLabel("Title")).toHaveValue("Original");
  // another tab renames the tree meanwhile
  const other = await request.patch(`/api/trees/${tree._id}`, {
    headers: bearer(user.token),
    data: { title: "Renamed elsewhere" },
  });
  expect(other.status()).toBe(200);

  await tab.getByLabel("Title").fill("Mine");
  await tab.getByRole("button", { name: "Update Tree Details" }).click();
  const notice = tab.getByRole("alert").filter({ hasText: "changed somewhere else" });
  await expect(notice).toBeVisible();
  await expect(tab.getByLabel("Title")).toHaveValue("Mine");
  const read = async () =>
    (await (
      await request.get(`/api/trees/${tree._id}`, { headers: bearer(user.token) })
    ).json()) as {
      title: string;
    };
  expect((await read()).title).toBe("Renamed elsewhere");

  await notice.getByRole("button", { name: "Save over" }).click();
  await expect(tab.getByText("Tree details updated")).toBeVisible();
  expect((await read()).title).toBe("Mine");
});
