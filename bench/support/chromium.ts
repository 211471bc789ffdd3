// What the browser benchmarks share: Debian's Chromium launched the same way, the shim tsx's
// functions need in a page, and the production app started on a port of the bench's own.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { startArgs } from "../../scripts/lib/start-command";
import { chromiumArgs } from "../../tests/e2e/support/config";

/** Debian's Chromium (CHROMIUM_PATH overrides), headless, with the browser tests' flags and `extraArgs`. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [...chromiumArgs, ...extraArgs],
  });
}

/** How the browser is described in a bench's results. */
export const describeChromium = (extraArgs: string[] = []) =>
  "Debian Chromium, headless, " + [...chromiumArgs, ...extraArgs].join(" ");

/** tsx (esbuild with keepNames) wraps named functions in __name(), which pages lack. */
export const NAME_SHIM = "globalThis.__name = (fn) => fn;";

const root = path.resolve(import.meta.dirname, "../..");

export async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/**
 * The app at `baseURL`: null when it already answers, else the production build (in .next-bench)
 * started on `port` with its own `database` (tests/e2e/support/serve.ts, with `npm start`'s Node
 * flags; a build may come first;
 * E2E_SMTP_PORT, E2E_DB and HEIRLOOM_DIST_DIR override), once it answers.
 */
export async function ensureServer(options: {
  baseURL: string;
  port: number;
  database: string;
  timeoutMs?: number;
}): Promise<ChildProcess | null> {
  const { baseURL, port, database, timeoutMs = 600_000 } = options;
  if (await answers(`${baseURL}/api/version`)) return null;
  if (process.env.BENCH_BASE_URL) throw new Error(`${baseURL} does not answer`);
  console.log(`Starting the app on ${baseURL} (a build may come first)…`);
  // with `npm start`'s Node flags (ADR 039): serve.ts runs scripts/start.ts in its own process
  const flags = startArgs(root).slice(0, -1);
  const child = spawn("npx", ["tsx", ...flags, "tests/e2e/support/serve.ts"], {
    cwd: root,
    env: {
      ...process.env,
      E2E_PORT: String(port),
      E2E_SMTP_PORT: process.env.E2E_SMTP_PORT ?? String(port - 700),
      E2E_DB: process.env.E2E_DB ?? database,
      HEIRLOOM_DIST_DIR: process.env.HEIRLOOM_DIST_DIR ?? ".next-bench",
    },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}`);
    if (await answers(`${baseURL}/api/version`)) return child;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`The server did not start in ${timeoutMs / 60_000} minutes`);
}
