// The public tree's page (issue 14): the tree fills the first screen on a laptop and on a phone,
// the wheel scrolls the page unless the canvas has focus or Ctrl is held, and ?p= opens that Sim's
// panel in view. The HTML is one cached page per publication, naming the first generations.
import { expect, test, type Page } from "@playwright/test";
import {
  createPersonViaApi,
  createTreeViaApi,
  node,
  publishViaApi,
  saveTreeDataViaApi,
} from "./tree-fixtures";
import { loginInBrowser, signUpViaApi } from "./support/session";

const VIEWPORTS = [
  { name: "laptop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

async function publishedLegacy(request: Parameters<typeof signUpViaApi>[0]) {
  const user = await signUpViaApi(request, "pubtree");
  const tree = await createTreeViaApi(request, user.token, {
    title: "The Wheel Legacy",
    description: `<p>${"A long family story. ".repeat(30)}</p>`,
  });
  const make = (firstName: string) =>
    createPersonViaApi(request, user.token, tree._id, { firstName, lastName: "Wheeler" });
  const [founder, partner, child, grandchild, adopted] = await Promise.all(
    ["Ada", "Bert", "Cleo", "Dora", "Emil"].map(make),
  );
  await saveTreeDataViaApi(
    request,
    user.token,
    tree._id,
    node(founder!, {
      partners: [{ type: "MARRIED", people: [{ _id: partner!._id }] }],
      children: [
        node(child!, { children: [node(grandchild!)] }),
        node(adopted!, { adoptiveParents: [{ _id: founder!._id }] }),
      ],
    }),
  );
  await publishViaApi(request, user.token, tree._id);
  return { treeId: tree._id, founder: founder!, grandchild: grandchild! };
}

const canvasOf = (page: Page) => page.getByRole("application", { name: /Family tree/ });

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("the tree is in view on load, and the wheel scrolls the page", async ({
      page,
      request,
    }, testInfo) => {
      const { treeId } = await publishedLegacy(request);
      await page.goto(`/public/${treeId}`);
      const canvas = canvasOf(page);
      await expect(canvas).toBeVisible();
      const box = (await canvas.boundingBox())!;
      expect(box.y).toBeLessThan(80);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 1);
      const founder = page.getByRole("button", { name: "Ada Wheeler" }).first();
      await expect(founder).toBeInViewport();
      await page.screenshot({ path: testInfo.outputPath(`public-${viewport.name}.png`) });

      // Over the canvas without focus: the page scrolls and the tree keeps its zoom.
      const scale = await canvas.getAttribute("data-scale");
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, 300);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      expect(await canvas.getAttribute("data-scale")).toBe(scale);
      await expect(page.getByRole("status").filter({ hasText: "hold Ctrl" })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`public-${viewport.name}-wheel.png`) });

      // With Ctrl held, the wheel zooms the tree instead.
      await page.evaluate(() => window.scrollTo(0, 0));
      const inView = (await canvas.boundingBox())!;
      await page.mouse.move(inView.x + inView.width / 2, inView.y + inView.height / 2);
      await page.keyboard.down("Control");
      await page.mouse.wheel(0, -200);
      await page.keyboard.up("Control");
      await expect.poll(() => canvas.getAttribute("data-scale")).not.toBe(scale);

      // Once the canvas has focus, the wheel zooms it too.
      const zoomed = await canvas.getAttribute("data-scale");
      await canvas.focus();
      await page.mouse.wheel(0, -200);
      await expect.poll(() => canvas.getAttribute("data-scale")).not.toBe(zoomed);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    });

    test("?p= centres that Sim with their panel open, in view", async ({
      page,
      request,
    }, testInfo) => {
      const { treeId, grandchild } = await publishedLegacy(request);
      await page.goto(`/public/${treeId}?p=${grandchild._id}`);
      const panel = page.getByRole("complementary", { name: "Dora Wheeler" });
      await expect(panel).toBeVisible();
      await expect(panel).toBeInViewport();
      await expect(page).toHaveURL(new RegExp(`\\?p=${grandchild._id}$`));
      await page.screenshot({ path: testInfo.outputPath(`public-${viewport.name}-p.png`) });
    });
  });
}

/** A line of 12 generations: too tall to be read fitted on any screen, so it opens on its root. */
async function publishedLongLine(request: Parameters<typeof signUpViaApi>[0]) {
  const user = await signUpViaApi(request, "publine");
  const tree = await createTreeViaApi(request, user.token, { title: "The Long Line" });
  const people = await Promise.all(
    Array.from({ length: 12 }, (_, generation) =>
      createPersonViaApi(request, user.token, tree._id, {
        firstName: `Gen${generation + 1}`,
        lastName: "Liner",
      }),
    ),
  );
  let data = node(people[11]!);
  for (let generation = 10; generation >= 0; generation -= 1) {
    data = node(people[generation]!, { children: [data] });
  }
  await saveTreeDataViaApi(request, user.token, tree._id, data);
  await publishViaApi(request, user.token, tree._id);
  return tree._id;
}

for (const viewport of VIEWPORTS) {
  test(`at ${viewport.width}x${viewport.height} the HTML draws the opening view where the canvas opens`, async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const treeId = await publishedLongLine(request);
    const size = { baseURL, viewport: { width: viewport.width, height: viewport.height } };
    // Without scripts: the Sims near the root are drawn, in the first screen.
    const plain = await browser.newContext({ ...size, javaScriptEnabled: false });
    const before = await plain.newPage();
    await before.goto(`/public/${treeId}`);
    const drawn = before.locator("[data-tree-preview]");
    await expect(drawn).toBeVisible();
    await expect(drawn.getByText("Gen1", { exact: true })).toBeInViewport();
    await expect(drawn.getByText("Gen3", { exact: true })).toBeInViewport();
    const root = (await drawn.locator('[data-node-key=""]').boundingBox())!;
    await before.screenshot({ path: testInfo.outputPath(`preview-${viewport.name}.png`) });
    await plain.close();

    // With scripts, the canvas replaces the drawing and puts the root at the same place.
    const live = await browser.newContext(size);
    const page = await live.newPage();
    await page.goto(`/public/${treeId}`);
    const canvas = canvasOf(page);
    await expect(canvas).toBeVisible();
    await expect(page.locator("[data-tree-preview]")).toHaveCount(0);
    const placed = (await canvas.locator('[data-node-key=""]').boundingBox())!;
    expect(Math.abs(placed.x - root.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(placed.y - root.y)).toBeLessThanOrEqual(1);
    expect(Math.abs(placed.width - root.width)).toBeLessThanOrEqual(1);
    await live.close();
  });
}

test("the HTML names the first generations and is cached per publication", async ({ request }) => {
  const { treeId } = await publishedLegacy(request);
  const response = await request.get(`/public/${treeId}`);
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers["cache-control"]).toMatch(
    /^public, max-age=0, s-maxage=60, stale-while-revalidate=\d+$/,
  );
  expect(headers.etag).toMatch(/^"[\w-]+"$/);
  const html = await response.text();
  // Without JavaScript: the names of the first generations, and the snapshot's address.
  for (const name of ["Ada Wheeler", "Bert Wheeler", "Cleo Wheeler", "Dora Wheeler"]) {
    expect(html).toContain(name);
  }
  const snapshot = /\/api\/published\/[\w-]+\/snapshot\/[0-9a-z]+/.exec(html)?.[0];
  expect(snapshot).toBeDefined();
  const json = await request.get(snapshot!);
  expect(json.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(((await json.json()) as { title: string }).title).toBe("The Wheel Legacy");

  const again = await request.get(`/public/${treeId}`, {
    headers: { "if-none-match": headers.etag! },
  });
  expect(again.status()).toBe(304);
});

test("the list labels adoptive parents", async ({ page, request }) => {
  const { treeId } = await publishedLegacy(request);
  await page.goto(`/public/${treeId}/list`);
  await expect(page.getByText("Adopted by Ada Wheeler")).toBeVisible();
  await expect(page.getByText("Adopted by")).toHaveCount(1);
});

test("the publish page speaks of the tree's real state, and opens the public page", async ({
  page,
  request,
  baseURL,
}) => {
  const user = await signUpViaApi(request, "pubcopy");
  const tree = await createTreeViaApi(request, user.token, { title: "Never Published" });
  await loginInBrowser(page, user.token);
  await page.goto(`/trees/${tree._id}/publish`);
  await expect(page.getByText("is not published.")).toBeVisible();
  await expect(page.getByText("Saving removes the public copy")).toHaveCount(0);
  await expect(page.getByText("This tree has no public copy.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Open public page" })).toHaveCount(0);

  await page.getByRole("checkbox", { name: "Is Public" }).check();
  await expect(
    page.getByText("Saving publishes a snapshot of your tree as it is now."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("is public.")).toBeVisible();
  const open = page.getByRole("link", { name: "Open public page" });
  await expect(open).toHaveAttribute("href", `${baseURL}/public/${tree._id}`);
  await expect(open).toHaveAttribute("target", "_blank");
  await expect(page.getByText("in place of the current public copy")).toBeVisible();
  await page.getByRole("checkbox", { name: "Is Public" }).uncheck();
  await expect(
    page.getByText("Saving removes the public copy, and its link stops working."),
  ).toBeVisible();
});
