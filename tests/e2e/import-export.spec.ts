// Import and export in real Chromium (issue 6): a Plum Tree backup ZIP imported through the import
// page (with its progress bar), the tree on the canvas, the editor's Actions menu exporting PNG and
// SVG images made in the browser (size, embedded font and avatar), the backup and GEDCOM files, and
// the home page's way in for Plum Tree players.
import fs from "node:fs/promises";
import { expect, test, type Download, type Page } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import sharp from "sharp";
import type { Person } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { layoutTree } from "@/lib/tree/layout";
import { getTree } from "./support/editor";
import { bearer, loginInBrowser, signUpViaApi } from "./support/session";

const EXPORT_MARGIN = 24;

const ref = (_id: string) => ({ _id });
const plumNode = (personId: string, extra: Partial<TreeNode> = {}): TreeNode => ({
  ...emptyNode(),
  person: ref(personId),
  ...extra,
});

/** A backup ZIP in The Plum Tree's documented layout, with two avatars and a cover. */
async function plumTreeZip(): Promise<Buffer> {
  const png = (color: { r: number; g: number; b: number }) =>
    sharp({ create: { width: 240, height: 240, channels: 3, background: color } })
      .png()
      .toBuffer();
  const people = [
    { _id: "p1", firstName: "Bella", lastName: "Goth", avatar: "avatar/bella.png" },
    { _id: "p2", firstName: "Mortimer", lastName: "Goth", avatar: "avatar/mortimer.png" },
    { _id: "p3", firstName: "Cassandra", lastName: "Goth", avatar: null },
    { _id: "p4", firstName: "Alexander", lastName: "Goth & <Sons>", avatar: null },
  ].map((person) => ({
    ...person,
    tree: "plum-tree-1",
    bio: "<p>A Goth.</p>",
    traits: [],
    aspirations: [],
    lifeStates: [],
    custom: [],
    links: [],
  }));
  const data = plumNode("p1", {
    partners: [{ type: "MARRIED", people: [ref("p2")] }],
    children: [
      plumNode("p3", { parents: [ref("p1"), ref("p2")] }),
      plumNode("p4", { parents: [ref("p1"), ref("p2")] }),
    ],
  });
  const tree = {
    _id: "plum-tree-1",
    title: "The Goth Legacy",
    description: "<p>Pleasantview's finest.</p>",
    cover: null,
    data,
  };
  return Buffer.from(
    zipSync({
      "tree.html": strToU8("<!doctype html><title>The Goth Legacy</title>"),
      "data/tree.js": strToU8(`var tree=${JSON.stringify(tree)}`),
      "data/people.js": strToU8(`var people=${JSON.stringify(people)}`),
      "images/bella.png": await png({ r: 200, g: 30, b: 60 }),
      "images/mortimer.png": await png({ r: 30, g: 60, b: 200 }),
    }),
  );
}

async function downloaded(download: Download): Promise<Buffer> {
  const file = await download.path();
  return fs.readFile(file);
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function openActions(page: Page) {
  await page.getByRole("button", { name: "Actions", exact: true }).click();
}

async function exportImage(
  page: Page,
  options: { format: "PNG" | "SVG"; part?: "Whole tree" | "Visible part"; scale: string },
) {
  await openActions(page);
  await page.getByRole("button", { name: "Export image" }).click();
  const dialog = page.getByRole("dialog", { name: "Export image" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("radio", { name: options.format }).check();
  await dialog.getByRole("radio", { name: options.part ?? "Whole tree" }).check();
  await dialog.getByLabel("Scale").selectOption(options.scale);
  const size = await dialog.locator("[data-export-size]").getAttribute("data-export-size");
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: `Export ${options.format}` }).click();
  const download = await downloading;
  await expect(dialog).toBeHidden();
  return { download, size: size! };
}

test("a Plum Tree backup imports with a progress bar, and the tree exports as PNG, SVG, ZIP and GEDCOM", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const user = await signUpViaApi(request, "importer");
  await loginInBrowser(page, user.token);

  // The home page leads Plum Tree players to the import page.
  await page.goto("/");
  const section = page.getByRole("region", { name: "Coming from The Plum Tree?" });
  await expect(section).toContainText("backup ZIP");
  await section.getByRole("link", { name: "Import your backup" }).click();
  await expect(page).toHaveURL(/\/trees\/import$/);
  // The static segment wins over /trees/[treeId]: this is the import page, not an editor.
  await expect(page.getByRole("heading", { name: "Import a Tree" })).toBeVisible();

  // The server's answer is held back until the progress bar has been seen.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/trees/import*", async (route) => {
    await held;
    await route.continue();
  });
  await page.locator('input[type="file"]').setInputFiles({
    name: "goth-legacy.zip",
    mimeType: "application/zip",
    buffer: await plumTreeZip(),
  });
  await expect(page.getByText("goth-legacy.zip")).toBeVisible();
  await page.getByLabel("Title (optional)").fill("Goths Imported");
  await page.getByRole("button", { name: "Import Tree" }).click();
  const progress = page.getByRole("progressbar", { name: "Import progress" });
  await expect(progress).toBeVisible();
  release();

  // The new tree opens in the editor, is listed in the side navigation and its Sims are drawn.
  await expect(page).toHaveURL(/\/trees\/(?!import$)[^/]+$/, { timeout: 30_000 });
  await expect(page.getByText(/Tree imported: 4 Sims and 2 images/)).toBeVisible();
  const treeId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByRole("link", { name: "Goths Imported" }).first()).toHaveAttribute(
    "href",
    `/trees/${treeId}`,
  );
  const canvas = page.getByRole("application", { name: "Family tree: Goths Imported" });
  for (const name of ["Bella Goth", "Mortimer Goth", "Cassandra Goth", "Alexander Goth & <Sons>"]) {
    await expect(canvas.getByRole("button", { name, exact: true })).toBeVisible();
  }

  // The expected size of the whole tree, from the same layout the editor draws.
  const tree: Tree = await getTree(request, user.token, treeId);
  const peopleResponse = await request.get(`/api/people?tree=${treeId}`, {
    headers: bearer(user.token),
  });
  const people = (await peopleResponse.json()) as Person[];
  const layout = layoutTree(tree.data, new Map(people.map((p) => [p._id, p])));
  const whole = (scale: number) => ({
    width: Math.round((layout.bounds.maxX - layout.bounds.minX + 2 * EXPORT_MARGIN) * scale),
    height: Math.round((layout.bounds.maxY - layout.bounds.minY + 2 * EXPORT_MARGIN) * scale),
  });

  // PNG of the whole tree at 2×: the file's own header has the size the dialog announced.
  const png = await exportImage(page, { format: "PNG", scale: "2" });
  expect(png.download.suggestedFilename()).toBe("goths-imported.png");
  const pngBytes = await downloaded(png.download);
  expect(pngSize(pngBytes)).toEqual(whole(2));
  expect(png.size).toBe(`${whole(2).width}x${whole(2).height}`);
  // It is a real drawing: Bella's red avatar is in it.
  const { data, info } = await sharp(pngBytes).raw().toBuffer({ resolveWithObject: true });
  let red = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (data[i]! > 170 && data[i + 1]! < 70 && data[i + 2]! < 90) red += 1;
  }
  expect(red).toBeGreaterThan(1000);

  // The visible part at 1× is the canvas's own size (the editor opens at 100%).
  const box = (await canvas.boundingBox())!;
  const visible = await exportImage(page, { format: "PNG", part: "Visible part", scale: "1" });
  expect(pngSize(await downloaded(visible.download))).toEqual({
    width: Math.round(box.width),
    height: Math.round(box.height),
  });

  // SVG: stands alone, with the font and the avatars embedded and the names escaped.
  const svgExport = await exportImage(page, { format: "SVG", scale: "1" });
  expect(svgExport.download.suggestedFilename()).toBe("goths-imported.svg");
  const svg = (await downloaded(svgExport.download)).toString("utf8");
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(svg).toContain(`width="${whole(1).width}" height="${whole(1).height}"`);
  expect(svg).toMatch(
    /@font-face\{font-family:"Heirloom Export";src:url\(data:font\/ttf;base64,[A-Za-z0-9+/]{1000,}/,
  );
  expect(svg).toMatch(/<image href="data:image\/png;base64,[A-Za-z0-9+/]{100,}/);
  // A node is as wide as its names now, so this one is no longer cut
  expect(svg).toContain("Goth &amp; &lt;Sons&gt;");
  for (const [, href] of svg.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^data:/);
  expect((await sharp(Buffer.from(svg)).metadata()).width).toBe(whole(1).width);

  // The backup ZIP and the GEDCOM file come from the server, with the token.
  await openActions(page);
  const zipDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export backup" }).click();
  const zip = await downloaded(await zipDownload);
  expect(zip.subarray(0, 2).toString("latin1")).toBe("PK");

  await openActions(page);
  const gedcomDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export GEDCOM" }).click();
  const gedcom = await gedcomDownload;
  expect(gedcom.suggestedFilename()).toMatch(/\.ged$/);
  expect((await downloaded(gedcom)).toString("utf8").replace(/^\uFEFF/, "")).toMatch(/^0 HEAD/);
});

test("a file that cannot be imported shows the server's reason and creates nothing", async ({
  page,
  request,
}) => {
  const user = await signUpViaApi(request, "badimport");
  await loginInBrowser(page, user.token);
  await page.goto("/trees/import");
  const zone = page.locator("[data-drop-zone]");
  // Dropped rather than chosen: the drop zone takes the file too.
  const dataTransfer = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(
      new File(["this is not a backup"], "notes.zip", { type: "application/zip" }),
    );
    return transfer;
  });
  await zone.dispatchEvent("drop", { dataTransfer });
  await expect(page.getByText("notes.zip")).toBeVisible();
  await page.getByRole("button", { name: "Import Tree" }).click();
  const alert = page.locator("[data-import-error]");
  await expect(alert).toHaveAttribute("role", "alert", { timeout: 30_000 });
  await expect(alert).toHaveText(/\S/);
  expect(await alert.textContent()).not.toBe("Unknown error occurred importing the tree");
  const response = await request.get("/api/trees", { headers: bearer(user.token) });
  expect(await response.json()).toEqual([]);
  await expect(page).toHaveURL(/\/trees\/import$/);
});

test("the editor's small-screen menu has the import and export actions", async ({
  page,
  request,
}) => {
  const user = await signUpViaApi(request, "mobilemenu");
  const created = await request.post("/api/trees", {
    data: { title: "Pocket Legacy" },
    headers: bearer(user.token),
  });
  const tree = (await created.json()) as Tree;
  await page.setViewportSize({ width: 420, height: 800 });
  await loginInBrowser(page, user.token);
  await page.goto(`/trees/${tree._id}`);
  await page.getByRole("button", { name: "Editor menu" }).click();
  const menu = page.getByRole("navigation", { name: "Editor menu" });
  await expect(menu.getByRole("link", { name: "Import" })).toHaveAttribute("href", "/trees/import");
  for (const name of ["Export backup", "Export GEDCOM", "Export image"]) {
    await expect(menu.getByRole("button", { name })).toBeVisible();
  }
  await menu.getByRole("button", { name: "Export image" }).click();
  await expect(page.getByRole("dialog", { name: "Export image" })).toBeVisible();
});
