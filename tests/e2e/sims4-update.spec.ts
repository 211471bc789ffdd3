// "Update from a newer save" in the tree editor (issue 24): the editor's changes are saved first,
// the sync's answer (who was added and updated) is shown, then the editor opens the updated tree;
// when the tree was changed elsewhere since the editor loaded it, nothing is synced.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { writeSave, type FixtureSim } from "@/lib/sims4/testing";
import { docScreenshot } from "./support/screenshots";
import { bearer, loginInBrowser, signUpViaApi } from "./support/session";

const BIG = 2n ** 60n;
const id = (n: number) => BIG + BigInt(n);
const HH = id(100);

function save(extra: FixtureSim[] = []): Buffer {
  return Buffer.from(
    writeSave({
      activeHouseholdId: HH,
      households: [{ id: HH, name: "Goth" }],
      sims: [
        { id: id(1), householdId: HH, firstName: "Bella", lastName: "Goth", gender: 8192, age: 32, spouse: id(2) },
        { id: id(2), householdId: HH, firstName: "Mortimer", lastName: "Goth", gender: 4096, age: 32, spouse: id(1) },
        { id: id(3), householdId: HH, firstName: "Cassandra", lastName: "Goth", gender: 8192, age: 8, relations: [[0, id(1)], [1, id(2)]] },
        ...extra,
      ],
    }),
  );
}

const newer = () =>
  save([
    { id: id(4), householdId: HH, firstName: "Alexander", lastName: "Goth", gender: 4096, age: 1, relations: [[0, id(1)], [1, id(2)]] },
  ]);

async function importedTree(request: APIRequestContext, token: string): Promise<string> {
  const response = await request.post("/api/trees/import", {
    headers: { ...bearer(token), "content-type": "application/octet-stream" },
    data: save(),
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { tree: { _id: string } }).tree._id;
}

async function firstNames(request: APIRequestContext, token: string, treeId: string) {
  const people = (await (
    await request.get(`/api/people?tree=${treeId}`, { headers: bearer(token) })
  ).json()) as { firstName: string }[];
  return people.map((p) => p.firstName).sort();
}

/** Actions → Update from a newer save (the phone's menu on a narrow screen), choosing `file`. */
async function updateFromSave(page: Page, width: number, file: Buffer) {
  const chooser = page.waitForEvent("filechooser");
  if (width >= 768) {
    await page.getByRole("button", { name: "Actions" }).click();
    await page.getByRole("button", { name: "Update from a newer save" }).click();
  } else {
    await page.getByRole("button", { name: "Editor menu" }).click();
    await page.getByRole("button", { name: "Update from a newer save" }).click();
  }
  await (await chooser).setFiles({ name: "Slot_00000001.save", mimeType: "application/octet-stream", buffer: file });
}

test.setTimeout(180_000);

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`the editor updates a tree from a newer save and shows what changed at ${width}x${height}`, async ({ page, request }) => {
    const user = await signUpViaApi(request, `sims4up${width}`);
    const treeId = await importedTree(request, user.token);
    await loginInBrowser(page, user.token);
    await page.setViewportSize({ width, height });
    await page.goto(`/trees/${treeId}`);
    await expect(page.getByText("Cassandra", { exact: false }).first()).toBeVisible({ timeout: 30_000 });

    await updateFromSave(page, width, newer());
    const dialog = page.locator("[data-update-from-save-dialog]");
    // issue 34: the update is previewed first, and applied only on confirm
    await expect(dialog.getByRole("heading", { name: "Update from this save?" })).toBeVisible({ timeout: 30_000 });
    await expect(dialog.locator("[data-sync-to-add]")).toHaveText("Alexander Goth");
    expect(await firstNames(request, user.token, treeId)).toEqual(["Bella", "Cassandra", "Mortimer"]);
    await dialog.getByRole("button", { name: "Update the tree" }).click();
    await expect(dialog.getByRole("heading", { name: "Updated from the save" })).toBeVisible({ timeout: 30_000 });
    await expect(dialog.locator("[data-sync-summary]")).toHaveText("1 Sim added, 0 Sims updated, 3 unchanged.");
    await expect(dialog.locator("[data-sync-added]")).toHaveText("Alexander Goth");
    await docScreenshot(page, `sims4-update-changes-${width}.png`);
    expect(await firstNames(request, user.token, treeId)).toEqual(["Alexander", "Bella", "Cassandra", "Mortimer"]);

    await dialog.getByRole("button", { name: "Show the updated tree" }).click();
    await expect(page.getByText("Alexander", { exact: false }).first()).toBeVisible({ timeout: 30_000 });
    await expect(dialog).toBeHidden();
  });
}

test("a tree changed elsewhere since the editor loaded it is not synced", async ({ page, request }) => {
  const user = await signUpViaApi(request, "sims4stale");
  const treeId = await importedTree(request, user.token);
  await loginInBrowser(page, user.token);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/trees/${treeId}`);
  await expect(page.getByText("Cassandra", { exact: false }).first()).toBeVisible({ timeout: 30_000 });

  // another tab saves the tree: the editor's version is now stale
  const tree = await request.get(`/api/trees/${treeId}`, { headers: bearer(user.token) });
  const body = (await tree.json()) as { data: { hidden: boolean } };
  const saved = await request.patch(`/api/trees/${treeId}`, {
    headers: { ...bearer(user.token), "If-Match": tree.headers()["etag"]! },
    data: { data: { ...body.data, hidden: !body.data.hidden } },
  });
  expect(saved.status()).toBe(200);

  await updateFromSave(page, 1440, newer());
  const dialog = page.locator("[data-update-from-save-dialog]");
  await expect(dialog.getByRole("heading", { name: "Not updated" })).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole("alert")).toContainText("changed in another tab or window");
  await expect(dialog.getByRole("button", { name: "Reload" })).toBeVisible();
  expect(await firstNames(request, user.token, treeId)).toEqual(["Bella", "Cassandra", "Mortimer"]);
});
