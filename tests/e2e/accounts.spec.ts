import { expect, test, type Locator, type Page } from "@playwright/test";
import { e2e } from "./support/config";
import { linkIn, readMail } from "./support/mail";
import { bearer, loginInBrowser, newCredentials, signUpViaApi } from "./support/session";

const toast = (page: Page, text: string) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text });

/** A message shown beside its field (not in a toast): the field is invalid and described by it. */
async function expectBeside(field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(
    new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
  );
}

const storedToken = (page: Page) => page.evaluate(() => window.localStorage.getItem("token"));

async function openAccountMenu(page: Page) {
  await page.getByRole("button", { name: "Account", exact: true }).click();
}

async function logInWithForm(page: Page, username: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

test("sign up, log out with a farewell and log back in with a welcome", async ({ page }) => {
  const user = newCredentials("signup");

  await page.goto("/signup");
  await expect(page.getByRole("heading", { name: "Create Account" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Log in" })).toHaveAttribute(
    "href",
    "/login",
  );
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create Account" }).click();

  await expect(toast(page, "Account created!")).toBeVisible();
  await expect(page).toHaveURL(`${e2e.baseURL}/`);
  expect(await storedToken(page)).toBeTruthy();
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Create New" })).toHaveAttribute(
    "href",
    "/trees/create",
  );

  // Anonymous-only pages send a logged-in user home.
  await page.goto("/signup");
  await expect(page).toHaveURL(`${e2e.baseURL}/`);

  await openAccountMenu(page);
  await expect(
    page.getByRole("banner").getByRole("link", { name: "Account Settings" }),
  ).toHaveAttribute("href", "/account");
  await page.getByRole("banner").getByRole("button", { name: "Logout" }).click();
  await expect(toast(page, `Goodbye ${user.username}, see you soon!`)).toBeVisible();
  expect(await storedToken(page)).toBeNull();
  await expect(nav.getByRole("link", { name: "create an account" })).toBeVisible();

  await openAccountMenu(page);
  await page.getByRole("banner").getByRole("link", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(toast(page, `Welcome back ${user.username}!`)).toBeVisible();
  await expect(page).toHaveURL(`${e2e.baseURL}/`);
  expect(await storedToken(page)).toBeTruthy();
});

test("signing up with a taken username shows the server's message", async ({ page, request }) => {
  const existing = await signUpViaApi(request, "taken");
  const answer = await request.post("/api/account/signup", {
    data: { ...newCredentials("other"), username: existing.username },
  });
  const { errors } = (await answer.json()) as { errors: { detail: string }[] };

  await page.goto("/signup");
  await page.getByLabel("Username").fill(existing.username);
  await page.getByLabel("Email").fill(newCredentials().email);
  await page.getByLabel("Password").fill("a-long-enough-password");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expectBeside(page.getByLabel("Username"), errors[0]!.detail);
  await expect(page).toHaveURL(/\/signup$/);
});

test("a wrong password shows the server's message and logs nobody in", async ({
  page,
  request,
}) => {
  const user = await signUpViaApi(request, "wrongpw");
  const answer = await request.post("/api/account/signin", {
    data: { username: user.username, password: "not-the-password" },
  });
  expect(answer.status()).toBe(400);
  const { errors } = (await answer.json()) as { errors: { detail: string }[] };
  const detail = errors[0]!.detail;
  expect(detail.length).toBeGreaterThan(0);

  await logInWithForm(page, user.username, "still-not-the-password");
  await expectBeside(page.getByLabel("Password"), detail);
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedToken(page)).toBeNull();
});

test("reset the password from the e-mailed link", async ({ page, request }) => {
  const user = await signUpViaApi(request, "reset");
  const since = Date.now();

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("Username").fill(user.username);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.locator('[data-sonner-toast][data-type="success"]')).toBeVisible();

  const mail = await readMail(user.email, since);
  const link = linkIn(mail, `${e2e.baseURL}/reset-password`);
  const url = new URL(link);
  expect(url.searchParams.get("u")).toBe(user.username);
  expect(url.searchParams.get("t")).toBeTruthy();

  await page.goto(link);
  const newPassword = "a-brand-new-password";
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password").fill("something-else-entirely");
  await page.getByRole("button", { name: "Save Password" }).click();
  await expectBeside(
    page.getByLabel("Confirm new password"),
    "Your new password and the confirm password does not match",
  );

  await page.getByLabel("Confirm new password").fill(newPassword);
  await page.getByRole("button", { name: "Save Password" }).click();
  await expect(toast(page, "Password has been saved")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(newPassword);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(toast(page, `Welcome back ${user.username}!`)).toBeVisible();
});

test("forgot username checks the address, then mails the username", async ({ page, request }) => {
  const user = await signUpViaApi(request, "forgotname");
  const since = Date.now();

  await page.goto("/forgot-username");
  await expect(page.getByText("Usernames are case sensitive")).toBeVisible();
  await page.getByRole("button", { name: "Email My Username" }).click();
  await expectBeside(page.getByLabel("Email"), "Email address is required");

  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Email My Username" }).click();
  await expect(page.locator('[data-sonner-toast][data-type="success"]')).toBeVisible();
  const mail = await readMail(user.email, since);
  expect(mail.text).toContain(user.username);
});

test("change the email and the password on Account", async ({ page, request }) => {
  const user = await signUpViaApi(request, "settings");
  await loginInBrowser(page, user.token);
  await page.goto("/account");

  await expect(page.getByRole("heading", { level: 1 })).toContainText(user.username);
  const emailPanel = page.getByRole("region", { name: "Update Email" });
  await expect(emailPanel).toContainText(user.email);

  await emailPanel.getByLabel("New email").fill("not-an-email");
  await emailPanel.getByRole("button", { name: "Update Email" }).click();
  await expectBeside(emailPanel.getByLabel("New email"), "Looks like your new email is not valid");

  const newEmail = newCredentials("moved").email;
  await emailPanel.getByLabel("New email").fill(newEmail);
  await emailPanel.getByRole("button", { name: "Update Email" }).click();
  await expect(toast(page, "Your email address has been updated")).toBeVisible();
  await expect(emailPanel).toContainText(newEmail);
  const me = await request.get("/api/user", { headers: bearer(user.token) });
  expect(((await me.json()) as { email: string }).email).toBe(newEmail);

  const passwordPanel = page.getByRole("region", { name: "Update Password" });
  const current = passwordPanel.getByLabel("Current password");
  const fresh = passwordPanel.getByLabel("New password", { exact: true });
  const confirm = passwordPanel.getByLabel("Confirm new password");
  const submit = passwordPanel.getByRole("button", { name: "Update Password" });

  await current.fill(user.password);
  await fresh.fill("short");
  await confirm.fill("short");
  await submit.click();
  await expectBeside(fresh, "Your new password should be at least 8 characters");

  await fresh.fill("a-long-new-password");
  await confirm.fill("a-different-password");
  await submit.click();
  await expectBeside(confirm, "Looks like your new and confirmation passwords don't match");

  await confirm.fill("a-long-new-password");
  await submit.click();
  await expect(toast(page, "Your password has been updated")).toBeVisible();
  await expect(current).toHaveValue("");

  // The new token keeps this browser logged in.
  const token = await storedToken(page);
  expect(token).toBeTruthy();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(user.username);
  const signin = await request.post("/api/account/signin", {
    data: { username: user.username, password: "a-long-new-password" },
  });
  expect(signin.status()).toBe(200);
});

test("delete the account", async ({ page, request }) => {
  const user = await signUpViaApi(request, "goodbye");
  await loginInBrowser(page, user.token);
  await page.goto("/account");

  const panel = page.getByRole("region", { name: "Delete Account" });
  await panel.getByRole("button", { name: "Delete Account" }).click();
  await expectBeside(
    panel.getByLabel("Password"),
    "Your password is required to delete this account",
  );

  await panel.getByLabel("Password").fill(user.password);
  await panel.getByRole("button", { name: "Delete Account" }).click();
  await expect(toast(page, `Account ${user.username} has now been deleted`)).toBeVisible();
  await expect(page).toHaveURL(`${e2e.baseURL}/`);
  expect(await storedToken(page)).toBeNull();

  const signin = await request.post("/api/account/signin", {
    data: { username: user.username, password: user.password },
  });
  expect(signin.ok()).toBe(false);
});

test("Account needs a login, and an expired session is sent to /login", async ({ page }) => {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login$/);

  // A token the server refuses (403): the client drops it, warns and goes to /login.
  await page.evaluate(() => window.localStorage.setItem("token", "not.a-valid.token"));
  await page.goto("/account");
  await expect(toast(page, "You're session expired. Please login again.").first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedToken(page)).toBeNull();
});
