import { defineConfig, devices } from "@playwright/test";
import { startArgs } from "./scripts/lib/start-command";
import { chromiumArgs, e2e } from "./tests/e2e/support/config";

/** `npm start`'s Node flags (ADR 039): serve.ts runs scripts/start.ts in its own process. */
const serverFlags = startArgs(import.meta.dirname).slice(0, -1).join(" ");

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
    command: `npx tsx ${serverFlags} tests/e2e/support/serve.ts`,
    url: `${e2e.baseURL}/api/version`,
    // The first run may include a production build.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
  },
});
