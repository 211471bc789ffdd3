import { defineConfig, devices } from "@playwright/test";
import { chromiumArgs, e2e } from "./tests/e2e/support/config";

// Browser downloads are not possible here: Debian's Chromium is used instead.

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: /.*\.spec\.ts$/,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: e2e.baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: chromiumArgs,
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "npx tsx tests/e2e/support/serve.ts",
    url: `${e2e.baseURL}/api/version`,
    // The first run may include a production build.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
  },
});
