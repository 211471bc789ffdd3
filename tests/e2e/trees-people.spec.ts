import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { formatLongDate } from "@/lib/format-date";
import type { Person } from "@/lib/schemas/person";
import { bearer, loginInBrowser, signUpViaApi } from "./support/session";
import {
  createPersonViaApi,
  createTreeViaApi,
  getPersonViaApi,
  node,
  publishViaApi,
  saveTreeDataViaApi,
  testImage,
  uploadViaApi,
  viewCountOf,
} from "./tree-fixtures";

const toaster = (page: Page) => page.locator("[data-sonner-toaster]");

/** Waits for a toast with exactly this text. */
async function expectToast(page: Page, text: string) {
  await expect(toaster(page).getByText(text, { exact: true }).first()).toBeVisible();
}

async function expectNoErrorToast(page: Page) {
  await expect(toaster(page).locator('[data-sonner-toast][data-type="error"]')).toHaveCount(0);
}

/** Fails the test on uncaught page errors and console errors (resource 4xx/5xx aside). */
function watchForErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      errors.push(`console.error: ${message.text()}`);
    }
  });
  return errors;
}

/** The natural width of a loaded image (proves the server sent the resized variant). */
async function naturalSize(image: Locator) {
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeTruthy();
  return image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
}

/** Uploads through an image manager and crops the result. */
async function uploadAndCrop(
  page: Page,
  label: string,
  file: Awaited<ReturnType<typeof testImage>>,
) {
  await page.getByLabel(`Upload ${label}`).setInputFiles(file);
  const crop = page.getByRole("button", { name: "Crop Image" });
  await expect(crop).toBeEnabled();
  await crop.click();
  await expectToast(page, "Image cropped");
  await expect(page.getByRole("img", { name: `${label} preview` })).toBeVisible();
}

/** Picks (or, when it is not suggested, creates) one value in a creatable multi-select. */
async function choose(page: Page, label: string, value: string) {
  const input = page.getByRole("combobox", { name: label, exact: true });
  await input.fill(value);
  await expect(page.getByRole("listbox").getByRole("option").first()).toBeVisible();
  await input.press("Enter");
  await expect(chips(page, label).getByText(value, { exact: true })).toBeVisible();
}

const chips = (page: Page, label: string) =>
  page.getByRole("group", { name: label, exact: true }).locator(".suggestion-select__multi-value");

interface SimInput {
  first: string;
  last: string;
  bio: string;
  color: { r: number; g: number; b: number };
  traits: string[];
  aspirations?: string[];
  lifeStates?: string[];
  custom?: { title: string; value: string };
}

async function addSim(page: Page, treeId: string, sim: SimInput) {
  await page.goto(`/trees/${treeId}/people`);
  await page.getByRole("link", { name: "Add Someone New" }).click();
  await expect(page).toHaveURL(`/trees/${treeId}/people/add`);
  await expect(page.getByRole("heading", { name: "Create Person", level: 1 })).toBeVisible();
  await uploadAndCrop(page, "Avatar", await testImage(`${sim.first}.jpg`, sim.color, "jpeg"));
  await page.getByLabel("First Name").fill(sim.first);
  await page.getByLabel("Last Name").fill(sim.last);
  await page.getByRole("textbox", { name: "Bio" }).click();
  await page.keyboard.type(sim.bio);
  for (const trait of sim.traits) await choose(page, "Traits", trait);
  for (const aspiration of sim.aspirations ?? []) await choose(page, "Aspirations", aspiration);
  for (const state of sim.lifeStates ?? []) await choose(page, "Life States", state);
  if (sim.custom) {
    await page.getByRole("button", { name: "Add More Custom Info" }).click();
    // The new row's Title takes focus.
    await expect(page.getByLabel("Title of custom info 1")).toBeFocused();
    await page.keyboard.type(sim.custom.title);
    await page.getByLabel("Value of custom info 1").fill(sim.custom.value);
  }
  await page.getByRole("button", { name: "Create Person" }).click();
  await expectToast(page, "Person created");
  await expect(page).toHaveURL(`/trees/${treeId}/people`);
  await expect(page.getByRole("listitem", { name: `${sim.first} ${sim.last}` })).toBeVisible();
}

test("a player builds a tree of Sims, publishes it, shares it and unpublishes it", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const errors = watchForErrors(page);
  const user = await signUpViaApi(request, "legacy");
  await loginInBrowser(page, user.token);
  let treeId = "";
  const title = "The Goth Legacy";

  await test.step("create a tree with a cover", async () => {
    await page.goto("/trees/create");
    await expect(page.getByRole("heading", { name: "Create a New Tree" })).toBeVisible();
    await page.getByLabel("Title").fill("The Goth Family");
    await page.getByRole("textbox", { name: "Description" }).click();
    await page.keyboard.type("Founded by ");
    await page.getByRole("button", { name: "Bold" }).click();
    await expect(page.getByRole("button", { name: "Bold" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await page.keyboard.type("Bella");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type(" in Willow Creek.");
    await uploadAndCrop(
      page,
      "Cover Image",
      await testImage("cover.png", { r: 120, g: 40, b: 120 }),
    );
    const preview = page.getByRole("img", { name: "Cover Image preview" });
    await expect(preview).toHaveAttribute("src", /\/api\/upload\/600x320\/cover\//);
    expect(await naturalSize(preview)).toEqual([600, 320]);
    await page.getByRole("button", { name: "Create Tree" }).click();
    await expectToast(page, "Tree created");
    await expect(page).toHaveURL(/\/trees\/(?!create$)[A-Za-z0-9_-]+$/);
    treeId = new URL(page.url()).pathname.split("/").pop()!;
    // addTree: the side navigation lists the new tree at once.
    await expect(page.getByRole("link", { name: "The Goth Family" }).first()).toBeVisible();

    const tree = (await (
      await request.get(`/api/trees/${treeId}`, { headers: bearer(user.token) })
    ).json()) as { title: string; description: string; cover: string | null };
    expect(tree.title).toBe("The Goth Family");
    expect(tree.description).toContain("<strong>Bella</strong>");
    expect(tree.cover).toMatch(/^cover\//);
  });

  await test.step("update the tree details", async () => {
    await page.goto(`/trees/${treeId}/details`);
    await expect(page.getByRole("heading", { name: "Update Tree Details" })).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveValue("The Goth Family");
    const description = page.getByRole("textbox", { name: "Description" });
    await expect(description.locator("strong")).toHaveText("Bella");
    await expect(page.getByRole("img", { name: "Cover Image preview" })).toBeVisible();
    await page.getByLabel("Title").fill(title);
    await page.getByRole("button", { name: "Update Tree Details" }).click();
    await expectToast(page, "Tree details updated");
    await expect(page).toHaveURL(`/trees/${treeId}`);
    // mergeTree: the side navigation shows the new title.
    await expect(page.getByRole("link", { name: title }).first()).toBeVisible();

    await page.goto(`/trees/${treeId}/details`);
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(`/trees/${treeId}`);
    await page.goto("/trees/create");
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL("/");
  });

  await test.step("add three Sims with avatars, traits and custom info", async () => {
    await addSim(page, treeId, {
      first: "Bella",
      last: "Goth",
      bio: "Vanished one night.",
      color: { r: 200, g: 30, b: 30 },
      traits: ["Bookworm", "Loves Plumbobs"],
      aspirations: ["Soulmate"],
      lifeStates: ["Alien"],
      custom: { title: "Favourite Food", value: "Grilled Cheese" },
    });
    await addSim(page, treeId, {
      first: "Mortimer",
      last: "Goth",
      bio: "Writer.",
      color: { r: 30, g: 30, b: 200 },
      traits: ["Cat Lover"],
      custom: { title: "Career", value: "Author" },
    });
    await addSim(page, treeId, {
      first: "Cassandra",
      last: "Goth",
      bio: "Daughter.",
      color: { r: 30, g: 160, b: 30 },
      traits: ["Bookworm"],
      custom: { title: "School", value: "Willow Creek High" },
    });
    await expectNoErrorToast(page);
  });

  const people = (await (
    await request.get(`/api/people?tree=${treeId}`, { headers: bearer(user.token) })
  ).json()) as Person[];
  const byName = (first: string) => people.find((p) => p.firstName === first)!;
  const [bella, mortimer, cassandra] = [byName("Bella"), byName("Mortimer"), byName("Cassandra")];

  await test.step("what was saved is what was entered", () => {
    expect(people).toHaveLength(3);
    expect(bella).toMatchObject({
      lastName: "Goth",
      traits: ["Bookworm", "Loves Plumbobs"],
      aspirations: ["Soulmate"],
      lifeStates: ["Alien"],
      custom: [{ title: "Favourite Food", value: "Grilled Cheese" }],
    });
    expect(bella.bio).toContain("Vanished one night.");
    for (const person of people) expect(person.avatar).toMatch(/^avatar\//);
  });

  await test.step("filter the list, and delete a person", async () => {
    const nameless = await createPersonViaApi(request, user.token, treeId, {});
    await page.goto(`/trees/${treeId}/people`);
    await expect(page.getByRole("heading", { name: "Manage People in Your Tree" })).toBeVisible();
    const tiles = page.getByRole("list", { name: "People in this tree" }).getByRole("listitem");
    await expect(tiles).toHaveCount(4);
    const namelessTile = page.getByRole("listitem", { name: "~ No Name ~" });
    await expect(namelessTile.getByText("~ No Name ~")).toBeVisible();
    // Decorative (alt=""): the name is right next to it.
    await expect(namelessTile.locator("img")).toHaveAttribute("src", "/assets/default-avatar.svg");
    const bellaAvatar = page.getByRole("listitem", { name: "Bella Goth" }).locator("img");
    await expect(bellaAvatar).toHaveAttribute("src", /\/api\/upload\/200x200\/avatar\//);
    expect(await naturalSize(bellaAvatar)).toEqual([200, 200]);

    const search = page.getByRole("searchbox", { name: "Search" });
    await expect(search).toHaveAttribute("placeholder", "Start typing to filter...");
    await search.fill("GOTH");
    await expect(tiles).toHaveCount(3);
    await search.fill("bella g");
    await expect(tiles).toHaveCount(1);
    await expect(tiles.first()).toHaveAccessibleName("Bella Goth");
    await search.fill("a goth");
    await expect(tiles).toHaveCount(2);
    await search.fill("nobody here");
    await expect(tiles).toHaveCount(0);
    await search.fill("");
    await expect(tiles).toHaveCount(4);

    await page.getByRole("button", { name: "Delete ~ No Name ~" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("Are you sure you want to delete this person?")).toBeVisible();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "Person removed");
    await expect(tiles).toHaveCount(3);
    const gone = await request.get(`/api/people/${nameless._id}`, { headers: bearer(user.token) });
    expect(gone.status()).toBe(404);
  });

  await test.step("edit a Sim", async () => {
    await page.getByRole("link", { name: "Edit Mortimer Goth" }).click();
    await expect(page).toHaveURL(`/trees/${treeId}/people/${mortimer._id}`);
    await expect(page.getByRole("heading", { name: "Edit Person", level: 1 })).toBeVisible();
    await expect(page.getByLabel("First Name")).toHaveValue("Mortimer");
    await expect(chips(page, "Traits")).toHaveText(["Cat Lover"]);
    await expect(page.getByLabel("Value of custom info 1")).toHaveValue("Author");
    await expect(page.getByRole("textbox", { name: "Bio" })).toContainText("Writer.");
    await choose(page, "Life States", "Ghost");
    await page.getByRole("button", { name: "Add More Custom Info" }).click();
    await page.getByLabel("Title of custom info 2").fill("Hobby");
    await page.getByLabel("Value of custom info 2").fill("Chess");
    await page.getByRole("button", { name: "Remove custom info 1" }).click();
    await page.getByRole("button", { name: "Update Person" }).click();
    await expectToast(page, "Person updated");
    // Back one page: the people list.
    await expect(page).toHaveURL(`/trees/${treeId}/people`);
    const saved = await getPersonViaApi(request, user.token, mortimer._id);
    expect(saved.lifeStates).toEqual(["Ghost"]);
    expect(saved.traits).toEqual(["Cat Lover"]);
    expect(saved.custom).toEqual([{ title: "Hobby", value: "Chess" }]);
  });

  // The tree editor is another screen's; the structure is placed through the API.
  await saveTreeDataViaApi(
    request,
    user.token,
    treeId,
    node(bella, {
      partners: [{ type: "MARRIED", people: [{ _id: mortimer._id }] }],
      children: [node(cassandra, { parents: [{ _id: bella._id }, { _id: mortimer._id }] })],
    }),
  );

  // Another public tree to link to.
  const other = await createTreeViaApi(request, user.token, { title: "The Other Legacy" });
  const otherBella = await createPersonViaApi(request, user.token, other._id, {
    firstName: "Bella",
    lastName: "Goth",
  });
  await saveTreeDataViaApi(request, user.token, other._id, node(otherBella));
  await publishViaApi(request, user.token, other._id);

  await test.step("link a Sim to a public tree", async () => {
    await page.goto(`/trees/${treeId}/people`);
    await page.getByRole("link", { name: "Link Bella Goth" }).click();
    await expect(page).toHaveURL(`/trees/${treeId}/people/${bella._id}/link`);
    await expect(page.getByRole("heading", { name: "Link Person", level: 1 })).toBeVisible();
    await expect(page.getByText("Links you add/create will appear here.")).toBeVisible();
    await expect(page.getByText(/A Sim can be linked to multiple trees/)).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveAttribute("placeholder", "My Other Tree");

    // A tree that is not public is refused, with the server's reason.
    await page.getByLabel("Title").fill("Not public");
    await page.getByLabel("Tree ID").fill(treeId);
    await page.getByLabel("Person ID").fill(cassandra._id);
    await page.getByRole("button", { name: "Link Person" }).click();
    const refusal = toaster(page).locator('[data-sonner-toast][data-type="error"]');
    await expect(refusal).toHaveCount(1);
    await refusal.getByRole("button", { name: /close/i }).click();
    await expect(page.getByText("Links you add/create will appear here.")).toBeVisible();

    const addLink = async () => {
      await page.getByLabel("Title").fill("The Other Legacy");
      await page.getByLabel("Tree ID").fill(other._id);
      await page.getByLabel("Person ID").fill(otherBella._id);
      await page.getByRole("button", { name: "Link Person" }).click();
      await expectToast(page, "Person links updated");
      const links = page.getByRole("list", { name: "Existing links" });
      await expect(links.getByText("The Other Legacy")).toBeVisible();
      await expect(links.getByText(`Tree Id: ${other._id}`)).toBeVisible();
      await expect(links.getByText(`Person Id: ${otherBella._id}`)).toBeVisible();
      await expect(page.getByLabel("Tree ID")).toHaveValue("");
    };
    await addLink();
    await page.getByRole("button", { name: "Delete link The Other Legacy" }).click();
    await expect(page.getByText("Links you add/create will appear here.")).toBeVisible();
    expect((await getPersonViaApi(request, user.token, bella._id)).links).toEqual([]);
    await addLink();
    expect((await getPersonViaApi(request, user.token, bella._id)).links).toEqual([
      { title: "The Other Legacy", treeId: other._id, personId: otherBella._id },
    ]);
    await page.getByRole("link", { name: "Back to Tree People" }).click();
    await expect(page).toHaveURL(`/trees/${treeId}/people`);
  });

  const publicUrl = `${baseURL}/public/${treeId}`;

  await test.step("publish", async () => {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(`/trees/${treeId}/publish`);
    await expect(page.getByRole("heading", { name: "Publish Your Tree" })).toBeVisible();
    await expect(page.getByText("is not published.")).toBeVisible();
    await expect(page.getByLabel("Public URL")).toHaveValue(publicUrl);
    await page.getByRole("button", { name: "Copy" }).click();
    await expect(page.getByText("Link copied to your clipboard.")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(publicUrl);

    const isPublic = page.getByRole("checkbox", { name: "Is Public" });
    await expect(isPublic).not.toBeChecked();
    await isPublic.check();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Tree published");
    const { lastPublishDate } = (await (await request.get(`/api/published/${treeId}`)).json()) as {
      lastPublishDate: string;
    };
    await expect(
      page.getByText(`Last published on ${formatLongDate(lastPublishDate)}.`),
    ).toBeVisible();
    await expect(page.getByText("is public.")).toBeVisible();
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(`/trees/${treeId}`);
  });

  const visitor = await browser.newContext();
  const publicPage = await visitor.newPage();
  const visitorErrors = watchForErrors(publicPage);

  await test.step("a logged-out visitor opens the public URL and sees the Sims", async () => {
    const response = await publicPage.goto(`${publicUrl}/list`);
    expect(response?.status()).toBe(200);
    await expect(publicPage).toHaveTitle(new RegExp(title));
    await expect(publicPage.getByRole("heading", { name: title, level: 1 })).toBeVisible();
    await expect(publicPage.getByRole("img", { name: `Cover of ${title}` })).toBeVisible();
    await expect(publicPage.locator("main strong", { hasText: "Bella" })).toBeVisible();
    for (const name of ["Bella Goth", "Mortimer Goth", "Cassandra Goth"]) {
      await expect(publicPage.getByRole("link", { name }).first()).toBeVisible();
    }
    await expect(publicPage.getByText("Married")).toBeVisible();
    await expect(publicPage.getByRole("list", { name: "Children of Bella Goth" })).toContainText(
      "Cassandra Goth",
    );

    await publicPage.getByRole("link", { name: "Bella Goth" }).click();
    await expect(publicPage).toHaveURL(`${publicUrl}/list?p=${bella._id}`);
    const details = publicPage.getByRole("complementary", { name: "Bella Goth" });
    await expect(details).toBeVisible();
    await expect(details).toContainText("Vanished one night.");
    await expect(details).toContainText("Bookworm, Loves Plumbobs");
    await expect(details).toContainText("Soulmate");
    await expect(details.getByRole("row", { name: /Favourite Food/ })).toContainText(
      "Grilled Cheese",
    );
    await expect(details.getByRole("link", { name: "The Other Legacy" })).toHaveAttribute(
      "href",
      `/public/${other._id}?p=${otherBella._id}`,
    );
    await details.getByRole("button", { name: "Show Link Details" }).click();
    await expect(details).toContainText(`Person ID: ${bella._id}`);
    await details.getByRole("link", { name: "Close" }).click();
    await expect(details).toBeHidden();
    await expect(publicPage).toHaveURL(`${publicUrl}/list`);

    // A shared ?p= link opens and highlights that Sim.
    await publicPage.goto(`${publicUrl}/list?p=${cassandra._id}`);
    const cassandraDetails = publicPage.getByRole("complementary", { name: "Cassandra Goth" });
    await expect(cassandraDetails).toContainText("Biological Parents");
    await expect(cassandraDetails).toContainText("Bella Goth, Mortimer Goth");
    await expect(publicPage.getByRole("link", { name: "Cassandra Goth" }).first()).toHaveAttribute(
      "aria-current",
      "true",
    );
  });

  await test.step("a name changed without re-publishing leaves the public copy as it was", async () => {
    await page.goto(`/trees/${treeId}/people`);
    await page.getByRole("link", { name: "Edit Bella Goth" }).click();
    await expect(page.getByLabel("First Name")).toHaveValue("Bella");
    await page.getByLabel("First Name").fill("Isabella");
    await page.getByRole("button", { name: "Update Person" }).click();
    await expectToast(page, "Person updated");
    await expect(page).toHaveURL(`/trees/${treeId}/people`);
    await expect(page.getByRole("listitem", { name: "Isabella Goth" })).toBeVisible();
    expect((await getPersonViaApi(request, user.token, bella._id)).firstName).toBe("Isabella");

    await publicPage.goto(`${publicUrl}/list`);
    await expect(publicPage.getByRole("link", { name: "Bella Goth" })).toBeVisible();
    await expect(publicPage.getByText("Isabella")).toHaveCount(0);
  });

  await test.step("the owner sees the views, then unpublishes", async () => {
    // Three server renders of the public page above, all by one reader within 30 minutes: one
    // view (issue 22); views are written in batches every few seconds (ADR 014).
    await expect.poll(() => viewCountOf(request, treeId), { timeout: 10_000 }).toBe(1);
    await page.goto(`/trees/${treeId}/publish`);
    await expect(page.getByText("The public page has been viewed 1 time.")).toBeVisible();
    const isPublic = page.getByRole("checkbox", { name: "Is Public" });
    await expect(isPublic).toBeChecked();
    await isPublic.uncheck();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Tree is no longer published");
    await expect(page.getByText("is not published.")).toBeVisible();

    const response = await publicPage.goto(publicUrl);
    expect(response?.status()).toBe(404);
    await expect(
      publicPage.getByRole("heading", { name: "This page does not exist" }),
    ).toBeVisible();

    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Tree is already not published");
    await expectNoErrorToast(page);
  });

  await visitor.close();
  expect(errors).toEqual([]);
  expect(visitorErrors).toEqual([]);
});

test("a link preview gets the title, description and cover without running JavaScript", async ({
  request,
  baseURL,
}) => {
  const user = await signUpViaApi(request, "preview");
  const cover = await uploadViaApi(
    request,
    user.token,
    "cover",
    await testImage("cover.png", { r: 10, g: 120, b: 90 }),
  );
  const tree = await createTreeViaApi(request, user.token, {
    title: "The Landgraab Legacy & Friends",
    description: `<p>Money, <strong>lots</strong> of money &amp; a <em>very</em> big house.</p><ul><li><p>Geoffrey</p></li></ul><p>${"More story. ".repeat(40)}</p>`,
    cover,
  });
  await publishViaApi(request, user.token, tree._id);

  const attribute = (html: string, property: string) =>
    new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"`).exec(html)?.[1];
  const decode = (text: string | undefined) =>
    text
      ?.replace(/&amp;/g, "&")
      .replace(/&quot;/g, '"')
      .replace(/&#x27;|&#39;/g, "'");

  // A link-preview bot (Discord) gets the tags in <head>; any other client gets them in the HTML.
  for (const userAgent of [
    "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    "curl/8.0",
  ]) {
    const before = await viewCountOf(request, tree._id);
    const response = await request.get(`/public/${tree._id}`, {
      headers: { "user-agent": userAgent },
    });
    expect(response.status()).toBe(200);
    const html = await response.text();
    const searched = userAgent.includes("Discordbot") ? html.split("</head>")[0]! : html;
    expect(decode(/<title>([^<]*)<\/title>/.exec(searched)?.[1])).toBe(
      "The Landgraab Legacy & Friends · Heirloom",
    );
    expect(decode(attribute(searched, "og:title"))).toBe("The Landgraab Legacy & Friends");
    const description = decode(attribute(searched, "og:description"));
    expect(description).toMatch(/^Money, lots of money & a very big house\. Geoffrey More story\./);
    expect(description!.length).toBeLessThanOrEqual(200);
    expect(description).toMatch(/…$/);
    const image = attribute(searched, "og:image");
    expect(image).toBe(`${baseURL}/api/upload/1200x640/${cover}`);
    // Each render of the page counts one view.
    await expect.poll(() => viewCountOf(request, tree._id), { timeout: 10_000 }).toBe(before + 1);

    const picture = await request.get(image!);
    expect(picture.status()).toBe(200);
    expect(picture.headers()["content-type"]).toMatch(/^image\//);
  }

  const unknown = await request.get("/public/not-a-published-tree");
  expect(unknown.status()).toBe(404);
});

test("the tree, people, publish and public screens have no serious accessibility violations", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const user = await signUpViaApi(request, "axe_trees");
  const avatar = await uploadViaApi(
    request,
    user.token,
    "avatar",
    await testImage("a.png", { r: 1, g: 2, b: 3 }),
  );
  const tree = await createTreeViaApi(request, user.token, {
    title: "Accessible Legacy",
    description: "<p>A <strong>bold</strong> start.</p><ul><li><p>One</p></li></ul>",
  });
  const sim = await createPersonViaApi(request, user.token, tree._id, {
    avatar,
    firstName: "Ada",
    lastName: "Plum",
    bio: "<p>Bio</p>",
    traits: ["Bookworm"],
    custom: [{ title: "Career", value: "Painter" }],
  });
  const child = await createPersonViaApi(request, user.token, tree._id, { firstName: "Kid" });
  await saveTreeDataViaApi(
    request,
    user.token,
    tree._id,
    node(sim, { children: [node(child, { parents: [{ _id: sim._id }], parentType: "CLONE" })] }),
  );
  await publishViaApi(request, user.token, tree._id);
  await loginInBrowser(page, user.token);

  const screens: [string, (page: Page) => Promise<void>][] = [
    ["/trees/create", (p) => expect(p.getByRole("toolbar")).toBeVisible()],
    [
      `/trees/${tree._id}/details`,
      (p) => expect(p.getByLabel("Title", { exact: true })).toHaveValue("Accessible Legacy"),
    ],
    [`/trees/${tree._id}/people`, (p) => expect(p.getByRole("searchbox")).toBeVisible()],
    [`/trees/${tree._id}/people/add`, (p) => expect(p.getByLabel("First Name")).toBeVisible()],
    [
      `/trees/${tree._id}/people/${sim._id}`,
      (p) => expect(p.getByLabel("Value of custom info 1")).toHaveValue("Painter"),
    ],
    [
      `/trees/${tree._id}/people/${sim._id}/link`,
      (p) => expect(p.getByText("Links you add/create will appear here.")).toBeVisible(),
    ],
    [`/trees/${tree._id}/publish`, (p) => expect(p.getByText("is public.")).toBeVisible()],
    [`/public/${tree._id}/list`, (p) => expect(p.getByRole("link", { name: "Kid" })).toBeVisible()],
    [
      `/public/${tree._id}/list?p=${child._id}`,
      (p) => expect(p.getByRole("complementary", { name: "Kid" })).toContainText("Clone"),
    ],
    [
      `/public/${tree._id}?p=${child._id}`,
      (p) => expect(p.getByRole("complementary", { name: "Kid" })).toContainText("Clone"),
    ],
  ];
  for (const [path, settled] of screens) {
    await page.goto(path);
    await settled(page);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ path, rule: v.id, targets: v.nodes.map((n) => n.target.join(" ")) }));
    expect(serious).toEqual([]);
  }

  // The image flow's crop step too.
  await page.goto(`/trees/${tree._id}/people/add`);
  await page
    .getByLabel("Upload Avatar")
    .setInputFiles(await testImage("b.png", { r: 9, g: 9, b: 9 }));
  await expect(page.getByRole("button", { name: "Crop Image" })).toBeEnabled();
  const cropStep = await new AxeBuilder({ page }).analyze();
  expect(
    cropStep.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(" ")) })),
  ).toEqual([]);
});
