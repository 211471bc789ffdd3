// A Sims 4 save imports through the import page (issue 24): the page lists the save's households,
// the active one first, previews who comes in, imports the chosen ones (issue 34: several into one
// tree, found by a search) and opens the tree in the editor.
import { expect, test } from "@playwright/test";
import { writeSave } from "@/lib/sims4/testing";
import { docScreenshot } from "./support/screenshots";
import { bearer, loginInBrowser, signUpViaApi } from "./support/session";

const BIG = 2n ** 60n;
const id = (n: number) => BIG + BigInt(n);

function legacySave(): Buffer {
  const hh = id(100);
  const other = id(200);
  return Buffer.from(
    writeSave({
      activeHouseholdId: hh,
      households: [
        { id: other, name: "Neighbours" },
        { id: hh, name: "Goth" },
      ],
      treeNodes: [{ id: id(90), firstName: "Gunther", lastName: "Goth", gender: 4096 }],
      sims: [
        { id: id(1), householdId: hh, firstName: "Bella", lastName: "Goth", gender: 8192, age: 32, spouse: id(2), traits: [27454] },
        { id: id(2), householdId: hh, firstName: "Mortimer", lastName: "Goth", gender: 4096, age: 32, spouse: id(1), relations: [[1, id(90)]] },
        { id: id(3), householdId: hh, firstName: "Cassandra", lastName: "Goth", gender: 8192, age: 8, relations: [[0, id(1)], [1, id(2)]] },
        { id: id(4), householdId: hh, firstName: "Alexander", lastName: "Goth", gender: 4096, age: 4, relations: [[0, id(1)], [1, id(2)]] },
        { id: id(5), householdId: other, firstName: "Nina", lastName: "Calienté", gender: 8192, age: 32 },
      ],
    }),
  );
}

test.setTimeout(240_000);

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`a Sims 4 save imports a household at ${width}x${height}`, async ({ page, request }) => {
    const user = await signUpViaApi(request, `sims4${width}`);
    await loginInBrowser(page, user.token);
    await page.setViewportSize({ width, height });
    await page.goto("/trees/import");
    // the household list's answer is held back: Import waits for it (issue 34: it imported the
    // active household while "Reading the save's households…" still showed)
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/trees/import/households", async (route) => {
      await held;
      await route.continue();
    });
    await page.locator('input[type="file"]').first().setInputFiles({
      name: "Slot_00000001.save",
      mimeType: "application/octet-stream",
      buffer: legacySave(),
    });
    await expect(page.locator("[data-sims4-reading]")).toBeVisible();
    await expect(page.getByRole("button", { name: "Import Tree" })).toBeDisabled();
    release();
    const households = page.locator("[data-sims4-households]");
    await expect(households).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("button", { name: "Import Tree" })).toBeEnabled();
    const options = households.getByRole("checkbox");
    await expect(options).toHaveCount(2);
    // the active household first, and chosen; each row names who lives there
    await expect(options.first()).toBeChecked();
    await expect(households.getByText("4 live here; 5 with their parents, partners and culled ancestors")).toBeVisible();
    await expect(households.getByText("Bella Goth, Mortimer Goth, Cassandra Goth, and Alexander Goth")).toBeVisible();
    await expect(page.locator("[data-sims4-preview]")).toContainText("Bella Goth, Mortimer Goth, Cassandra Goth, Alexander Goth, and Gunther Goth");
    await docScreenshot(page, `sims4-import-households-${width}.png`, { fullPage: true });

    // a second household, found by one of its Sims' names without the accent
    await households.getByLabel("Find a household or Sim").fill("nina caliente");
    await expect(options).toHaveCount(1);
    await options.first().check();
    await households.getByLabel("Find a household or Sim").fill("");
    await expect(options).toHaveCount(2);
    await expect(page.locator("[data-sims4-preview]")).toContainText("up to 6 Sims from 2 households");

    await page.getByRole("button", { name: "Import Tree" }).click();
    await expect(page).toHaveURL(/\/trees\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    const trees = (await (await request.get("/api/trees", { headers: bearer(user.token) })).json()) as {
      _id: string;
      title: string;
    }[];
    expect(trees.map((t) => t.title)).toEqual(["Goth, Neighbours"]);
    const people = (await (
      await request.get(`/api/people?tree=${trees[0]!._id}`, { headers: bearer(user.token) })
    ).json()) as { firstName: string; gameId: string | null }[];
    expect(people.map((p) => p.firstName).sort()).toEqual(["Alexander", "Bella", "Cassandra", "Gunther", "Mortimer", "Nina"]);
    await expect(page.getByText("Cassandra", { exact: false }).first()).toBeVisible({ timeout: 30_000 });
    await docScreenshot(page, `sims4-import-editor-${width}.png`);
  });
}

test("a save whose households cannot be read is not imported", async ({ page, request }) => {
  const user = await signUpViaApi(request, "sims4unread");
  await loginInBrowser(page, user.token);
  await page.goto("/trees/import");
  // issue 34: the form fell back to importing the save's active household without a word
  await page.route("**/api/trees/import/households", (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify({ errors: [{ detail: "The save could not be read. Try again." }] }),
    }),
  );
  await page.locator('input[type="file"]').first().setInputFiles({
    name: "Slot_00000001.save",
    mimeType: "application/octet-stream",
    buffer: legacySave(),
  });
  await expect(page.locator("[data-import-error]")).toHaveText("The save could not be read. Try again.");
  await expect(page.getByRole("button", { name: "Import Tree" })).toBeDisabled();
  const trees = (await (await request.get("/api/trees", { headers: bearer(user.token) })).json()) as unknown[];
  expect(trees).toEqual([]);
});
