import { randomBytes } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "@playwright/test";

export interface TestUser {
  username: string;
  email: string;
  password: string;
  token: string;
}

export function newCredentials(prefix = "sim") {
  const id = randomBytes(5).toString("hex");
  return {
    username: `${prefix}_${id}`,
    email: `${prefix}_${id}@example.test`,
    password: `pw-${id}-Plumbob!`,
  };
}

/** Creates an account through the API (faster than the form when the form is not under test). */
export async function signUpViaApi(request: APIRequestContext, prefix?: string): Promise<TestUser> {
  const credentials = newCredentials(prefix);
  const response = await request.post("/api/account/signup", { data: credentials });
  expect(response.status(), await response.text()).toBe(200);
  const { token } = (await response.json()) as { token: string };
  return { ...credentials, token };
}

/** Puts a token in localStorage, as a login would, before the app's scripts run. */
export async function loginInBrowser(page: Page, token: string): Promise<void> {
  await page.addInitScript((value) => {
    if (!window.sessionStorage.getItem("e2e-token-set")) {
      window.localStorage.setItem("token", value);
      window.sessionStorage.setItem("e2e-token-set", "1");
    }
  }, token);
}

/** Authorization header for API calls made by a test. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
