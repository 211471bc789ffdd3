// Finding your way in a big legacy (issue 26), in the public view and the editor, on a laptop and
// a phone: Find a Sim by a lower-case, accent-free spelling centres a Sim that starts far
// off-screen and opens their panel with their generation; "How are they related?" names a first
// cousin, a great-grandparent, an aunt and a sibling-in-law; heirs are marked (one per
// generation) and "Show heir line" highlights the line; the "other places" marker jumps between
// a Sim's placements.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";
import { createPersonViaApi, createTreeViaApi, node, publishViaApi } from "./tree-fixtures";
import { docScreenshot } from "./support/screenshots";
import { bearer, loginInBrowser, signUpViaApi } from "./support/session";

const VIEWPORTS = [
  { name: "1440", width: 1440, height: 900 },
  { name: "390", width: 390, height: 844 },
];

const NAMES = {
  ada: ["Ada", "Calloway", "Female"],
  ben: ["Ben", "Calloway", "Male"],
  cora: ["Cora", "Calloway", "Female"],
  ed: ["Ed", "Park", ""],
  dev: ["Dev", "Calloway", "Male"],
  fay: ["Fay", "Calloway", ""],
  kit: ["Kit", "Park-Calloway", ""],
  gus: ["Gus", "Park-Calloway", ""],
  eli: ["Eli", "Calloway", ""],
  ivy: ["Ivy", "Calloway", ""],
  lux: ["Lux", "Calloway", ""],
  mo: ["Mo", "Calloway", ""],
  nia: ["Nia", "Calloway", ""],
  oda: ["Oda", "Calloway", ""],
  pim: ["Pim", "Calloway", ""],
  juno: ["Jünö", "Calloway", ""],
} as const;
type Key = keyof typeof NAMES;

/**
 * The Calloway legacy: nine generations down Eli's line, so that Jünö starts far below the view;
 * Gus, Kit's brother, married his cousin Ivy and is drawn twice (his own node and hers).
 */
async function calloways(request: APIRequestContext) {
  const user = await signUpViaApi(request, "findway");
  const tree = await createTreeViaApi(request, user.token, { title: "The Calloway Legacy" });
  const entries = Object.entries(NAMES) as [Key, (typeof NAMES)[Key]][];
  const created = await Promise.all(
    entries.map(([, [firstName, lastName, gender]]) =>
      createPersonViaApi(request, user.token, tree._id, {
        firstName,
        lastName,
        custom: gender ? [{ title: "Gender", value: gender }] : [],
      }),
    ),
  );
  const p = Object.fromEntries(entries.map(([key], at) => [key, created[at]!])) as Record<
    Key,
    Person
  >;
  const ref = (key: Key) => ({ _id: p[key]._id });
  const chain = (keys: Key[]): TreeNode[] => {
    const [first, ...rest] = keys;
    return first ? [node(p[first], { children: chain(rest) })] : [];
  };
  const data = node(p.ada, {
    partners: [{ type: "MARRIED", people: [ref("ben")] }],
    children: [
      node(p.cora, {
        parents: [ref("ada"), ref("ben")],
        partners: [{ type: "MARRIED", people: [ref("ed")] }],
        children: [
          node(p.kit, { parents: [ref("cora"), ref("ed")] }),
          node(p.gus, { parents: [ref("cora"), ref("ed")] }),
        ],
      }),
      node(p.dev, {
        parents: [ref("ada"), ref("ben")],
        partners: [{ type: "PARTNER", people: [ref("fay")] }],
        children: [
          node(p.ivy, {
            parents: [ref("dev"), ref("fay")],
            partners: [{ type: "MARRIED", people: [ref("gus")] }],
          }),
          node(p.eli, {
            parents: [ref("dev"), ref("fay")],
            children: chain(["lux", "mo", "nia", "oda", "pim", "juno"]),
          }),
        ],
      }),
    ],
  });
  const saved = await request.patch(`/api/trees/${tree._id}`, {
    data: { data },
    headers: bearer(user.token),
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  return { user, tree, p };
}

/** Node keys of the legacy above: child indices joined with ".". */
const KEYS = { gusHome: "0.1", ivy: "1.0", juno: "1.1.0.0.0.0.0.0" };

const canvasOf = (page: Page) => page.getByRole("application", { name: /Family tree/ });
const findField = (page: Page) => page.getByRole("combobox", { name: "Find a Sim" });
const panelOf = (page: Page, name: string) =>
  page.getByRole("complementary", { name, exact: true });

async function find(page: Page, typed: string, option: string) {
  const field = findField(page);
  await field.fill(typed);
  await expect(page.getByRole("option", { name: new RegExp(`^${option}`) }).first()).toBeVisible();
  await expect(page.getByRole("listbox").getByRole("option").first()).toContainText(option);
  // on a phone the focused field spans the screen, so what is typed can be read, its list under it
  const width = page.viewportSize()!.width;
  if (width < 640) expect((await field.boundingBox())!.width).toBeGreaterThan(width - 40);
  await expect(page.getByRole("listbox").getByRole("option").first()).toBeInViewport({ ratio: 1 });
  await field.press("Enter");
}

async function relate(
  page: Page,
  [panelTyped, panelName]: [string, string],
  [typed, option]: [string, string],
  sentence: string,
) {
  await find(page, panelTyped, panelName);
  const panel = panelOf(page, panelName);
  await expect(panel).toBeVisible();
  await panel.getByRole("button", { name: "How are they related?" }).click();
  await expect(findField(page)).toBeFocused();
  await find(page, typed, option);
  await expect(panel.getByRole("status").filter({ hasText: sentence })).toHaveText(sentence);
}

/** The Sim's button on the canvas is on screen (not culled and inside the viewport). */
async function expectOnScreen(page: Page, personId: string, nodeKey: string) {
  const sim = page.locator(`[data-node-key="${nodeKey}"] [data-person-id="${personId}"]`);
  await expect(sim).toBeInViewport();
}

async function expectOffScreen(page: Page, personId: string) {
  const sims = page.locator(`[data-person-id="${personId}"]`);
  if ((await sims.count()) > 0) await expect(sims.first()).not.toBeInViewport();
}

async function findJuno(page: Page, p: Record<Key, Person>) {
  await expectOffScreen(page, p.juno._id);
  await canvasOf(page).focus();
  await page.keyboard.press("/");
  await expect(findField(page)).toBeFocused();
  await find(page, "juno", "Jünö Calloway");
  await expect(canvasOf(page)).toHaveAttribute("data-centred-key", KEYS.juno);
  await expectOnScreen(page, p.juno._id, KEYS.juno);
  const panel = panelOf(page, "Jünö Calloway");
  await expect(panel).toBeVisible();
  await expect(panel.getByText("Generation 9", { exact: true })).toBeVisible();
}

async function checkRelations(page: Page, p: Record<Key, Person>) {
  await relate(
    page,
    ["eli", "Eli Calloway"],
    ["kit", "Kit Park-Calloway"],
    "Kit Park-Calloway is Eli Calloway's first cousin.",
  );
  // the path between them is highlighted on the canvas, from Kit (centred) up through Cora
  await expect(page.locator(`[data-person-id="${p.kit._id}"] [data-on-path]`)).toHaveCount(1);
  await expect(page.locator(`[data-person-id="${p.cora._id}"] [data-on-path]`)).toHaveCount(1);
  await expect(page.locator(`[data-person-id="${p.gus._id}"] [data-on-path]`)).toHaveCount(0);
  await relate(
    page,
    ["lux", "Lux Calloway"],
    ["ada", "Ada Calloway"],
    "Ada Calloway is Lux Calloway's great-grandmother.",
  );
  await relate(
    page,
    ["eli", "Eli Calloway"],
    ["cora", "Cora Calloway"],
    "Cora Calloway is Eli Calloway's aunt.",
  );
  await relate(
    page,
    ["dev", "Dev Calloway"],
    ["ed p", "Ed Park"],
    "Ed Park is Dev Calloway's sibling-in-law.",
  );
}

async function checkOtherPlaces(page: Page, p: Record<Key, Person>) {
  await find(page, "gus", "Gus Park-Calloway");
  await expect(canvasOf(page)).toHaveAttribute("data-centred-key", KEYS.gusHome);
  await page.getByRole("button", { name: "Close", exact: true }).click();
  const marker = page
    .locator(`[data-node-key="${KEYS.gusHome}"]`)
    .getByRole("button", { name: "also in 1 other place" });
  await marker.hover();
  // the other placement is outlined (on a laptop it is in view; on a phone it may be culled)
  const ivyNode = page.locator(`[data-node-key="${KEYS.ivy}"]`);
  if (page.viewportSize()!.width >= 1000 || (await ivyNode.count()) > 0) {
    await expect(page.locator(`[data-node-key="${KEYS.ivy}"][data-outlined]`)).toHaveCount(1);
  }
  await marker.focus();
  await page.keyboard.press("Enter");
  await expect(canvasOf(page)).toHaveAttribute("data-centred-key", KEYS.ivy);
  await expect(page.locator(`[data-node-key="${KEYS.ivy}"][data-focused]`)).toHaveCount(1);
  await expectOnScreen(page, p.gus._id, KEYS.ivy);
  // and back again from the other placement
  await page
    .locator(`[data-node-key="${KEYS.ivy}"]`)
    .getByRole("button", { name: "also in 1 other place" })
    .click();
  await expect(canvasOf(page)).toHaveAttribute("data-centred-key", KEYS.gusHome);
}

async function expectHeirLine(page: Page, p: Record<Key, Person>, heirs: Key[]) {
  const button = page.getByRole("button", { name: "Show heir line" });
  await button.click();
  await expect(button).toHaveAttribute("aria-pressed", "true");
  // the whole tree in view, so that every node of the line is drawn
  await canvasOf(page).focus();
  await page.keyboard.press("f");
  // one line drawn from the founder through each heir (issue 33), not rings
  const line = page.locator("[data-heir-line]");
  await expect(line).toHaveCount(1);
  const sims = ((await line.getAttribute("data-sims")) ?? "").split(" ");
  expect(sims[0]).toBe(p.ada._id);
  for (const key of heirs) expect(sims).toContain(p[key]._id);
  // Kit's branch is not on the line
  expect(sims).not.toContain(p.kit._id);
  await expect(page.locator("[data-on-path]")).toHaveCount(0);
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    // many steps, each a round trip on a shared, busy machine
    test.setTimeout(600_000);

    test("the public view: find, generations, relations, heir line, other places", async ({
      page,
      request,
    }) => {
      const { user, tree, p } = await calloways(request);
      const heirs = await request.put(`/api/trees/${tree._id}/heirs`, {
        data: { heirs: [p.dev._id, p.eli._id, p.lux._id] },
        headers: bearer(user.token),
      });
      expect(heirs.ok(), await heirs.text()).toBe(true);
      await publishViaApi(request, user.token, tree._id);

      await page.goto(`/public/${tree._id}`);
      await expect(canvasOf(page)).toBeVisible();
      await findJuno(page, p);
      await expect(page).toHaveURL(new RegExp(`\\?p=${p.juno._id}$`));
      await docScreenshot(page, `find-public-${viewport.name}.png`);

      await checkRelations(page, p);
      await docScreenshot(page, `relation-public-${viewport.name}.png`);
      await page.getByRole("button", { name: "Close" }).click();

      await expect(page.getByRole("img", { name: "Heir of generation 3" }).first()).toBeAttached();
      await expectHeirLine(page, p, ["dev", "eli", "lux"]);
      await docScreenshot(page, `heir-line-public-${viewport.name}.png`);
      await page.getByRole("button", { name: "Show heir line" }).click();

      await checkOtherPlaces(page, p);
    });

    test("the editor: find, generations, relations, marking heirs, heir line, other places", async ({
      page,
      request,
    }) => {
      const { user, tree, p } = await calloways(request);
      await loginInBrowser(page, user.token);
      await page.goto(`/trees/${tree._id}`);
      await expect(canvasOf(page)).toBeVisible();
      await findJuno(page, p);
      await docScreenshot(page, `find-editor-${viewport.name}.png`);

      await checkRelations(page, p);
      await docScreenshot(page, `relation-editor-${viewport.name}.png`);

      // Heirs: one per generation; marking Ivy moves generation 3's mark from Eli to her.
      const markHeir = async (name: string, typed: string) => {
        await find(page, typed, name);
        const panel = panelOf(page, name);
        await panel.getByRole("checkbox", { name: "Heir" }).check();
        await expect(panel.getByRole("checkbox", { name: "Heir" })).toBeChecked();
      };
      await markHeir("Dev Calloway", "dev");
      await markHeir("Eli Calloway", "eli");
      await markHeir("Lux Calloway", "lux");
      await markHeir("Ivy Calloway", "ivy");
      // the editor says whose mark moved (issue 33)
      await expect(
        page.getByText(
          "Ivy Calloway is now the heir of generation 3; Eli Calloway is no longer heir.",
        ),
      ).toBeVisible();
      await find(page, "eli", "Eli Calloway");
      await expect(
        panelOf(page, "Eli Calloway").getByRole("checkbox", { name: "Heir" }),
      ).not.toBeChecked();
      await expect(
        page
          .locator(`[data-person-id="${p.ivy._id}"]`)
          .locator("..")
          .getByRole("img", { name: "Heir of generation 3" }),
      ).toHaveCount(1);
      await markHeir("Eli Calloway", "eli");
      await expect
        .poll(async () => {
          const response = await request.get(`/api/trees/${tree._id}/heirs`, {
            headers: bearer(user.token),
          });
          return ((await response.json()) as { heirs: string[] }).heirs;
        })
        .toEqual([p.dev._id, p.eli._id, p.lux._id]);
      await page.getByRole("button", { name: "Close", exact: true }).click();
      await expectHeirLine(page, p, ["dev", "eli", "lux"]);
      await docScreenshot(page, `heir-line-editor-${viewport.name}.png`);
      await page.getByRole("button", { name: "Show heir line" }).click();

      await checkOtherPlaces(page, p);
      await docScreenshot(page, `other-places-editor-${viewport.name}.png`);
    });
  });
}
