// #12 finding 2: two starts on one embedded database folder destroyed it. Real production servers
// (scripts/start.ts, as `npm start` runs it) on one DATA_DIR: the second start and a migration
// are refused with a sentence naming the first; the data survives both; a SIGKILL leaves a lock
// file that does not block the next start. #32 finding 8: a start that cannot take its port exits
// at once with a sentence, and gives the folder back.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLockHolder } from "@/lib/server/data-lock";
import {
  AppServer,
  JWT_SECRET,
  ensureBuild,
  pickPort,
  removeTempDirs,
  tempDir,
} from "../reliability/support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const PORT = Number(process.env.OPS_TEST_PORT ?? 3421);
const dataDir = tempDir("lock");
const pgliteDir = path.join(dataDir, "pglite");
const first = new AppServer({ port: PORT, dataDir });

/** Runs a script on the same DATA_DIR as the server and answers its exit code and output. */
function run(
  script: string,
  port: number,
  options: { dataDir?: string } = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSX, script], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: options.dataDir ?? dataDir,
        DATABASE_URL: "",
        JWT_SECRET,
      },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so that a start that is not refused (tsx and the server it runs)
      // can be stopped whole.
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function post(path: string, body: unknown, token?: string) {
  const response = await fetch(`${first.url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const titles = async (token: string) => {
  const response = await fetch(`${first.url}/api/trees`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { title: string }[]).map((t) => t.title).sort();
};

let token = "";

beforeAll(async () => {
  ensureBuild();
  await first.start();
  const signup = await post("/api/account/signup", {
    username: "lockkeeper",
    email: "lockkeeper@example.com",
    password: "correct horse battery",
  });
  token = signup.body.token as string;
  expect((await post("/api/trees", { title: "Before the second start" }, token)).status).toBe(200);
}, 900_000);

afterAll(async () => {
  await first.stop();
  removeTempDirs();
});

describe("one embedded database folder, two processes", () => {
  it("refuses a second npm start with a sentence naming the first's pid and port", async () => {
    const holder = readLockHolder(pgliteDir);
    expect(holder).toMatchObject({ port: PORT, command: "scripts/start.ts" });
    const second = await run("scripts/start.ts", PORT + 1);
    expect(second.code).toBe(1);
    expect(second.output).toContain(
      `Heirloom did not start. The embedded database in ${pgliteDir} is in use by another Heirloom process (pid ${holder!.pid}, serving port ${PORT}, since ${holder!.startedAt}).`,
    );
    expect(second.output).not.toMatch(/External error|PANIC|\n\s+at /);
    // The lock still names the first, which still serves and writes.
    expect(readLockHolder(pgliteDir)?.pid).toBe(holder!.pid);
    expect((await post("/api/trees", { title: "After the second start" }, token)).status).toBe(200);
    expect(await titles(token)).toEqual(["After the second start", "Before the second start"]);
  });

  it("refuses npm run db:migrate while the server holds the folder", async () => {
    const holder = readLockHolder(pgliteDir)!;
    const migrate = await run("scripts/migrate.ts", PORT + 1);
    expect(migrate.code).toBe(1);
    expect(migrate.output).toContain(
      `Migrations were not applied. The embedded database in ${pgliteDir} is in use by another Heirloom process (pid ${holder.pid}, serving port ${PORT},`,
    );
  });

  it("leaves the data whole after the server stops: the folder opens and holds every write", async () => {
    await first.stop();
    expect(readLockHolder(pgliteDir)).toBeNull();
    const db = new PGlite(pgliteDir);
    try {
      const rows = await db.query<{ title: string }>(`SELECT title FROM "Tree" ORDER BY title`);
      expect(rows.rows.map((r) => r.title)).toEqual([
        "After the second start",
        "Before the second start",
      ]);
    } finally {
      await db.close();
    }
  });

  it("starts after a SIGKILL left its lock file behind, with every write kept", async () => {
    await first.start();
    expect((await post("/api/trees", { title: "Before the SIGKILL" }, token)).status).toBe(200);
    const killed = readLockHolder(pgliteDir)!;
    await first.kill("SIGKILL");
    // The dead process's lock file is still there...
    expect(readLockHolder(pgliteDir)?.pid).toBe(killed.pid);
    // ...and does not stop the next start.
    await first.start();
    expect(readLockHolder(pgliteDir)?.pid).not.toBe(killed.pid);
    expect(await titles(token)).toEqual([
      "After the second start",
      "Before the SIGKILL",
      "Before the second start",
    ]);
  }, 300_000);
});

describe("a start that cannot take its port", () => {
  const busyPort = pickPort(6_400);
  const ownDir = tempDir("busy-port");
  const ownPglite = path.join(ownDir, "pglite");
  const next = new AppServer({ port: busyPort + 1, dataDir: ownDir });
  afterAll(() => next.stop());

  it("exits 1 naming the port, gives the database's lock back, and the next start serves", async () => {
    ensureBuild();
    // Another program holds the port, on every interface as the server would listen.
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(busyPort, resolve));
    let refused: { code: number | null; output: string };
    try {
      refused = await run("scripts/start.ts", busyPort, { dataDir: ownDir });
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
    // Before: the server logged EADDRINUSE and stayed up without serving, holding the lock
    // (the run was killed after 60 s, with no exit code).
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      `Heirloom did not start. Port ${busyPort} is already in use by another program. Stop that program, or set PORT to a free port.`,
    );
    expect(refused.output).not.toMatch(/\n\s+at /);
    expect(readLockHolder(ownPglite)).toBeNull();
    // The next start on the same DATA_DIR is not refused, and serves.
    await next.start();
    expect(readLockHolder(ownPglite)).toMatchObject({ port: busyPort + 1 });
    const health = await fetch(`${next.url}/api/health`);
    expect(health.status).toBe(200);
  }, 300_000);
});
