import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readGitCommit } from "./build-hash";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const dirs: string[] = [];

function checkout(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-git-"));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("readGitCommit", () => {
  it("follows HEAD to a loose branch ref", () => {
    const root = checkout({
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/refs/heads/main": `${SHA}\n`,
    });
    expect(readGitCommit(root)).toBe(SHA);
  });

  it("finds a packed ref", () => {
    const root = checkout({
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/packed-refs": `# pack-refs with: peeled\n${"f".repeat(40)} refs/heads/other\n${SHA} refs/heads/main\n`,
    });
    expect(readGitCommit(root)).toBe(SHA);
  });

  it("reads a detached HEAD", () => {
    expect(readGitCommit(checkout({ ".git/HEAD": `${SHA}\n` }))).toBe(SHA);
  });

  it("follows a .git file to a worktree's directory", () => {
    const root = checkout({
      "repo/.git/refs/heads/feature": `${SHA}\n`,
      "repo/.git/worktrees/wt/HEAD": "ref: refs/heads/feature\n",
      "repo/.git/worktrees/wt/commondir": "../..\n",
      "wt/.git": "gitdir: ../repo/.git/worktrees/wt\n",
    });
    expect(readGitCommit(path.join(root, "wt"))).toBe(SHA);
  });

  it("is null outside a checkout or for an unborn branch", () => {
    expect(readGitCommit(checkout({ "README.md": "no git here" }))).toBeNull();
    expect(readGitCommit(checkout({ ".git/HEAD": "ref: refs/heads/main\n" }))).toBeNull();
  });
});
