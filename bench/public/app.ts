/**
 * The app the public benches read (`bench:public`, `bench:lighthouse`): BENCH_BASE_URL if given,
 * else the production build started here like Playwright's webServer on BENCH_PORT, and published
 * trees imported as GEDCOM files of the bench's shapes.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { ensureServer as startApp } from "../support/chromium";
import { generateGedcom, type Shape } from "./gedcom";

export const root = path.resolve(import.meta.dirname, "../..");
const port = Number(process.env.BENCH_PORT ?? 3450);
export const baseURL = process.env.BENCH_BASE_URL ?? `http://127.0.0.1:${port}`;
export const database = process.env.BENCH_DB ?? "heirloom_bench_pub";

/** Starts the production app unless one answers at baseURL; null when it was already there. */
export const ensureServer = (): Promise<ChildProcess | null> =>
  startApp({ baseURL, port, database, timeoutMs: 900_000 });

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
