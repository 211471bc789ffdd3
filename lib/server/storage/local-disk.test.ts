import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalDiskStorage } from "./local-disk";
import { readStream } from "./storage";

let root: string;
let storage: LocalDiskStorage;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-storage-"));
  storage = new LocalDiskStorage(root);
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe("LocalDiskStorage", () => {
  it("stores, reads (as bytes and as a stream), checks and deletes an object", async () => {
    const bytes = Buffer.from("pretend this is a png");
    await storage.put("avatar/a.png", bytes, "image/png");
    expect(await fs.readFile(path.join(root, "avatar/a.png"))).toEqual(bytes);
    expect(await storage.exists("avatar/a.png")).toBe(true);

    const read = await storage.get("avatar/a.png");
    expect(read).toMatchObject({ contentType: "image/png", size: bytes.length });
    expect(await read!.bytes()).toEqual(bytes);
    expect(await readStream((await storage.get("avatar/a.png"))!.stream())).toEqual(bytes);

    await storage.delete("avatar/a.png");
    expect(await storage.exists("avatar/a.png")).toBe(false);
    expect(await storage.get("avatar/a.png")).toBeNull();
  });

  it("answers null, false and success for a missing object", async () => {
    expect(await storage.get("cover/missing.jpg")).toBeNull();
    expect(await storage.exists("cover/missing.jpg")).toBe(false);
    await expect(storage.delete("cover/missing.jpg")).resolves.toBeUndefined();
  });

  it("serves the content type of the key's extension and refuses a contradicting one", async () => {
    await storage.put("variants/200x200/cover/b.jpg", Buffer.from("j"), "image/jpeg");
    expect((await storage.get("variants/200x200/cover/b.jpg"))?.contentType).toBe("image/jpeg");
    await expect(storage.put("cover/c.jpg", Buffer.from("p"), "image/png")).rejects.toThrow(
      /does not match/,
    );
    expect(await storage.exists("cover/c.jpg")).toBe(false);
  });

  it("replaces an object whole when many writers race, leaving no temporary files", async () => {
    const versions = Array.from({ length: 20 }, (_, i) => Buffer.alloc(200_000, i));
    await Promise.all(versions.map((v) => storage.put("avatar/race.png", v, "image/png")));
    const final = await fs.readFile(path.join(root, "avatar/race.png"));
    expect(versions.some((v) => v.equals(final))).toBe(true);
    expect((await fs.readdir(path.join(root, "avatar"))).filter((f) => f.endsWith(".tmp"))).toEqual(
      [],
    );
  });

  it.each([
    "../outside.png",
    "avatar/../../outside.png",
    "/etc/passwd",
    "avatar\\..\\..\\outside.png",
    "avatar//a.png",
    "",
    ".hidden.png",
    "avatar/..",
    "avatar/%2e%2e/x.png",
    "avatar/a.png\0.txt",
  ])("refuses the key %j, which could leave the root", async (key) => {
    await expect(storage.put(key, Buffer.from("x"), "image/png")).rejects.toThrow(/key/);
    await expect(storage.get(key)).rejects.toThrow(/key/);
    await expect(storage.exists(key)).rejects.toThrow(/key/);
    await expect(storage.delete(key)).rejects.toThrow(/key/);
  });

  it("never wrote outside its root", async () => {
    await expect(fs.stat(path.join(path.dirname(root), "outside.png"))).rejects.toThrow(/ENOENT/);
  });
});
