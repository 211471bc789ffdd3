import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { GUIDES } from "@/components/guides/guide-list";
import { loginInBrowser, signUpViaApi } from "./support/session";

/** Axe's findings that matter here: the serious and critical ones, described readably. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(" ")),
    }));
}

/** Opens a page and waits until its content (not a loading state) is showing. */
async function openSettled(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole("main").getByRole("status")).toHaveCount(0);
}

const anonymousPages: [string, string | RegExp][] = [
  ["/", "Welcome to Heirloom"],
  ["/guides", "Guides"],
  ...GUIDES.map((guide): [string, string] => [`/guides/${guide.slug}`, guide.title]),
  ["/signup", "Create Account"],
  ["/login", "Login"],
  ["/forgot-password", "Forgot Password"],
  ["/forgot-username", "Forgot Username"],
  ["/reset-password?t=token&u=someone", "Reset Password"],
  ["/version", "Version"],
  ["/no-such-page", "This page does not exist"],
];

for (const [path, heading] of anonymousPages) {
  test(`${path} has no serious or critical accessibility violations`, async ({ page }) => {
    await openSettled(page, path, heading);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("Account settings and the open Account menu have no serious violations", async ({
  page,
  request,
}) => {
  const user = await signUpViaApi(request, "axe");
  await loginInBrowser(page, user.token);
  await openSettled(page, "/account", new RegExp(user.username));
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole("button", { name: "Account", exact: true }).click();
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the open mobile menu has no serious violations", async ({ page }) => {
    await openSettled(page, "/", "Welcome to Heirloom");
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
