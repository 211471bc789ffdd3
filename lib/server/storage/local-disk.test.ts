import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeStorageBackend, INVALID_KEYS } from "@/tests/helpers/storage-suite";
import { LocalDiskStorage } from "./local-disk";

let root: string;
let storage: LocalDiskStorage;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-storage-"));
  storage = new LocalDiskStorage(root);
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describeStorageBackend("LocalDiskStorage", () => Promise.resolve(storage));

describe("LocalDiskStorage on disk", () => {
  it("keeps an object as the file under its key", async () => {
    const bytes = Buffer.from("pretend this is a png");
    await storage.put("avatar/on-disk.png", bytes, "image/png");
    expect(await fs.readFile(path.join(root, "avatar/on-disk.png"))).toEqual(bytes);
  });

  it("writes each file 0600 in folders 0700, whatever the umask (#32 finding 1)", async () => {
    const previous = process.umask(0o000);
    try {
      await storage.put("tree/private-mode/a.png", Buffer.from("png"), "image/png");
    } finally {
      process.umask(previous);
    }
    expect((await fs.stat(path.join(root, "tree/private-mode/a.png"))).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.join(root, "tree/private-mode"))).mode & 0o777).toBe(0o700);
  });

  it("leaves no temporary files after racing writers, and lists none in flight", async () => {
    const versions = Array.from({ length: 20 }, (_, i) => Buffer.alloc(200_000, i));
    await Promise.all(versions.map((v) => storage.put("avatar/race2.png", v, "image/png")));
    const files = await fs.readdir(path.join(root, "avatar"));
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);

    await fs.writeFile(path.join(root, "avatar/race2.png.0123456789ab.tmp"), "half");
    const listed: string[] = [];
    for await (const object of storage.list("avatar/race2")) listed.push(object.key);
    expect(listed).toEqual(["avatar/race2.png"]);
  });

  it("never wrote outside its root", async () => {
    expect(INVALID_KEYS).toContain("../outside.png");
    await expect(fs.stat(path.join(path.dirname(root), "outside.png"))).rejects.toThrow(/ENOENT/);
  });
});
