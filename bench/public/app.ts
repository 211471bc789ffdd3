/**
 * The app the public benches read (`bench:public`, `bench:lighthouse`): BENCH_BASE_URL if given,
 * else the production build started here like Playwright's webServer on BENCH_PORT, and published
 * trees imported as GEDCOM files of the bench's shapes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { answers, ensureServer as startApp } from "../support/chromium";
import { generateGedcom, type Shape } from "./gedcom";

export const root = path.resolve(import.meta.dirname, "../..");
const port = Number(process.env.BENCH_PORT ?? 3450);
export const baseURL = process.env.BENCH_BASE_URL ?? `http://127.0.0.1:${port}`;
export const database = process.env.BENCH_DB ?? "heirloom_bench_pub";

/**
 * The database engine the app runs on: BENCH_ENGINE=pglite starts it without DATABASE_URL, on the
 * embedded default in a fresh DATA_DIR (issue 23: the same server in front on both engines).
 */
export const engine: "postgresql" | "pglite" =
  process.env.BENCH_ENGINE === "pglite" ? "pglite" : "postgresql";

/** Starts the production app unless one answers at baseURL; null when it was already there. */
export async function ensureServer(): Promise<ChildProcess | null> {
  if (engine === "postgresql") return startApp({ baseURL, port, database, timeoutMs: 900_000 });
  if (await answers(`${baseURL}/api/version`)) return null;
  if (process.env.BENCH_BASE_URL) throw new Error(`${baseURL} does not answer`);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-bench-pglite-"));
  console.log(`Starting the app on PGlite in ${dataDir}, on ${baseURL} (a build may come first)…`);
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/start.ts"],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        APP_URL: baseURL,
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        REDIS_URL: "",
        SMTP_URL: "",
        LOG_LEVEL: "warn",
        HEIRLOOM_DIST_DIR: process.env.HEIRLOOM_DIST_DIR ?? ".next",
      },
      stdio: ["ignore", "inherit", "inherit"],
      detached: true,
    },
  );
  const deadline = Date.now() + 900_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}`);
    if (await answers(`${baseURL}/api/version`)) return child;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error("The server did not start in 15 minutes");
}

export function stopServer(server: ChildProcess | null) {
  if (server?.pid) process.kill(-server.pid, "SIGTERM");
}

export async function call<T>(
  method: string,
  url: string,
  body?: BodyInit,
  token?: string,
): Promise<T> {
  const response = await fetch(`${baseURL}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(typeof body === "string" ? { "content-type": "application/json" } : {}),
    },
    body,
  });
  if (!response.ok)
    throw new Error(`${method} ${url} → ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A new account's token. */
export async function signUp(prefix: string): Promise<string> {
  const id = Math.random().toString(36).slice(2, 10);
  const { token } = await call<{ token: string }>(
    "POST",
    "/api/account/signup",
    JSON.stringify({
      username: `${prefix}_${id}`,
      email: `${prefix}_${id}@example.test`,
      password: `pw-${id}-Plumbob!`,
    }),
  );
  return token;
}

export interface PublishedBenchTree {
  name: string;
  treeId: string;
  importMs: number;
  publishMs: number;
  pagePath: string;
  snapshotPath: string;
}

/** Imports a generated legacy of `sims` Sims in `shape` and publishes it. */
export async function publishTree(
  token: string,
  sims: number,
  shape: Shape,
): Promise<PublishedBenchTree> {
  const name = `${shape} ${sims}`;
  const gedcom = generateGedcom(sims, shape);
  const importStarted = performance.now();
  const imported = await call<{ tree: { _id: string } }>(
    "POST",
    `/api/trees/import?format=gedcom&title=${encodeURIComponent(`Bench ${name}`)}`,
    new Blob([gedcom], { type: "text/plain" }),
    token,
  );
  const importMs = performance.now() - importStarted;
  const treeId = imported.tree._id;
  const publishStarted = performance.now();
  const { lastPublishDate } = await call<{ lastPublishDate: string }>(
    "PUT",
    `/api/published/${treeId}`,
    undefined,
    token,
  );
  return {
    name,
    treeId,
    importMs,
    publishMs: performance.now() - publishStarted,
    pagePath: `/public/${treeId}`,
    snapshotPath: `/api/published/${treeId}/snapshot/${new Date(lastPublishDate).getTime().toString(36)}`,
  };
}
