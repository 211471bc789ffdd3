// #32 finding 1: the embedded database was world-readable: 969 of the 1,071 files under
// DATA_DIR/pglite were mode 0666 in 0755 folders, so any local account could grep the password
// hashes out of pg_wal, and the outbox's .eml files (live links) were 0644. A real production
// server (what `npm start` runs) on a DATA_DIR left as an older release left it, with data written
// through the API: afterwards every folder under DATA_DIR is 0700 and every file 0600, and the
// unprivileged account `nobody` can read none of it. A start that finds the modes of an older
// release repairs them and says so in one line.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AppServer,
  ensureBuild,
  pickPort,
  removeTempDirs,
  tempDir,
} from "../reliability/support/server";

// The temporary folder is made traversable by anyone, as a home folder or /srv usually is, so
// that only DATA_DIR's own modes keep other accounts out.
const parent = tempDir("private");
fs.chmodSync(parent, 0o755);
const dataDir = path.join(parent, "data");
// DATA_DIR as it exists before the start (as a folder made by hand, or by an older release).
fs.mkdirSync(dataDir, { mode: 0o755 });
fs.chmodSync(dataDir, 0o755);
const server = new AppServer({ port: pickPort(6_100), dataDir });

/** Runs a command as the unprivileged account `nobody` (the tests run as root, here and in CI). */
function asNobody(command: string[]) {
  const result = spawnSync("runuser", ["-u", "nobody", "--", ...command], { encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every entry under DATA_DIR (itself included) whose mode is not 0700 (folder) or 0600 (file). */
function notPrivate(root: string): string[] {
  const found: string[] = [];
  const walk = (entry: string) => {
    const stat = fs.lstatSync(entry);
    const mode = stat.mode & 0o777;
    if (stat.isDirectory()) {
      if (mode !== 0o700) found.push(`${path.relative(root, entry) || "."} ${mode.toString(8)}`);
      for (const name of fs.readdirSync(entry)) walk(path.join(entry, name));
    } else if (!stat.isSymbolicLink() && mode !== 0o600) {
      found.push(`${path.relative(root, entry)} ${mode.toString(8)}`);
    }
  };
  walk(root);
  return found;
}

const countFiles = (root: string): number =>
  fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

async function post(route: string, body: unknown) {
  const response = await fetch(`${server.url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  ensureBuild();
  await server.start();
  // A password hash in the database (pg_wal), and a live reset link in the outbox.
  const signup = await post("/api/account/signup", {
    username: "keeper",
    email: "keeper@example.com",
    password: "correct horse battery",
  });
  expect(signup.status).toBe(200);
  expect((await post("/api/account/forgotpassword", { username: "keeper" })).status).toBe(200);
  // The mail is queued (mail-jobs.ts): wait until the outbox holds it.
  const outbox = path.join(dataDir, "outbox");
  for (let i = 0; i < 300 && !(fs.existsSync(outbox) && fs.readdirSync(outbox).length > 0); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 900_000);

afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

describe("DATA_DIR on the embedded database", () => {
  it("holds the secrets this test looks for, and `nobody` can read what is not private", () => {
    // So that the checks below cannot pass for want of data or of a working runuser.
    const asRoot = spawnSync("grep", ["-rlaF", "$argon2id$", path.join(dataDir, "pglite")], {
      encoding: "utf8",
    });
    expect(asRoot.stdout).toContain(`${dataDir}/pglite/`);
    expect(fs.readdirSync(path.join(dataDir, "outbox")).length).toBe(1);
    const control = path.join(parent, "readable.txt");
    fs.writeFileSync(control, "anyone may read this", { mode: 0o644 });
    expect(asNobody(["cat", control])).toMatchObject({ code: 0, stdout: "anyone may read this" });
  });

  it("is 0700 for every folder and 0600 for every file while the server runs", () => {
    expect(countFiles(dataDir)).toBeGreaterThan(900);
    expect(notPrivate(dataDir)).toEqual([]);
  });

  it("gives the unprivileged account `nobody` nothing: no hash, no WAL, no mail, no listing", () => {
    const grep = asNobody(["grep", "-rlaF", "$argon2id$", dataDir]);
    expect(grep.stdout).toBe("");
    expect(grep.code).not.toBe(0);
    expect(grep.stderr).toContain("Permission denied");
    const wal = path.join(dataDir, "pglite", "pg_wal");
    const segment = fs.readdirSync(wal).find((name) => /^[0-9A-F]{24}$/.test(name))!;
    expect(asNobody(["cat", path.join(wal, segment)]).code).not.toBe(0);
    const mail = fs.readdirSync(path.join(dataDir, "outbox"))[0]!;
    expect(asNobody(["cat", path.join(dataDir, "outbox", mail)]).code).not.toBe(0);
    expect(asNobody(["ls", dataDir]).code).not.toBe(0);
  });

  it("repairs, at the next start, a DATA_DIR an older release left world-readable, in one line", async () => {
    await server.stop();
    // As the landed code left it: folders 0755, PGlite's files 0666, the outbox 0644.
    let opened = 0;
    const loosen = (entry: string) => {
      const stat = fs.lstatSync(entry);
      if (stat.isDirectory()) {
        fs.chmodSync(entry, 0o755);
        for (const name of fs.readdirSync(entry)) loosen(path.join(entry, name));
      } else {
        fs.chmodSync(entry, entry.includes("/outbox/") ? 0o644 : 0o666);
      }
      opened += 1;
    };
    loosen(dataDir);
    expect(notPrivate(dataDir).length).toBe(opened);
    expect(asNobody(["grep", "-rlaF", "$argon2id$", path.join(dataDir, "pglite")]).stdout).not.toBe(
      "",
    );

    await server.start();
    const log = server.logTail(100_000);
    const lastStart = log.slice(log.lastIndexOf("=== start"));
    const lines = lastStart.split("\n").filter((line) => line.includes("private to this account"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^Made \\d+ files and folders in ${dataDir} private to this account \\(folders 0700, files 0600\\)\\.$`,
      ),
    );
    expect(notPrivate(dataDir)).toEqual([]);
    expect(asNobody(["grep", "-rlaF", "$argon2id$", dataDir]).stdout).toBe("");
  }, 300_000);
});
