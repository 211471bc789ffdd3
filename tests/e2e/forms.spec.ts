// Issue #15, forms and guidance: the empty tree leads to a first Sim inside the editor, the
// searchable selects rank exact and prefix matches first, server errors sit beside their fields
// with a clean toast stack, Delete Account names what it unpublishes, and every not-found page
// has one shell and a link home without JavaScript. Each at a desktop and a phone size.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { getTree, openEditor, waitForSaved } from "./support/editor";
import { docScreenshot } from "./support/screenshots";
import { bearer, loginInBrowser, newCredentials, signUpViaApi } from "./support/session";
import { createPersonViaApi, createTreeViaApi, publishViaApi } from "./tree-fixtures";

const SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** Every toast on screen, and the error and warning ones. */
const toasts = (page: Page) => page.locator("[data-sonner-toast]");
const problemToasts = (page: Page) =>
  page.locator('[data-sonner-toast][data-type="error"], [data-sonner-toast][data-type="warning"]');

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The message is shown beside the field: the field is invalid and described by it. */
async function expectBeside(field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(new RegExp(escaped(message)));
}

async function expectNoProblemToasts(page: Page) {
  // Toasts appear after the answer arrives; give a wrong one the time to show up.
  await page.waitForTimeout(300);
  await expect(problemToasts(page)).toHaveCount(0);
}

for (const size of SIZES) {
  test.describe(`at ${size.width}x${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("an empty tree leads to a first Sim without leaving the editor", async ({
      page,
      request,
    }) => {
      const user = await signUpViaApi(request, "empty");
      const tree = await createTreeViaApi(request, user.token, { title: "Blank Legacy" });
      await loginInBrowser(page, user.token);
      await openEditor(page, tree);
      const editorUrl = page.url();

      const guide = page.getByRole("region", { name: "Your tree is empty" });
      await expect(guide).toBeVisible();
      await docScreenshot(page, `forms-empty-tree-${size.name}-after.png`);

      // Clicking the "?" node opens the node's editor.
      await page.getByRole("button", { name: "Choose a Sim for this node" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit Node" });
      await expect(dialog).toBeVisible();
      await dialog.getByRole("button", { name: "Set Node Person" }).click();

      // The picker offers "Create a new Sim" for a name nobody has.
      const picker = dialog.getByRole("combobox", { name: "Sim" });
      await picker.fill("Bella Goth");
      await expect(
        dialog.getByRole("option", { name: 'Create a new Sim "Bella Goth"' }),
      ).toBeVisible();
      await docScreenshot(page, `forms-picker-${size.name}-after.png`);
      await picker.press("Enter");

      // Back on the node's menu, with the new Sim set on the node.
      await expect(dialog.getByRole("region", { name: "Node Person" })).toContainText("Bella Goth");
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(page.getByRole("button", { name: "Bella Goth" })).toBeVisible();
      await expect(guide).toBeHidden();
      expect(page.url()).toBe(editorUrl);
      await waitForSaved(page);

      const saved = await getTree(request, user.token, tree._id);
      const people = (await (
        await request.get(`/api/people?tree=${tree._id}`, { headers: bearer(user.token) })
      ).json()) as { _id: string; firstName: string; lastName: string }[];
      expect(people).toEqual([expect.objectContaining({ firstName: "Bella", lastName: "Goth" })]);
      // GET names every reference (issue 13)
      expect(saved.data.person).toEqual({
        _id: people[0]!._id,
        firstName: "Bella",
        lastName: "Goth",
      });

      // The guide's button and the picker's "Create a new Sim" fields work on a child node too.
      await page.getByRole("button", { name: "Add child" }).first().click();
      await page.getByRole("button", { name: "Choose a Sim for this node" }).click();
      await dialog.getByRole("button", { name: "Set Node Person" }).click();
      await dialog.getByRole("button", { name: "Create a new Sim" }).click();
      await dialog.getByLabel("First Name").fill("Cassandra");
      await dialog.getByLabel("Last Name").fill("Goth");
      await dialog.getByRole("button", { name: "Create Sim" }).click();
      await expect(dialog.getByRole("region", { name: "Node Person" })).toContainText(
        "Cassandra Goth",
      );
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(page.getByRole("button", { name: "Cassandra Goth" })).toBeVisible();
      await waitForSaved(page);
      const after = await getTree(request, user.token, tree._id);
      expect(after.data.children[0]?.person).toBeTruthy();
      await expect(problemToasts(page)).toHaveCount(0);
    });

    test("searchable selects put exact and prefix matches first, and Enter picks the top one", async ({
      page,
      request,
    }) => {
      const user = await signUpViaApi(request, "rank");
      const tree = await createTreeViaApi(request, user.token, { title: "Ranked Legacy" });
      await loginInBrowser(page, user.token);
      await page.goto(`/trees/${tree._id}/people/add`);

      const chips = (label: string) =>
        page
          .getByRole("group", { name: label, exact: true })
          .locator(".suggestion-select__multi-value");

      const lifeStates = page.getByRole("combobox", { name: "Life States", exact: true });
      await lifeStates.fill("Sim");
      await expect(page.getByRole("listbox").getByRole("option").first()).toHaveText("Sim");
      await lifeStates.press("Enter");
      await expect(chips("Life States")).toHaveText(["Sim"]);

      const traits = page.getByRole("combobox", { name: "Traits", exact: true });
      await traits.fill("Rom");
      const options = page.getByRole("listbox").getByRole("option");
      await expect(options.first()).toHaveText("Romantic");
      const texts = await options.allTextContents();
      expect(texts.indexOf("Romantic")).toBeLessThan(
        texts.indexOf("Death by Falling from Heights"),
      );
      await traits.press("Enter");
      await expect(chips("Traits")).toHaveText(["Romantic"]);
    });

    test("a server error shows beside its field, clears when the field changes, and the toast stack stays clean", async ({
      page,
      request,
    }) => {
      const existing = await signUpViaApi(request, "taken");
      const fresh = newCredentials("fresh");

      await page.goto("/signup");
      const username = page.getByLabel("Username");
      const password = page.getByLabel("Password");
      await username.fill(existing.username);
      await page.getByLabel("Email").fill(fresh.email);
      await password.fill("short");
      await page.getByRole("button", { name: "Create Account" }).click();
      await expectBeside(password, "Your password should be at least 8 characters");
      await expectNoProblemToasts(page);

      await password.fill(fresh.password);
      await expect(password).not.toHaveAttribute("aria-invalid");
      await page.getByRole("button", { name: "Create Account" }).click();
      await expectBeside(username, "That username is taken");
      await page.getByRole("button", { name: "Create Account" }).click();
      await expectBeside(username, "That username is taken");
      await expectNoProblemToasts(page);
      await docScreenshot(page, `forms-signup-error-${size.name}-after.png`);

      // Typing in the field clears its message.
      await username.fill(fresh.username);
      await expect(username).not.toHaveAttribute("aria-invalid");
      await expect(page.getByText("That username is taken")).toHaveCount(0);

      await page.getByRole("button", { name: "Create Account" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(toasts(page)).toHaveCount(1);
      await expect(toasts(page)).toHaveText(/Account created!/);

      // Login: the refusal sits beside the password, once, however often it is repeated.
      await page.evaluate(() => window.localStorage.removeItem("token"));
      await page.goto("/login");
      await page.getByLabel("Username").fill(fresh.username);
      const loginPassword = page.getByLabel("Password");
      await loginPassword.fill("not-the-password");
      await page.getByRole("button", { name: "Login" }).click();
      await expectBeside(loginPassword, "Incorrect username or password");
      await expectNoProblemToasts(page);
      await loginPassword.fill(fresh.password);
      await page.getByRole("button", { name: "Login" }).click();
      await expect(
        toasts(page).filter({ hasText: `Welcome back ${fresh.username}!` }),
      ).toBeVisible();
      await expect(problemToasts(page)).toHaveCount(0);
    });

    test("Delete Account names the published trees it unpublishes", async ({ page, request }) => {
      const user = await signUpViaApi(request, "leaving");
      const shown = await createTreeViaApi(request, user.token, { title: "The Public Goths" });
      await createPersonViaApi(request, user.token, shown._id, { firstName: "Bella" });
      await publishViaApi(request, user.token, shown._id);
      await createTreeViaApi(request, user.token, { title: "The Private Pancakes" });
      await loginInBrowser(page, user.token);
      await page.goto("/account");

      const panel = page.getByRole("region", { name: "Delete Account" });
      const list = panel.getByRole("list", { name: "Trees that will be unpublished" });
      await expect(list.getByRole("listitem")).toHaveText(["The Public Goths"]);
      await expect(panel).toContainText("your 2 trees");
      await expect(panel).toContainText("will be unpublished");

      const password = panel.getByLabel("Password");
      await panel.getByRole("button", { name: "Delete Account" }).click();
      await expectBeside(password, "Your password is required to delete this account");
      await password.fill("not-my-password");
      await panel.getByRole("button", { name: "Delete Account" }).click();
      await expectBeside(password, "Your password is incorrect");
      await expectNoProblemToasts(page);

      await password.fill(user.password);
      await panel.getByRole("button", { name: "Delete Account" }).click();
      await expect(toasts(page).filter({ hasText: "has now been deleted" })).toBeVisible();
      expect((await request.get(`/api/published/${shown._id}`)).status()).toBe(404);
    });

    test("not-found pages have one shell and a link home without JavaScript", async ({
      browser,
    }) => {
      const context = await browser.newContext({
        javaScriptEnabled: false,
        viewport: { width: size.width, height: size.height },
      });
      const page = await context.newPage();
      for (const path of ["/guides/no-such-guide", "/no-such-page", "/trees/nope/people/x/y"]) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(404);
        await expect(page.getByRole("heading", { name: "This page does not exist" })).toHaveCount(
          1,
        );
        await expect(page.getByRole("banner"), path).toHaveCount(1);
        await expect(page.getByRole("main"), path).toHaveCount(1);
        const home = page.getByRole("main").getByRole("link", { name: "Return home" });
        await expect(home, path).toBeVisible();
        await expect(home).toHaveAttribute("href", "/");
      }
      await page.goto("/guides/no-such-guide");
      await page.getByRole("main").getByRole("link", { name: "Return home" }).click();
      await expect(page).toHaveURL(/\/$/);
      await context.close();
    });
  });
}
