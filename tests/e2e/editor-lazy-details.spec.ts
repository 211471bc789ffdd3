// The editor loads what it draws (issue 23, ADRs 032 and 038): its people come with the tree in
// one read, without bios, lists and custom rows, and the details panel fetches the Sim's whole
// record when it opens. At 1440x900 and 390x844.
import { expect, test } from "@playwright/test";
import { node, putTreeData, ref, seedTree } from "./support/editor";
import { loginInBrowser, signUpViaApi } from "./support/session";

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`the details panel fetches the bio when it opens (${viewport.width}x${viewport.height})`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const user = await signUpViaApi(request, "lazy");
    const seeded = await seedTree(request, user.token, "Lazy Legacy", {
      ada: {
        firstName: "Ada",
        lastName: "Lazy",
        bio: "<p>Keeps <strong>bees</strong> on the roof</p>",
        traits: ["Creative"],
        custom: [{ title: "Career", value: "Beekeeper" }],
      },
      kip: { firstName: "Kip", lastName: "Lazy", bio: "<p>Kip's own story</p>" },
    });
    const { ada, kip } = seeded.people;
    await putTreeData(
      request,
      user.token,
      seeded.tree._id,
      node(ada, { children: [node(kip, { parents: [ref(ada)] })] }),
    );

    const treeLoads: { url: string; body: string }[] = [];
    const peopleLists: string[] = [];
    const personReads: string[] = [];
    page.on("response", (response) => {
      const url = new URL(response.url());
      if (url.pathname === `/api/trees/${seeded.tree._id}`) {
        void response.text().then((body) => treeLoads.push({ url: url.search, body }));
      }
      if (url.pathname === "/api/people") peopleLists.push(url.search);
      if (url.pathname.startsWith("/api/people/")) personReads.push(url.pathname);
    });

    await loginInBrowser(page, user.token);
    await page.goto(`/trees/${seeded.tree._id}`);
    const canvas = page.getByRole("application", { name: "Family tree: Lazy Legacy" });
    await expect(canvas).toBeVisible({ timeout: 60_000 });
    await expect(canvas.getByRole("button", { name: "Kip Lazy", exact: true })).toBeVisible();
    await expect.poll(() => treeLoads.length).toBeGreaterThan(0);
    // the editor's loads (the page's early load and the editor's own): the tree's canvas read
    // only, with its people and no bio, list or custom row in it; no list of people besides
    await page.waitForLoadState("networkidle");
    expect(new Set(treeLoads.map((load) => load.url))).toEqual(new Set(["?fields=canvas"]));
    expect(peopleLists).toEqual([]);
    for (const load of treeLoads) {
      for (const text of ["bees", "Kip's own story", "Creative", "Beekeeper", "bio"]) {
        expect(load.body).not.toContain(text);
      }
      // (a body the page's early load read first may come back empty here)
      if (load.body !== "") expect(load.body).toContain("Ada");
    }
    expect(personReads).toEqual([]);

    await canvas.getByRole("button", { name: "Ada Lazy", exact: true }).click();
    const panel = page.getByRole("complementary", { name: "Ada Lazy" });
    await expect(panel.locator("strong", { hasText: "bees" })).toBeVisible();
    await expect(panel.getByRole("listitem").filter({ hasText: "Creative" })).toBeVisible();
    await expect(
      panel.getByRole("region", { name: "More" }).getByRole("row", { name: "Career Beekeeper" }),
    ).toBeVisible();
    expect(personReads).toEqual([`/api/people/${ada._id}`]);

    // another Sim's panel fetches that Sim's record; reopening one already read fetches nothing
    await panel.getByRole("button", { name: "Close" }).click();
    await canvas.getByRole("button", { name: "Kip Lazy", exact: true }).click();
    await expect(page.getByRole("complementary", { name: "Kip Lazy" })).toContainText(
      "Kip's own story",
    );
    await page
      .getByRole("complementary", { name: "Kip Lazy" })
      .getByRole("button", { name: "Close" })
      .click();
    await canvas.getByRole("button", { name: "Ada Lazy", exact: true }).click();
    await expect(
      page.getByRole("complementary", { name: "Ada Lazy" }).locator("strong"),
    ).toHaveText("bees");
    expect(personReads).toEqual([`/api/people/${ada._id}`, `/api/people/${kip._id}`]);
    await page.screenshot({
      path: `test-results/editor-lazy-details-${viewport.width}.png`,
    });
  });
}
