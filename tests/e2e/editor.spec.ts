// The tree editor (issue 4) in real Chromium: a legacy built through the UI alone, hover
// highlighting, the details panel, Preview, links to other trees, the small-screen menu, keyboard
// pan and zoom, the 409 conflict between two tabs, and deleting the tree.
import { expect, test, type Locator, type Page } from "@playwright/test";
import type { TreeNode } from "@/lib/schemas/tree";
import {
  getTree,
  node,
  openEditor,
  putTreeData,
  ref,
  seedTree,
  waitForSaved,
} from "./support/editor";
import { loginInBrowser, signUpViaApi } from "./support/session";
import { publishViaApi, setLinksViaApi } from "./tree-fixtures";

const sim = (page: Page | Locator, name: string) => page.getByRole("button", { name, exact: true });
const nodeOf = (page: Page | Locator, name: string) =>
  page.getByRole("group", { name: `Node of ${name}`, exact: true });

/** Picks a Sim in one of the node editor's react-selects, found by its label. */
async function choose(scope: Locator, label: string, name: string) {
  const input = scope.getByLabel(label, { exact: true });
  await input.fill(name);
  await scope.page().getByRole("option", { name, exact: true }).click();
}

function nodeEditor(page: Page) {
  return page.getByRole("dialog", { name: "Edit Node" });
}

async function setNodePerson(page: Page, group: Locator, name: string) {
  await group.getByRole("button", { name: "Edit node" }).click();
  const dialog = nodeEditor(page);
  await dialog.getByRole("button", { name: "Set Node Person" }).click();
  await choose(dialog, "Sim", name);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByRole("button", { name: "Set Node Person" })).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(nodeOf(page, name)).toBeVisible();
}

const names = (data: TreeNode, people: Map<string, string>): unknown => ({
  person: data.person ? people.get(data.person._id) : null,
  partners: data.partners.map((row) => ({
    type: row.type,
    people: row.people.map((p) => people.get(p._id)),
  })),
  parentType: data.parentType,
  parents: data.parents.map((p) => people.get(p._id)),
  adoptiveParents: data.adoptiveParents.map((p) => people.get(p._id)),
  children: data.children.map((child) => names(child, people)),
});

test("a three-generation legacy built through the UI persists", async ({ page, request }) => {
  test.setTimeout(240_000);
  const user = await signUpViaApi(request, "legacy");
  const { tree, people } = await seedTree(request, user.token, "Founders Legacy", {
    root: { firstName: "Ada", lastName: "Founder" },
    spouse: { firstName: "Mara", lastName: "Spouse" },
    ex: { firstName: "Exa", lastName: "Former" },
    kid1: { firstName: "Kip", lastName: "Founder" },
    kid2: { firstName: "Lia", lastName: "Founder" },
    grand: { firstName: "Gus", lastName: "Founder" },
    doomed: { firstName: "Dee", lastName: "Doomed" },
    leaf: { firstName: "Lee", lastName: "Leaf" },
  });
  const byId = new Map(Object.values(people).map((p) => [p._id, p.firstName]));
  await loginInBrowser(page, user.token);
  const canvas = await openEditor(page, tree);

  // The root Sim, then two partner rows: MARRIED and EX_PARTNER.
  await setNodePerson(page, canvas.getByRole("group", { name: "Empty node" }), "Ada Founder");
  await nodeOf(canvas, "Ada Founder").getByRole("button", { name: "Edit node" }).click();
  const dialog = nodeEditor(page);
  await dialog.getByRole("button", { name: "Set Node Partners" }).click();
  await dialog.getByRole("button", { name: "Add Partner" }).click();
  const first = dialog.getByRole("group", { name: "Partner 1" });
  await first.getByLabel("Type").selectOption("MARRIED");
  await choose(first, "People", "Mara Spouse");
  await dialog.getByRole("button", { name: "Add Partner" }).click();
  const second = dialog.getByRole("group", { name: "Partner 2" });
  await second.getByLabel("Type").selectOption("EX_PARTNER");
  await choose(second, "People", "Exa Former");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Married: Mara Spouse; Ex-Partner: Exa Former")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  const rootNode = nodeOf(canvas, "Ada Founder");
  await expect(sim(rootNode, "Mara Spouse")).toBeVisible();
  await expect(sim(rootNode, "Exa Former")).toBeVisible();
  await expect(rootNode.locator('[data-partner-type="MARRIED"]')).toHaveCount(1);
  await expect(rootNode.locator('[data-partner-type="EX_PARTNER"]')).toHaveCount(1);

  // Two children, then a third that becomes a branch to delete.
  for (const name of ["Kip Founder", "Lia Founder", "Dee Doomed"]) {
    await rootNode.getByRole("button", { name: "Add child" }).click();
    await setNodePerson(page, canvas.getByRole("group", { name: "Empty node" }), name);
  }
  await nodeOf(canvas, "Kip Founder").getByRole("button", { name: "Add child" }).click();
  await setNodePerson(page, canvas.getByRole("group", { name: "Empty node" }), "Gus Founder");
  await nodeOf(canvas, "Dee Doomed").getByRole("button", { name: "Add child" }).click();
  await setNodePerson(page, canvas.getByRole("group", { name: "Empty node" }), "Lee Leaf");

  // Kip: conceived by Alien Abduction, adopted by Mara.
  await nodeOf(canvas, "Kip Founder").getByRole("button", { name: "Edit node" }).click();
  await dialog.getByRole("button", { name: "Set Node Parents" }).click();
  await dialog.getByLabel("Conception").selectOption({ label: "Alien Abduction" });
  await choose(dialog, "Biological Parents", "Ada Founder");
  await choose(dialog, "Biological Parents", "Exa Former");
  await choose(dialog, "Adoptive Parents", "Mara Spouse");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(
    dialog.getByText("Alien Abduction · Ada Founder, Exa Former · adopted by Mara Spouse"),
  ).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();

  // Delete Dee's branch: the confirmation warns that children go too.
  await nodeOf(canvas, "Dee Doomed").getByRole("button", { name: "Edit node" }).click();
  await dialog.getByRole("button", { name: "Delete This Node" }).click();
  const confirm = page.getByRole("dialog", { name: "Are you sure you want to delete this node?" });
  await expect(confirm).toContainText("children");
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(nodeOf(canvas, "Dee Doomed")).toHaveCount(0);
  await expect(nodeOf(canvas, "Lee Leaf")).toHaveCount(0);

  const expected = {
    person: "Ada",
    partners: [
      { type: "MARRIED", people: ["Mara"] },
      { type: "EX_PARTNER", people: ["Exa"] },
    ],
    parentType: "NONE",
    parents: [],
    adoptiveParents: [],
    children: [
      {
        person: "Kip",
        partners: [],
        parentType: "ABDUCTION",
        parents: ["Ada", "Exa"],
        adoptiveParents: ["Mara"],
        children: [
          {
            person: "Gus",
            partners: [],
            parentType: "NONE",
            parents: [],
            adoptiveParents: [],
            children: [],
          },
        ],
      },
      {
        person: "Lia",
        partners: [],
        parentType: "NONE",
        parents: [],
        adoptiveParents: [],
        children: [],
      },
    ],
  };
  await waitForSaved(page);
  await expect
    .poll(async () => names((await getTree(request, user.token, tree._id)).data, byId))
    .toEqual(expected);

  // After a reload the canvas shows the same legacy.
  await page.reload();
  await expect(canvas).toBeVisible();
  for (const name of ["Kip Founder", "Lia Founder", "Gus Founder"]) {
    await expect(nodeOf(canvas, name)).toBeVisible();
  }
  await expect(sim(nodeOf(canvas, "Ada Founder"), "Mara Spouse")).toBeVisible();
  await expect(nodeOf(canvas, "Dee Doomed")).toHaveCount(0);
  await nodeOf(canvas, "Kip Founder").getByRole("button", { name: "Edit node" }).click();
  await expect(
    dialog.getByText("Alien Abduction · Ada Founder, Exa Former · adopted by Mara Spouse"),
  ).toBeVisible();
});

/** A small legacy written through the API: Ada (married to Mara, ex of Exa) and two children. */
async function seedFamily(request: Parameters<typeof signUpViaApi>[0], token: string) {
  const seeded = await seedTree(request, token, "Seeded Legacy", {
    ada: {
      firstName: "Ada",
      lastName: "Seed",
      bio: "<p>Loves <strong>gardening</strong></p><script>window.hacked = 1</script>",
      traits: ["Creative", "Bookworm"],
      aspirations: ["Renaissance Sim"],
      lifeStates: ["Vampire"],
      custom: [{ title: "Career", value: "Astronaut" }],
    },
    mara: { firstName: "Mara", lastName: "Seed" },
    exa: { firstName: "Exa", lastName: "Former" },
    kip: { firstName: "Kip", lastName: "Seed", traits: ["Geek"] },
    lia: { firstName: "Lia", lastName: "Seed" },
  });
  const { ada, mara, exa, kip, lia } = seeded.people;
  const data = node(ada, {
    partners: [
      { type: "MARRIED", people: [ref(mara)] },
      { type: "EX_PARTNER", people: [ref(exa)] },
    ],
    children: [
      node(kip, { parentType: "ABDUCTION", parents: [ref(ada)], adoptiveParents: [ref(mara)] }),
      node(lia, { parents: [ref(ada), ref(exa)] }),
    ],
  });
  const version = await putTreeData(request, token, seeded.tree._id, data);
  return { ...seeded, data, version };
}

test("hovering a Sim highlights its parents and dims the others", async ({ page, request }) => {
  const user = await signUpViaApi(request, "hover");
  const { tree } = await seedFamily(request, user.token);
  await loginInBrowser(page, user.token);
  const canvas = await openEditor(page, tree);
  const root = nodeOf(canvas, "Ada Seed");
  const slot = (name: string) => sim(root, name).locator("xpath=..");

  await sim(canvas, "Kip Seed").hover();
  await expect(slot("Ada Seed")).toHaveAttribute("data-highlight", "parent");
  await expect(slot("Mara Seed")).toHaveAttribute("data-highlight", "parent");
  await expect(slot("Exa Former")).toHaveAttribute("data-highlight", "dimmed");

  await sim(canvas, "Lia Seed").hover();
  await expect(slot("Exa Former")).toHaveAttribute("data-highlight", "parent");
  await expect(slot("Mara Seed")).toHaveAttribute("data-highlight", "dimmed");

  await page.mouse.move(5, 300);
  await expect(root.locator("[data-highlight]")).toHaveCount(0);
});

test("the person details panel shows everything about a Sim", async ({ page, request }) => {
  const user = await signUpViaApi(request, "details");
  const { tree, people } = await seedFamily(request, user.token);
  await loginInBrowser(page, user.token);
  const canvas = await openEditor(page, tree);

  await sim(canvas, "Ada Seed").click();
  let panel = page.getByRole("complementary", { name: "Ada Seed" });
  await expect(panel.getByRole("heading", { name: "Ada Seed" })).toBeVisible();
  await expect(panel.locator("strong", { hasText: "gardening" })).toBeVisible();
  await expect(panel.locator("script")).toHaveCount(0);
  for (const value of ["Creative", "Bookworm", "Renaissance Sim", "Vampire"]) {
    await expect(panel.getByRole("listitem").filter({ hasText: value })).toBeVisible();
  }
  const more = panel.getByRole("region", { name: "More" });
  await expect(more.getByRole("row", { name: "Career Astronaut" })).toBeVisible();
  await expect(panel.getByRole("link", { name: "Edit" })).toHaveAttribute(
    "href",
    `/trees/${tree._id}/people/${people.ada._id}`,
  );

  const toggle = panel.getByRole("button", { name: "Show Link Details" });
  await expect(panel.getByText(people.ada._id)).toBeHidden();
  await toggle.click();
  await expect(panel.getByText(tree._id, { exact: true })).toBeVisible();
  await expect(panel.getByText(people.ada._id, { exact: true })).toBeVisible();
  await panel.getByRole("button", { name: "Hide Link Details" }).click();
  await expect(panel.getByText(people.ada._id, { exact: true })).toBeHidden();

  // Kip: Alien Abduction by Ada, adopted by Mara.
  await sim(canvas, "Kip Seed").click();
  panel = page.getByRole("complementary", { name: "Kip Seed" });
  const bio = panel.getByRole("region", { name: /Biological Parents/ });
  await expect(bio).toContainText("Alien Abduction");
  await expect(bio.getByRole("button", { name: "Ada Seed" })).toBeVisible();
  const adoptive = panel.getByRole("region", { name: "Adoptive Parents" });
  await expect(adoptive.getByRole("button", { name: "Mara Seed" })).toBeVisible();
  await expect(panel.getByRole("listitem").filter({ hasText: "Geek" })).toBeVisible();
  await panel.getByRole("button", { name: "Close" }).click();
  await expect(panel).toBeHidden();
});

test("Preview hides the node buttons and backgrounds", async ({ page, request }) => {
  const user = await signUpViaApi(request, "preview");
  const { tree } = await seedFamily(request, user.token);
  await loginInBrowser(page, user.token);
  const canvas = await openEditor(page, tree);
  await expect(canvas.getByRole("button", { name: "Edit node" })).toHaveCount(3);
  await expect(canvas.getByRole("button", { name: "Add child" })).toHaveCount(3);
  await expect(canvas.locator("[data-node-background]")).toHaveCount(3);

  await page.getByRole("checkbox", { name: "Preview" }).check();
  await expect(canvas.getByRole("button", { name: "Edit node" })).toHaveCount(0);
  await expect(canvas.getByRole("button", { name: "Add child" })).toHaveCount(0);
  await expect(canvas.locator("[data-node-background]")).toHaveCount(0);
  await sim(canvas, "Ada Seed").click();
  const panel = page.getByRole("complementary", { name: "Ada Seed" });
  await expect(panel.getByRole("link", { name: "Edit" })).toHaveCount(0);

  await page.getByRole("checkbox", { name: "Preview" }).uncheck();
  await expect(canvas.getByRole("button", { name: "Edit node" })).toHaveCount(3);
});

test("a Sim's link list goes to the linked Sim in another public tree", async ({
  page,
  request,
}) => {
  const user = await signUpViaApi(request, "links");
  const { tree, people } = await seedFamily(request, user.token);
  const other = await seedTree(request, user.token, "Cousins", {
    cousin: { firstName: "Cora", lastName: "Cousin", bio: "<p>The cousin</p>" },
  });
  await putTreeData(request, user.token, other.tree._id, node(other.people.cousin));
  await publishViaApi(request, user.token, other.tree._id);
  await setLinksViaApi(request, user.token, people.kip._id, [
    { title: "Cousin Cora", treeId: other.tree._id, personId: other.people.cousin._id },
  ]);

  await loginInBrowser(page, user.token);
  const canvas = await openEditor(page, tree);
  await expect(canvas.getByRole("button", { name: "Links of Ada Seed" })).toHaveCount(0);
  await canvas.getByRole("button", { name: "Links of Kip Seed" }).click();
  const list = canvas.getByRole("list", { name: "Links of Kip Seed" });
  const link = list.getByRole("link", { name: "Cousin Cora" });
  await expect(link).toHaveAttribute(
    "href",
    `/public/${other.tree._id}?p=${other.people.cousin._id}`,
  );
  await link.click();
  await expect(page).toHaveURL(`/public/${other.tree._id}?p=${other.people.cousin._id}`);
  const panel = page.getByRole("complementary", { name: "Cora Cousin" });
  await expect(panel.getByText("The cousin")).toBeVisible();
  await expect(panel.getByRole("link", { name: "Edit" })).toHaveCount(0);
});

test("the small-screen hamburger menu holds Actions, Edit and Preview", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const user = await signUpViaApi(request, "mobile");
  const { tree } = await seedFamily(request, user.token);
  await loginInBrowser(page, user.token);
  const canvas = await openEditor(page, tree);
  await expect(page.getByRole("heading", { name: "Tree Editor" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Actions" })).toBeHidden();

  const hamburger = page.getByRole("button", { name: "Editor menu" });
  await hamburger.click();
  const menu = page.getByRole("navigation", { name: "Editor menu" });
  for (const heading of ["Actions", "Edit", "Preview"]) {
    await expect(menu.getByRole("heading", { name: heading })).toBeVisible();
  }
  for (const item of ["Save Tree", "Delete Tree"]) {
    await expect(menu.getByRole("button", { name: item })).toBeVisible();
  }
  for (const item of ["Publish Tree", "Tree Details", "People in Tree"]) {
    await expect(menu.getByRole("link", { name: item })).toBeVisible();
  }
  await menu.getByRole("checkbox", { name: "Preview" }).check();
  await expect(canvas.getByRole("button", { name: "Edit node" })).toHaveCount(0);

  // Menus close on resize.
  await page.setViewportSize({ width: 400, height: 844 });
  await expect(menu).toBeHidden();
  await hamburger.click();
  await menu.getByRole("button", { name: "Save Tree" }).click();
  await expect(page.getByText("Tree saved")).toBeVisible();
  await expect(menu).toBeHidden();
});

test("the keyboard pans and zooms the canvas", async ({ page, request }) => {
  const user = await signUpViaApi(request, "keys");
  const { tree } = await seedFamily(request, user.token);
  await loginInBrowser(page, user.token);
  const canvas = await openEditor(page, tree);
  const layer = canvas.locator(":scope > g[transform]");
  const transformOf = () => layer.getAttribute("transform");

  await canvas.focus();
  await expect(canvas).toHaveAttribute("data-scale", "1.000");
  let before = await transformOf();
  for (const key of ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]) {
    await page.keyboard.press(key);
    await expect.poll(transformOf).not.toBe(before);
    before = await transformOf();
  }
  await page.keyboard.press("+");
  await expect(canvas).toHaveAttribute("data-scale", "1.200");
  await page.keyboard.press("-");
  await page.keyboard.press("-");
  await expect(canvas).toHaveAttribute("data-scale", "0.833");
  for (let i = 0; i < 30; i += 1) await page.keyboard.press("-");
  await expect(canvas).toHaveAttribute("data-scale", "0.100");
});

test("a save in one tab is not overwritten by another tab (409)", async ({ browser, request }) => {
  const user = await signUpViaApi(request, "conflict");
  const { tree, people } = await seedFamily(request, user.token);
  const first = await browser.newContext();
  const second = await browser.newContext();
  const pageA = await first.newPage();
  const pageB = await second.newPage();
  await loginInBrowser(pageA, user.token);
  await loginInBrowser(pageB, user.token);
  const canvasA = await openEditor(pageA, tree);
  const canvasB = await openEditor(pageB, tree);

  // Tab A adds a child to Ada and saves.
  await nodeOf(canvasA, "Ada Seed").getByRole("button", { name: "Add child" }).click();
  await waitForSaved(pageA);
  await expect
    .poll(async () => (await getTree(request, user.token, tree._id)).data.children.length)
    .toBe(3);
  const saved = await getTree(request, user.token, tree._id);

  // Tab B, still on the old version, adds a child to Kip and saves.
  await nodeOf(canvasB, "Kip Seed").getByRole("button", { name: "Add child" }).click();
  await pageB.getByRole("button", { name: "Actions" }).click();
  await pageB.getByRole("button", { name: "Save Tree" }).click();
  const alert = pageB.getByRole("alert").filter({ hasText: /changed/ });
  await expect(alert).toBeVisible();
  await expect(pageB.locator("[data-save-status]")).toHaveText("Not saved: changed elsewhere");
  const after = await getTree(request, user.token, tree._id);
  expect(after.version).toBe(saved.version);
  expect(after.data).toEqual(saved.data);
  // GET gives each reference its person's names (issue 13)
  expect(after.data.children[0]!.person).toMatchObject(ref(people.kip));
  expect(after.data.children[0]!.children).toHaveLength(0);

  // Reload brings tab A's work into tab B.
  await alert.getByRole("button", { name: "Reload" }).click();
  await expect(canvasB.getByRole("group", { name: "Empty node" })).toHaveCount(1);
  await expect(
    nodeOf(canvasB, "Kip Seed").getByRole("button", { name: "Edit node" }),
  ).toBeVisible();
  await first.close();
  await second.close();
});

test("Delete Tree asks first, then says so and goes home", async ({ page, request }) => {
  const user = await signUpViaApi(request, "delete");
  const { tree } = await seedFamily(request, user.token);
  await loginInBrowser(page, user.token);
  await openEditor(page, tree);
  await page.getByRole("button", { name: "Actions" }).click();
  await page.getByRole("button", { name: "Delete Tree" }).click();
  const confirm = page.getByRole("dialog", { name: "Are you sure you want to delete this tree?" });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  expect((await getTree(request, user.token, tree._id))._id).toBe(tree._id);

  await page.getByRole("button", { name: "Actions" }).click();
  await page.getByRole("button", { name: "Delete Tree" }).click();
  await confirm.getByRole("button", { name: "Delete Tree" }).click();
  await expect(page.getByText("Tree deleted").first()).toBeVisible();
  await expect(page).toHaveURL("/");
  const response = await request.get(`/api/trees/${tree._id}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(response.status()).toBe(404);
});
