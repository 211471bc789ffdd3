// The backup archive's tar (ADR 033, on node-tar since ADR 047): what it writes, GNU tar reads
// (members 0600, no owner names); what it reads back is what was written, archives written by the
// hand-written tar before included; an unsafe or foreign entry, a damaged header, an oversized pax
// header, a compressed tar inside the gzip and a cut-off archive are refused.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip, gunzipSync } from "node:zlib";
import { Header, type HeaderData, Pax } from "tar";
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

  it("reads an archive written by Heirloom's hand-written tar (before node-tar)", async () => {
    const old = fs.readFileSync(
      path.resolve(
        import.meta.dirname,
        "../../../tests/fixtures/backup/written-by-heirloom-0.1-tar.tar",
      ),
    );
    const found = await entriesOf(old);
    expect(found.map(([name, bytes]) => [name, bytes.length])).toEqual([
      ["heirloom-backup.json", 29],
      ["database/Empty.jsonl", 0],
      ["uploads/avatar/ab.png.webp", 3_000],
      [longName, 4],
    ]);
    expect(found[2]![1]).toEqual(Buffer.from(Array.from({ length: 3_000 }, (_, i) => i % 251)));
    expect(found[3]![1].toString()).toBe("long");
  });

  it("writes private members (0600) with no owner, byte for byte at any chunk size", async () => {
    const tar = await collect(writeTar(sources()));
    const file = path.join(dir, "modes.tar");
    fs.writeFileSync(file, tar);
    const lines = execFileSync("tar", ["-tvf", file, "--numeric-owner"], { encoding: "utf8" })
      .trim()
      .split("\n");
    expect(lines).toHaveLength(files.length);
    for (const line of lines) expect(line).toMatch(/^-rw------- 0\/0 /);
    for (const size of [1, 511, 512, 513, 65_536]) {
      const found: [string, Buffer][] = [];
      for await (const entry of readTar(oneChunk(tar, size))) {
        found.push([entry.name, await collect(entry.bytes())]);
      }
      expect(found).toEqual(files);
    }
  });

  it("skips the bytes of entries nobody reads, and refuses an entry left half-read", async () => {
    const tar = await collect(writeTar(sources()));
    const names: string[] = [];
    for await (const entry of readTar(oneChunk(tar))) names.push(entry.name);
    expect(names).toEqual(files.map(([name]) => name));
    const halfRead = async () => {
      for await (const entry of readTar(oneChunk(tar, 100))) {
        for await (const chunk of entry.bytes()) {
          expect(chunk.length).toBeGreaterThan(0);
          break;
        }
      }
    };
    await expect(halfRead()).rejects.toThrow(/not read to the end/);
  });

  it("keeps writing when many members come faster than the archive is read (a slow gzip)", async () => {
    // A re-packed backup: images, then the empty tables. node-tar's Pack, given members faster
    // than it is read, stalled for good past four waiting members.
    const members: TarSource[] = [
      ...[20_000, 21_000, 21_000, 20_000].map((size, i) => ({
        name: `uploads/avatar/${i}.png.webp`,
        size,
        bytes: () => [Buffer.alloc(size, i)],
      })),
      ...Array.from({ length: 12 }, (_, i) => ({
        name: `database/Empty${i}.jsonl`,
        size: 0,
        bytes: () => [Buffer.alloc(0)],
      })),
    ];
    const gzipped: Buffer[] = [];
    await pipeline(
      Readable.from(writeTar(members)),
      createGzip(),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          gzipped.push(chunk);
          setTimeout(done, 1); // a reader slower than the writer
        },
      }),
    );
    const found = await entriesOf(gunzipSync(Buffer.concat(gzipped)));
    expect(found.map(([name, bytes]) => [name, bytes.length])).toEqual(
      members.map((m) => [m.name, m.size]),
    );
  }, 10_000);

  it("lets its sources go when the reader of the archive stops early", async () => {
    let closed = false;
    const endless: TarSource = {
      name: "uploads/endless",
      size: 1e12,
      bytes: async function* () {
        try {
          for (;;) yield Buffer.alloc(1 << 16);
        } finally {
          closed = true;
        }
      },
    };
    let read = 0;
    for await (const chunk of writeTar([endless])) {
      read += chunk.length;
      if (read > 1 << 20) break;
    }
    expect(closed).toBe(true);
  });

  /** A raw tar: the given header blocks (and bodies), then the end marker. */
  const rawTar = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.alloc(1024)]);
  const headerBlock = (data: HeaderData) => {
    const header = new Header(data);
    header.encode();
    return header.block!;
  };
  const body = (text: string) => {
    const bytes = Buffer.from(text);
    return Buffer.concat([bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512)]);
  };

  it.each([
    ["a hard link", { type: "Link", linkpath: "database/User.jsonl" }],
    ["a character device", { type: "CharacterDevice" }],
    ["a fifo", { type: "FIFO" }],
  ] as const)("refuses %s", async (_label, kind) => {
    const tar = rawTar(headerBlock({ path: "uploads/x", mode: 0o600, size: 0, ...kind }));
    await expect(entriesOf(tar)).rejects.toThrow(/kind a backup never has/);
  });

  it("refuses a name leaving the folder through a pax or a GNU long-name header", async () => {
    const escape = "../".repeat(40) + "etc/cron.d/heirloom";
    const pax = new Pax({ path: escape }).encode();
    const viaPax = rawTar(pax, headerBlock({ path: "x", type: "File", size: 4 }), body("evil"));
    await expect(entriesOf(viaPax)).rejects.toThrow(/Unsafe name/);
    const long = Buffer.from(escape);
    const viaGnu = rawTar(
      headerBlock({ path: "././@LongLink", type: "NextFileHasLongPath", size: long.length }),
      body(escape),
      headerBlock({ path: "x", type: "File", size: 4 }),
      body("evil"),
    );
    await expect(entriesOf(viaGnu)).rejects.toThrow(/Unsafe name/);
  });

  it("refuses an oversized pax header, a compressed tar inside, and an entry claiming more than it holds", async () => {
    const huge = new Pax({ path: "a".repeat(100_000) }).encode();
    const tar = rawTar(huge, headerBlock({ path: "x", type: "File", size: 0 }));
    await expect(entriesOf(tar)).rejects.toThrow(/oversized pax header/);
    const inner = await collect(writeTar(sources()));
    const gzipped = Buffer.from(execFileSync("gzip", ["-c"], { input: inner }));
    await expect(entriesOf(gzipped)).rejects.toThrow(/compressed tar inside/);
    // Claims 8 GiB and holds 4 bytes: refused as cut off once the bytes run out.
    const claim = new Pax({ path: "uploads/huge", size: 8 * 2 ** 30 }).encode();
    const liar = Buffer.concat([
      claim,
      headerBlock({ path: "x", type: "File", size: 0 }),
      body("evil"),
    ]);
    await expect(entriesOf(liar)).rejects.toThrow(/cut off/);
  });
});
