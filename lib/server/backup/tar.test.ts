// The backup archive's tar (ADR 033): what it writes, GNU tar reads; what it reads back is what was
// written; an unsafe or foreign entry, a damaged header and a cut-off archive are refused.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTar, type TarSource, writeTar } from "./tar";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-tar-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

async function* oneChunk(bytes: Buffer, size = 777): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function entriesOf(bytes: Buffer): Promise<[string, Buffer][]> {
  const found: [string, Buffer][] = [];
  for await (const entry of readTar(oneChunk(bytes))) {
    found.push([entry.name, await collect(entry.bytes())]);
  }
  return found;
}

const longName = `uploads/variants/1200x640/${"deep/".repeat(30)}avatar.png.webp`;
const files: [string, Buffer][] = [
  ["heirloom-backup.json", Buffer.from('{"format":"heirloom-backup"}\n')],
  ["database/Empty.jsonl", Buffer.alloc(0)],
  ["uploads/avatar/ab.png.webp", Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251))],
  [longName, Buffer.from("long")],
];
const sources = (): TarSource[] =>
  files.map(([name, bytes]) => ({ name, size: bytes.length, bytes: () => [bytes] }));

describe("the backup tar", () => {
  it("reads back what it wrote, long names included, and GNU tar agrees", async () => {
    const tar = await collect(writeTar(sources()));
    expect(tar.length % 512).toBe(0);
    expect(await entriesOf(tar)).toEqual(files);
    const file = path.join(dir, "a.tar");
    fs.writeFileSync(file, tar);
    const listed = execFileSync("tar", ["-tf", file], { encoding: "utf8" }).trim().split("\n");
    expect(listed).toEqual(files.map(([name]) => name));
    const out = path.join(dir, "out");
    fs.mkdirSync(out);
    execFileSync("tar", ["-xf", file, "-C", out]);
    expect(fs.readFileSync(path.join(out, longName), "utf8")).toBe("long");
  });

  it("fails an entry whose bytes are not the size it declared (a torn file)", async () => {
    const torn: TarSource = { name: "uploads/x", size: 10, bytes: () => [Buffer.from("short")] };
    await expect(collect(writeTar([torn]))).rejects.toThrow(/changed while it was archived/);
  });

  it.each(["../escape", "/etc/passwd", "a/../../b", "a\\b", "a//b"])(
    "refuses to write the unsafe name %s",
    async (name) => {
      const source: TarSource = { name, size: 0, bytes: () => [] };
      await expect(collect(writeTar([source]))).rejects.toThrow(/Unsafe name/);
    },
  );

  it("refuses an absolute name and a symbolic link written by GNU tar", async () => {
    const target = path.join(dir, "plain.txt");
    fs.writeFileSync(target, "x");
    const absolute = execFileSync("tar", ["-cPf", "-", target]);
    await expect(entriesOf(absolute)).rejects.toThrow(/Unsafe name/);
    fs.symlinkSync("/etc/passwd", path.join(dir, "link"));
    const link = execFileSync("tar", ["-cf", "-", "-C", dir, "link"]);
    await expect(entriesOf(link)).rejects.toThrow(/kind a backup never has/);
  });

  it("refuses a damaged header and a cut-off archive", async () => {
    const tar = await collect(writeTar(sources()));
    const damaged = Buffer.from(tar);
    damaged[3] = damaged[3]! ^ 0x20; // a letter of the first name
    await expect(entriesOf(damaged)).rejects.toThrow(/damaged header/);
    await expect(entriesOf(tar.subarray(0, 1_500))).rejects.toThrow(/cut off/);
    await expect(entriesOf(tar.subarray(0, tar.length - 1024))).rejects.toThrow(/cut off/);
  });
});
