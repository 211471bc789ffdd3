// Issue 15 in real Chromium, at a desktop and a phone size: the view controls fit a whole
// three-generation tree on screen, undo brings a deleted subtree back (and the autosave keeps
// it through a reload), and Escape closes the topmost panel.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { getTree, node, openEditor, putTreeData, seedTree, waitForSaved } from "./support/editor";
import { loginInBrowser, signUpViaApi } from "./support/session";

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

const nodeOf = (page: Page | Locator, name: string) =>
  page.getByRole("group", { name: `Node of ${name}`, exact: true });

/** Whether a box lies inside another (with half a pixel of rounding). */
function inside(
  inner: { x: number; y: number; width: number; height: number },
  outer: { x: number; y: number; width: number; height: number },
) {
  return (
    inner.x >= outer.x - 0.5 &&
    inner.y >= outer.y - 0.5 &&
    inner.x + inner.width <= outer.x + outer.width + 0.5 &&
    inner.y + inner.height <= outer.y + outer.height + 0.5
  );
}

for (const viewport of SIZES) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test("the fit control brings every node of a three-generation tree into view", async ({
      page,
      request,
    }) => {
      const user = await signUpViaApi(request, "fit");
      const names = ["Ada", "Bo", "Cy", "Di", "Ed"] as const;
      const { tree, people } = await seedTree(
        request,
        user.token,
        "Wide Legacy",
        Object.fromEntries(names.map((n) => [n, { firstName: n, lastName: "Fit" }])) as Record<
          (typeof names)[number],
          { firstName: string; lastName: string }
        >,
      );
      // Four children with three grandchildren each: 17 nodes, far wider than either screen.
      const kids = (["Bo", "Cy", "Di", "Ed"] as const).map((name) =>
        node(people[name], { children: [node(null), node(null), node(null)] }),
      );
      await putTreeData(request, user.token, tree._id, node(people.Ada, { children: kids }));
      await loginInBrowser(page, user.token);
      const canvas = await openEditor(page, tree);
      const nodes = canvas.locator("[data-node-key]");

      const canvasBox = (await canvas.boundingBox())!;
      const offScreen = async () => {
        let count = 0;
        for (const box of await nodes.evaluateAll((els) =>
          els.map((el) => {
            const r = el.getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
          }),
        )) {
          if (!inside(box, canvasBox)) count += 1;
        }
        return count;
      };
      // Too wide to read whole, so it opens on the root, and some nodes are out of view.
      expect((await nodes.count()) < 17 || (await offScreen()) > 0).toBe(true);

      await page.getByRole("button", { name: "Fit tree to view" }).click();
      await expect(nodes).toHaveCount(17);
      await expect.poll(offScreen).toBe(0);

      // Zoom in and out work from the controls too, and the keyboard reaches them.
      const scale = async () => Number(await canvas.getAttribute("data-scale"));
      const fitted = await scale();
      await page.getByRole("button", { name: "Zoom in" }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(scale).toBeCloseTo(fitted * 1.2, 2);
      await page.getByRole("button", { name: "Zoom out" }).click();
      await expect.poll(scale).toBeCloseTo(fitted, 2);
      await page.getByRole("button", { name: "Centre on root" }).click();
      const root = (await canvas
        .getByRole("button", { name: "Ada Fit", exact: true })
        .boundingBox())!;
      expect(Math.abs(root.x + root.width / 2 - (canvasBox.x + canvasBox.width / 2))).toBeLessThan(
        2,
      );
    });

    test("undo brings back a deleted subtree, and it survives a reload", async ({
      page,
      request,
    }) => {
      const user = await signUpViaApi(request, "undo");
      const { tree, people } = await seedTree(request, user.token, "Undo Legacy", {
        ada: { firstName: "Ada", lastName: "Undo" },
        kip: { firstName: "Kip", lastName: "Undo" },
        gus: { firstName: "Gus", lastName: "Undo" },
      });
      const data = node(people.ada, {
        children: [node(people.kip, { children: [node(people.gus)] })],
      });
      await putTreeData(request, user.token, tree._id, data);
      await loginInBrowser(page, user.token);
      const canvas = await openEditor(page, tree);

      await nodeOf(canvas, "Kip Undo").getByRole("button", { name: "Edit node" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit Node" });
      await dialog.getByRole("button", { name: "Delete This Node" }).click();
      await page
        .getByRole("dialog", { name: "Are you sure you want to delete this node?" })
        .getByRole("button", { name: "Delete", exact: true })
        .click();
      await expect(nodeOf(canvas, "Kip Undo")).toHaveCount(0);
      await expect(nodeOf(canvas, "Gus Undo")).toHaveCount(0);
      await waitForSaved(page);
      expect((await getTree(request, user.token, tree._id)).data.children).toEqual([]);

      // Desktop: the shortcut; phone: the button.
      if (viewport.width > 800) {
        await canvas.focus();
        await page.keyboard.press("Control+z");
      } else {
        await page.getByRole("button", { name: "Undo", exact: true }).click();
      }
      await expect(nodeOf(canvas, "Kip Undo")).toBeVisible();
      await expect(nodeOf(canvas, "Gus Undo")).toBeVisible();
      await waitForSaved(page);

      // Redo deletes it again, undo restores it once more: the same autosave each time.
      await page.getByRole("button", { name: "Redo", exact: true }).click();
      await expect(nodeOf(canvas, "Kip Undo")).toHaveCount(0);
      await page.keyboard.press("Control+z");
      await expect(nodeOf(canvas, "Kip Undo")).toBeVisible();
      await waitForSaved(page);

      await page.reload();
      await expect(nodeOf(canvas, "Gus Undo")).toBeVisible();
      // A reload starts a fresh history.
      await expect(page.getByRole("button", { name: "Undo", exact: true })).toBeDisabled();
      const saved = await getTree(request, user.token, tree._id);
      // GET names every reference (issue 13)
      expect(saved.data.children[0]!.person).toEqual({
        _id: people.kip._id,
        firstName: "Kip",
        lastName: "Undo",
      });
      expect(saved.data.children[0]!.children[0]!.person).toEqual({
        _id: people.gus._id,
        firstName: "Gus",
        lastName: "Undo",
      });
    });

    test("Escape closes the details panel, and the node editor", async ({ page, request }) => {
      const user = await signUpViaApi(request, "escape");
      const { tree, people } = await seedTree(request, user.token, "Escape Legacy", {
        ada: { firstName: "Ada", lastName: "Escape" },
      });
      await putTreeData(request, user.token, tree._id, node(people.ada));
      await loginInBrowser(page, user.token);
      const canvas = await openEditor(page, tree);

      await canvas.getByRole("button", { name: "Ada Escape", exact: true }).click();
      const panel = page.getByRole("complementary", { name: "Ada Escape" });
      await expect(panel).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(panel).toBeHidden();

      // The panel under the node editor stays while Escape closes the editor on top of it.
      await canvas.getByRole("button", { name: "Ada Escape", exact: true }).click();
      await expect(panel).toBeVisible();
      // On a phone the panel covers the node: its button is reached from the keyboard.
      await nodeOf(canvas, "Ada Escape").getByRole("button", { name: "Edit node" }).focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Edit Node" });
      await expect(dialog).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(panel).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(panel).toBeHidden();
    });

    test("a mouse drag leaves no focus outline on the canvas; the keyboard still shows one", async ({
      page,
      request,
    }) => {
      const user = await signUpViaApi(request, "outline");
      const { tree, people } = await seedTree(request, user.token, "Outline Legacy", {
        ada: { firstName: "Ada", lastName: "Outline" },
      });
      await putTreeData(request, user.token, tree._id, node(people.ada));
      await loginInBrowser(page, user.token);
      const canvas = await openEditor(page, tree);
      const box = (await canvas.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height - 60);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height - 20, { steps: 5 });
      await page.mouse.up();
      const outline = () =>
        canvas.evaluate((el) =>
          document.activeElement === el ? getComputedStyle(el).outlineStyle : "not focused",
        );
      expect(await outline()).toBe("none");
      // From the keyboard, the focused canvas is outlined.
      await page.keyboard.press("Tab");
      await page.keyboard.press("Shift+Tab");
      await expect.poll(outline).toBe("solid");
    });
  });
}
