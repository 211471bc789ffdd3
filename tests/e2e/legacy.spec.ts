// The legacy in the editor (issue 33), on a laptop and a phone: choose the succession laws, see
// the heir they suggest and why, confirm it, see the crown and the drawn heir line, read the marks'
// legend, and undo a mark that moved from one sister to the other.
import { expect, test, type APIRequestContext } from "@playwright/test";
import type { Person } from "@/lib/schemas/person";
import { createPersonViaApi, createTreeViaApi, node } from "./tree-fixtures";
import { bearer, loginInBrowser, signUpViaApi } from "./support/session";

const VIEWPORTS = [
  { name: "1440", width: 1440, height: 900 },
  { name: "390", width: 390, height: 844 },
];

/** Ada with an adopted daughter Bea, a daughter Cora and a son Dev. */
async function pleasants(request: APIRequestContext) {
  const user = await signUpViaApi(request, "legacy");
  const tree = await createTreeViaApi(request, user.token, { title: "The Pleasant Legacy" });
  const sims = [
    ["Ada", "Female"],
    ["Bea", "Female"],
    ["Cora", "Female"],
    ["Dev", "Male"],
  ] as const;
  const [ada, bea, cora, dev] = (await Promise.all(
    sims.map(([firstName, gender]) =>
      createPersonViaApi(request, user.token, tree._id, {
        firstName,
        lastName: "Pleasant",
        custom: [{ title: "Gender", value: gender }],
      }),
    ),
  )) as [Person, Person, Person, Person];
  const data = node(ada, {
    children: [
      node(bea, { adoptiveParents: [{ _id: ada._id }] }),
      node(cora, { parents: [{ _id: ada._id }] }),
      node(dev, { parents: [{ _id: ada._id }] }),
    ],
  });
  const saved = await request.patch(`/api/trees/${tree._id}`, {
    headers: bearer(user.token),
    data: { data },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  return { user, tree, ada, bea, cora, dev };
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    test.setTimeout(300_000);

    test("laws, the suggestion and its reasons, confirm, crown, heir line, legend, undo", async ({
      page,
      request,
    }) => {
      const { user, tree, dev, cora } = await pleasants(request);
      await loginInBrowser(page, user.token);
      await page.goto(`/trees/${tree._id}`);
      await expect(page.getByRole("button", { name: "Legacy", exact: true })).toBeVisible();

      await page.getByRole("button", { name: "Legacy", exact: true }).click();
      const panel = page.getByRole("region", { name: "The legacy" });
      await expect(panel.getByText("Founder: Ada Pleasant")).toBeVisible();
      await expect(
        panel.getByText("Choose the laws, and the tree suggests the heir."),
      ).toBeVisible();
      await panel.getByRole("combobox", { name: "Gender law" }).selectOption("patriarchy");
      await panel
        .getByRole("combobox", { name: "Bloodline law" })
        .selectOption("strictTraditional");
      await panel.getByRole("button", { name: "Save the laws" }).click();
      await expect(panel.getByText("The laws are saved.")).toBeVisible();
      await expect(panel.getByText("The laws suggest Dev Pleasant.")).toBeVisible();
      await expect(panel.getByText("Strict Traditional: Bea Pleasant was adopted.")).toBeVisible();
      await expect(panel.getByText("Patriarchy: Cora Pleasant is not a boy.")).toBeVisible();
      // nothing is marked until the owner confirms
      const heirsNow = async () =>
        (
          (await (
            await request.get(`/api/trees/${tree._id}/heirs`, { headers: bearer(user.token) })
          ).json()) as { heirs: string[] }
        ).heirs;
      expect(await heirsNow()).toEqual([]);
      await panel.getByRole("button", { name: "Confirm Dev Pleasant as heir" }).click();
      // the crown is on Dev, beside his avatar
      await expect(
        page.locator(`g:has(> [data-person-id="${dev._id}"]) > [data-heir] [data-crown]`),
      ).toHaveCount(1);
      await expect(page.getByRole("img", { name: "Heir of generation 2" })).toHaveCount(1);
      await expect(page.locator("[data-crown]")).toHaveCount(1);
      await expect.poll(heirsNow).toEqual([dev._id]);

      // Once Dev is confirmed the Legacy panel moves on to generation 3 (his children), so his
      // sister is made heir from her own panel: the editor says whose mark moved, and Undo puts
      // it back
      await panel.getByRole("button", { name: "Close" }).click();
      await page.getByRole("button", { name: "Cora Pleasant", exact: true }).click();
      const coraPanel = page.getByRole("complementary", { name: "Cora Pleasant", exact: true });
      await coraPanel.getByRole("checkbox", { name: "Heir" }).check();
      const toast = page.getByText(
        "Cora Pleasant is now the heir of generation 2; Dev Pleasant is no longer heir.",
      );
      await expect(toast).toBeVisible();
      await expect.poll(heirsNow).toEqual([cora._id]);
      // the toast's Undo, not the editor's own (the structure's undo)
      await page.locator("[data-sonner-toast]").getByRole("button", { name: "Undo" }).click();
      await expect.poll(heirsNow).toEqual([dev._id]);
      await coraPanel.getByRole("button", { name: "Close", exact: true }).click();

      // the heir line is drawn from the founder to the heir
      await page.getByRole("button", { name: "Show heir line" }).click();
      const line = page.locator("[data-heir-line]");
      await expect(line).toHaveAttribute("data-heir-line", "2");
      await expect(line).toHaveAttribute("data-sims", new RegExp(`${dev._id}$`));

      // the legend explains the marks
      await page.getByRole("button", { name: "Marks" }).click();
      const legend = page.getByRole("region", { name: "What the marks mean" });
      await expect(legend.getByText("Heir of a generation")).toBeVisible();
      await expect(legend.getByText("Married")).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`legacy-${viewport.name}.png`) });
    });
  });
}

test.describe("heirs stored under other generation numbers", () => {
  test.use({ viewport: { width: 1440, height: 900 } });
  test.setTimeout(300_000);

  test("the editor says that a generation has two heirs, and un-marking one is saved", async ({
    page,
    request,
  }) => {
    const { user, tree, ada, bea, cora, dev } = await pleasants(request);
    const headers = bearer(user.token);
    // Dev heir of generation 2, his daughter Bea of 3; then Bea is moved up beside him
    const under = node(ada, {
      children: [node(dev, { children: [node(bea)] }), node(cora)],
    });
    const beside = node(ada, { children: [node(dev), node(bea), node(cora)] });
    for (const [data, heirs] of [
      [under, [dev._id, bea._id]],
      [beside, null],
    ] as const) {
      const saved = await request.patch(`/api/trees/${tree._id}`, { headers, data: { data } });
      expect(saved.ok(), await saved.text()).toBe(true);
      if (heirs) {
        const put = await request.put(`/api/trees/${tree._id}/heirs`, { headers, data: { heirs } });
        expect(put.ok(), await put.text()).toBe(true);
      }
    }
    await loginInBrowser(page, user.token);
    await page.goto(`/trees/${tree._id}`);
    await page.getByRole("button", { name: "Legacy", exact: true }).click();
    const panel = page.getByRole("region", { name: "The legacy" });
    await expect(
      panel.getByText(
        "Generation 2 has two heirs since the generations were counted again: Dev Pleasant and Bea Pleasant. Un-mark the one who is not the heir.",
      ),
    ).toBeVisible();
    await panel.getByRole("button", { name: "Close" }).click();
    await expect(page.getByRole("img", { name: "Heir of generation 2" })).toHaveCount(2);
    // un-marking Bea in her panel is saved (it answered 422 before issue 33's fix)
    await page.locator(`[data-person-id="${bea._id}"]`).first().click();
    await page.getByRole("checkbox", { name: "Heir" }).uncheck();
    await expect
      .poll(
        async () =>
          (
            (await (await request.get(`/api/trees/${tree._id}/heirs`, { headers })).json()) as {
              heirs: string[];
            }
          ).heirs,
      )
      .toEqual([dev._id]);
    await page.getByRole("button", { name: "Legacy", exact: true }).click();
    await expect(page.locator("[data-shared-generation]")).toHaveCount(0);
  });
});
