// The behaviour every storage backend (lib/server/storage) promises, run against each real one:
// local disk in lib/server/storage/local-disk.test.ts, an S3 server in tests/api/s3-storage.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { readStream, type ListedObject, type Storage } from "@/lib/server/storage/storage";

/** Keys no backend accepts: each could leave the root, or means something else to a store. */
export const INVALID_KEYS = [
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
];

async function listAll(storage: Storage, prefix: string): Promise<ListedObject[]> {
  const found: ListedObject[] = [];
  for await (const object of storage.list(prefix)) found.push(object);
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

/** Runs the shared storage tests against the backend `open` answers (called once, before all). */
export function describeStorageBackend(name: string, open: () => Promise<Storage>): void {
  describe(`${name}: the storage contract`, () => {
    let storage: Storage;
    beforeAll(async () => {
      storage = await open();
    });

    it("stores, reads (as bytes and as a stream), checks and deletes an object", async () => {
      const bytes = Buffer.from("pretend this is a png");
      await storage.put("avatar/a.png", bytes, "image/png");
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
      await storage.put("variants/200x200/cover/b.jpg.avif", Buffer.from("a"), "image/avif");
      expect((await storage.get("variants/200x200/cover/b.jpg.avif"))?.contentType).toBe(
        "image/avif",
      );
      await expect(storage.put("cover/c.jpg", Buffer.from("p"), "image/png")).rejects.toThrow(
        /does not match/,
      );
      expect(await storage.exists("cover/c.jpg")).toBe(false);
    });

    it("replaces an object whole when many writers race", async () => {
      const versions = Array.from({ length: 20 }, (_, i) => Buffer.alloc(200_000, i));
      await Promise.all(versions.map((v) => storage.put("avatar/race.png", v, "image/png")));
      const final = await (await storage.get("avatar/race.png"))!.bytes();
      expect(versions.some((v) => v.equals(final))).toBe(true);
    });

    it("lists the objects under a prefix with their size and time, and nothing else", async () => {
      const before = Date.now() - 2_000;
      await storage.put("incoming/avatar/one.png", Buffer.alloc(3), "image/png");
      await storage.put("incoming/cover/two.jpg", Buffer.alloc(5), "image/jpeg");
      await storage.put("incoming-not/avatar/three.png", Buffer.alloc(7), "image/png");
      await storage.put("avatar/incoming.png", Buffer.alloc(1), "image/png");

      const listed = await listAll(storage, "incoming/");
      expect(listed.map(({ key, size }) => ({ key, size }))).toEqual([
        { key: "incoming/avatar/one.png", size: 3 },
        { key: "incoming/cover/two.jpg", size: 5 },
      ]);
      for (const object of listed) {
        expect(object.lastModified.getTime()).toBeGreaterThanOrEqual(before);
        expect(object.lastModified.getTime()).toBeLessThanOrEqual(Date.now() + 2_000);
      }
      expect((await listAll(storage, "incoming/avatar/o")).map((o) => o.key)).toEqual([
        "incoming/avatar/one.png",
      ]);
      expect(await listAll(storage, "nothing-here/")).toEqual([]);

      await storage.delete("incoming/avatar/one.png");
      expect((await listAll(storage, "incoming/")).map((o) => o.key)).toEqual([
        "incoming/cover/two.jpg",
      ]);
    });

    it.each(INVALID_KEYS)("refuses the key %j, which could leave the root", async (key) => {
      await expect(storage.put(key, Buffer.from("x"), "image/png")).rejects.toThrow(/key/);
      await expect(storage.get(key)).rejects.toThrow(/key/);
      await expect(storage.exists(key)).rejects.toThrow(/key/);
      await expect(storage.delete(key)).rejects.toThrow(/key/);
      if (key !== "") await expect(listAll(storage, key)).rejects.toThrow(/key/);
    });
  });
}
