// A GEDCOM file with faults imports through the import page (issue 13): the page then lists what
// the import read past (counted by kind, with line numbers) and opens the tree on request, titled
// after the chosen file.
import { expect, test } from "@playwright/test";
import { docScreenshot } from "./support/screenshots";
import { bearer, loginInBrowser, signUpViaApi } from "./support/session";

/** Two families, 40 pointers to missing families and a record id on a CONT line, in UTF-16LE. */
function damagedGedcom(): Buffer {
  const lines = [
    "0 HEAD",
    "1 SOUR Legacy",
    "2 NAME Legacy 9.0",
    "1 FILE Legacy 9.0",
    "1 GEDC",
    "2 VERS 5.5.1",
  ];
  lines.push(
    "0 @I1@ INDI",
    "1 NAME Ada /Byron/",
    "1 SEX F",
    "1 BIRT",
    "2 DATE 10 DEC 1815",
    "2 PLAC London",
  );
  lines.push("1 FAMS @F1@", "1 NOTE Wrote the first program.", "2 @N149@ CONT With Babbage.");
  lines.push("0 @I2@ INDI", "1 NAME William /King/", "1 FAMS @F1@");
  lines.push("0 @I3@ INDI", "1 NAME Byron /King/", "1 FAMC @F1@");
  lines.push("0 @F1@ FAM", "1 HUSB @I2@", "1 WIFE @I1@", "1 CHIL @I3@", "1 MARR Y");
  for (let i = 10; i < 50; i += 1)
    lines.push(`0 @I${i}@ INDI`, `1 NAME Stray${i} /Other/`, `1 FAMC @F${i}@`);
  lines.push("0 TRLR", "");
  return Buffer.from(lines.join("\r\n"), "utf16le");
}

test("a damaged GEDCOM imports, and the import page lists what it read past", async ({
  page,
  request,
}) => {
  const user = await signUpViaApi(request, "gedwarn");
  await loginInBrowser(page, user.token);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/trees/import");
  await page.locator('input[type="file"]').setInputFiles({
    name: "Byron family.ged",
    mimeType: "application/octet-stream",
    buffer: damagedGedcom(),
  });
  await page.getByRole("button", { name: "Import Tree" }).click();

  const notes = page.locator("[data-import-notes]");
  await expect(notes).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Tree imported" })).toBeVisible();
  await expect(notes.getByRole("listitem")).toHaveText([
    "1 continuation line (CONT or CONC) has a record id, like 1 @N1@ CONT; it was read as continuations, without the id: line 15.",
    "40 pointers refer to records that are not in the file; they were left out: lines 29, 32, 35, 38, 41 and 35 more.",
  ]);
  await expect(page.getByText("43 Sims in 41 families")).toBeVisible();
  await docScreenshot(page, "gedcom-import-notes-1440.png", { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await docScreenshot(page, "gedcom-import-notes-390.png", { fullPage: true });

  const trees = (await (
    await request.get("/api/trees", { headers: bearer(user.token) })
  ).json()) as { _id: string; title: string }[];
  expect(trees.map((t) => t.title)).toEqual(["Byron family"]);
  await page.getByRole("link", { name: "Open the tree" }).click();
  await expect(page).toHaveURL(new RegExp(`/trees/${trees[0]!._id}$`));
});
