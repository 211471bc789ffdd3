// Issue 34 in the tree editor: an update from a save that shares no Sim with the tree is said so
// plainly, with no default action, and nothing is written; an update that went through is undone
// from the dialog (the version the sync kept is restored), and the restore is itself kept as a
// version (GET /api/trees/{id}/versions).
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { writeSave, type FixtureSim } from "@/lib/sims4/testing";
import { bearer, loginInBrowser, signUpViaApi } from "./support/session";

const BIG = 2n ** 60n;
const id = (n: number) => BIG + BigInt(n);
const HH = id(100);
const OTHER = id(900);

const save = (extra: FixtureSim[] = []) =>
  Buffer.from(
    writeSave({
      activeHouseholdId: HH,
      households: [{ id: HH, name: "Goth" }],
      sims: [
        { id: id(1), householdId: HH, firstName: "Bella", lastName: "Goth", gender: 8192, age: 32, spouse: id(2) },
        { id: id(2), householdId: HH, firstName: "Mortimer", lastName: "Goth", gender: 4096, age: 32, spouse: id(1) },
        ...extra,
      ],
    }),
  );
const newer = () =>
  save([{ id: id(4), householdId: HH, firstName: "Alexander", lastName: "Goth", age: 1, relations: [[0, id(1)], [1, id(2)]] }]);
const strangers = () =>
  Buffer.from(
    writeSave({
      activeHouseholdId: OTHER,
      households: [{ id: OTHER, name: "Stranger" }],
      sims: [{ id: id(901), householdId: OTHER, firstName: "Nobody", lastName: "Stranger", age: 32 }],
    }),
  );

async function importedTree(request: APIRequestContext, token: string): Promise<string> {
  const response = await request.post("/api/trees/import", {
    headers: { ...bearer(token), "content-type": "application/octet-stream" },
    data: save(),
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { tree: { _id: string } }).tree._id;
}

async function firstNames(request: APIRequestContext, token: string, treeId: string) {
  const people = (await (await request.get(`/api/people?tree=${treeId}`, { headers: bearer(token) })).json()) as {
    firstName: string;
  }[];
  return people.map((p) => p.firstName).sort();
}

async function updateFromSave(page: Page, width: number, file: Buffer) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: width >= 768 ? "Actions" : "Editor menu" }).click();
  await page.getByRole("button", { name: "Update from a newer save" }).click();
  await (await chooser).setFiles({ name: "Slot_00000001.save", mimeType: "application/octet-stream", buffer: file });
}

test.setTimeout(180_000);

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`a save with no Sim of the tree is refused plainly, and an update is undone, at ${width}x${height}`, async ({ page, request }) => {
    const user = await signUpViaApi(request, `syncundo${width}`);
    const treeId = await importedTree(request, user.token);
    await loginInBrowser(page, user.token);
    await page.setViewportSize({ width, height });
    await page.goto(`/trees/${treeId}`);
    await expect(page.getByText("Mortimer", { exact: false }).first()).toBeVisible({ timeout: 30_000 });
    const dialog = page.locator("[data-update-from-save-dialog]");

    // a save of strangers: said plainly, Cancel is the way out, nothing is written
    await updateFromSave(page, width, strangers());
    await expect(dialog.locator("[data-sync-no-sim-in-common]")).toContainText("shares no Sim with this tree", {
      timeout: 30_000,
    });
    await expect(dialog.getByRole("button", { name: "Update the tree" })).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Add them anyway" })).not.toBeFocused();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    expect(await firstNames(request, user.token, treeId)).toEqual(["Bella", "Mortimer"]);

    // a newer save: previewed, confirmed, then undone from the dialog
    await updateFromSave(page, width, newer());
    await expect(dialog.locator("[data-sync-to-add]")).toHaveText("Alexander Goth", { timeout: 30_000 });
    await dialog.getByRole("button", { name: "Update the tree" }).click();
    await expect(dialog.getByRole("heading", { name: "Updated from the save" })).toBeVisible({ timeout: 30_000 });
    expect(await firstNames(request, user.token, treeId)).toEqual(["Alexander", "Bella", "Mortimer"]);
    await dialog.getByRole("button", { name: "Undo this update" }).click();
    await expect(dialog.locator("[data-sync-undone]")).toBeVisible({ timeout: 30_000 });
    expect(await firstNames(request, user.token, treeId)).toEqual(["Bella", "Mortimer"]);
    const versions = (await (await request.get(`/api/trees/${treeId}/versions`, { headers: bearer(user.token) })).json()) as {
      versions: { reason: string }[];
    };
    expect(versions.versions.map((v) => v.reason)).toEqual(["restore", "sync"]);
    await dialog.getByRole("button", { name: "Show the tree" }).click();
    await expect(page.getByText("Mortimer", { exact: false }).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("Alexander", { exact: false })).toHaveCount(0);
  });
}
