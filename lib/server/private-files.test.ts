// #32 finding 1: DATA_DIR's folders are made 0700 and its files 0600, a symbolic link is neither
// followed nor changed, the walk is bounded, and the start's one line says what changed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  describeRepair,
  makeProcessPrivate,
  privateAfterOpen,
  repairPrivateTree,
} from "./private-files";

let root = "";
let outside = "";
const modeOf = (file: string) => fs.lstatSync(file).mode & 0o777;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-private-"));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-outside-"));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

/** DATA_DIR as PGlite and an older release left it: folders 0755, files 0666 and 0644. */
function worldReadableTree() {
  fs.chmodSync(root, 0o755);
  fs.mkdirSync(path.join(root, "pglite/pg_wal"), { recursive: true, mode: 0o755 });
  fs.mkdirSync(path.join(root, "outbox"), { mode: 0o755 });
  fs.writeFileSync(path.join(root, "pglite/pg_wal/000000010000000000000001"), "$argon2id$");
  fs.chmodSync(path.join(root, "pglite/pg_wal/000000010000000000000001"), 0o666);
  fs.writeFileSync(path.join(root, "outbox/restore.eml"), "a live link");
  fs.chmodSync(path.join(root, "outbox/restore.eml"), 0o644);
  fs.chmodSync(path.join(root, "pglite"), 0o755);
  fs.chmodSync(path.join(root, "pglite/pg_wal"), 0o755);
}

describe("repairPrivateTree", () => {
  it("makes every folder 0700 and every file 0600, the root included, and counts the changes", () => {
    worldReadableTree();
    const result = repairPrivateTree(root);
    expect(result).toEqual({ changed: 6, failed: [], truncated: false });
    for (const folder of [root, `${root}/pglite`, `${root}/pglite/pg_wal`, `${root}/outbox`]) {
      expect(modeOf(folder)).toBe(0o700);
    }
    expect(modeOf(`${root}/pglite/pg_wal/000000010000000000000001`)).toBe(0o600);
    expect(modeOf(`${root}/outbox/restore.eml`)).toBe(0o600);
    // A second walk has nothing to do, and the start then says nothing.
    const again = repairPrivateTree(root);
    expect(again.changed).toBe(0);
    expect(describeRepair(root, again)).toBeNull();
  });

  it("neither follows nor changes a symbolic link, so nothing outside DATA_DIR is touched", () => {
    fs.chmodSync(outside, 0o755);
    fs.writeFileSync(path.join(outside, "shared.txt"), "not ours");
    fs.chmodSync(path.join(outside, "shared.txt"), 0o644);
    fs.symlinkSync(outside, path.join(root, "linked-folder"));
    fs.symlinkSync(path.join(outside, "shared.txt"), path.join(root, "linked-file"));
    repairPrivateTree(root);
    expect(modeOf(outside)).toBe(0o755);
    expect(modeOf(path.join(outside, "shared.txt"))).toBe(0o644);
  });

  it("stops at its bound of entries and says so", () => {
    worldReadableTree();
    const result = repairPrivateTree(root, { maxEntries: 2 });
    expect(result.truncated).toBe(true);
    expect(result.changed).toBeLessThanOrEqual(2);
    expect(describeRepair(root, result)).toContain("stopped at its bound");
  });

  it("has nothing to do for a DATA_DIR that does not exist yet", () => {
    expect(repairPrivateTree(path.join(root, "not-yet"))).toEqual({
      changed: 0,
      failed: [],
      truncated: false,
    });
  });
});

describe("describeRepair", () => {
  it("is one line naming the folder and the count", () => {
    const line = describeRepair("/srv/heirloom", { changed: 969, failed: [], truncated: false });
    expect(line).toBe(
      "Made 969 files and folders in /srv/heirloom private to this account (folders 0700, files 0600).",
    );
    expect(line).not.toContain("\n");
  });

  it("names what could not be changed", () => {
    expect(
      describeRepair("/srv/heirloom", {
        changed: 0,
        failed: ["/srv/heirloom/x"],
        truncated: false,
      }),
    ).toBe("Could not make 1 private (first: /srv/heirloom/x): check who owns them.");
  });
});

describe("privateAfterOpen", () => {
  it("makes what the database just wrote private, without a line", () => {
    worldReadableTree();
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      privateAfterOpen(root);
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
    expect(repairPrivateTree(root).changed).toBe(0);
  });
});

describe("makeProcessPrivate", () => {
  it("sets the umask 077: a folder and a file made afterwards are the account's only", () => {
    const previous = process.umask();
    try {
      process.umask(0o022);
      makeProcessPrivate();
      fs.mkdirSync(path.join(root, "made"));
      fs.writeFileSync(path.join(root, "made/file"), "x");
      expect(modeOf(path.join(root, "made"))).toBe(0o700);
      expect(modeOf(path.join(root, "made/file"))).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });
});
