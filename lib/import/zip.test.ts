import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { buildZip, renameEntry, setDeclaredSize } from "@/tests/fixtures/plumtree/build";
import { ImportError } from "./types";
import { crc32, DAMAGED_ZIP, DEFAULT_ZIP_LIMITS, NOT_A_ZIP, openZip } from "./zip";

function refusal(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof ImportError) return error.message;
    throw error;
  }
}

const TEN_MB_OF_ZEROS = new Uint8Array(10 * 1024 * 1024);
const SMALL_LIMITS = { maxEntries: 10, maxEntryBytes: 1024 * 1024, maxTotalBytes: 2 * 1024 * 1024 };

describe("openZip reads", () => {
  it("stored and deflated entries, byte for byte, with their declared sizes", () => {
    const text = "var tree={};".repeat(1000);
    const binary = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31) & 255);
    const bytes = zipSync({
      "data/tree.js": [new TextEncoder().encode(text), { level: 9 }],
      "images/a.png": [binary, { level: 0 }],
    });
    const zip = openZip(bytes);
    expect(zip.list().map((e) => [e.name, e.declaredSize])).toEqual([
      ["data/tree.js", text.length],
      ["images/a.png", 5000],
    ]);
    expect(zip.readText("data/tree.js")).toBe(text);
    expect(zip.read("images/a.png")).toEqual(binary);
    expect(zip.has("images/missing.png")).toBe(false);
  });

  it("an entry that is exactly at the caps", () => {
    const bytes = buildZip({ "a.bin": new Uint8Array(SMALL_LIMITS.maxEntryBytes) });
    expect(openZip(bytes, SMALL_LIMITS).read("a.bin").length).toBe(SMALL_LIMITS.maxEntryBytes);
  });

  it("computes the CRC-32 that ZIP uses", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
  });
});

describe("openZip refuses", () => {
  it.each([
    ["an empty file", new Uint8Array(0), NOT_A_ZIP],
    ["a text file", new TextEncoder().encode("hello, I am not a zip"), NOT_A_ZIP],
    ["a PNG", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), NOT_A_ZIP],
  ])("%s as not a ZIP", (_name, bytes, detail) => {
    expect(refusal(() => openZip(bytes))).toBe(detail);
  });

  it.each([0.3, 0.6, 0.9, 0.99])("an archive cut off at %s of its length", (fraction) => {
    const bytes = buildZip({
      "data/tree.js": "var tree={}".repeat(500),
      "b.txt": "bee".repeat(900),
    });
    expect(refusal(() => openZip(bytes.subarray(0, Math.floor(bytes.length * fraction))))).toBe(
      DAMAGED_ZIP,
    );
  });

  it("an entry whose data is damaged (checksum mismatch)", () => {
    const bytes = new Uint8Array(buildZip({ "a.txt": "x".repeat(2000) }));
    bytes[40] = (bytes[40]! + 1) & 255; // inside the deflated data of the only entry
    expect(refusal(() => openZip(bytes).read("a.txt"))).toMatch(/^The ZIP archive is damaged/);
  });

  it("a zip bomb: 10 MB of zeros, by its declared size, before inflating anything", () => {
    const bomb = zipSync({ "zeros.bin": [TEN_MB_OF_ZEROS, { level: 9 }] });
    expect(bomb.length).toBeLessThan(50_000);
    expect(refusal(() => openZip(bomb, SMALL_LIMITS))).toBe(
      '"zeros.bin" unpacks to 10 MB; an entry may be at most 1 MB',
    );
  });

  it("a zip bomb whose header lies about its size, by counting while inflating", () => {
    const bomb = setDeclaredSize(
      zipSync({ "zeros.bin": [TEN_MB_OF_ZEROS, { level: 9 }] }),
      "zeros.bin",
      1000,
    );
    const zip = openZip(bomb, SMALL_LIMITS);
    expect(zip.list()[0]?.declaredSize).toBe(1000);
    expect(refusal(() => zip.read("zeros.bin"))).toBe(
      `${DAMAGED_ZIP} (zeros.bin unpacks to more than its header says: a ZIP bomb?)`,
    );
  });

  it("entries that together unpack to more than the total cap", () => {
    const half = new Uint8Array(SMALL_LIMITS.maxEntryBytes);
    const bytes = buildZip({ "a.bin": half, "b.bin": half, "c.bin": half });
    expect(refusal(() => openZip(bytes, SMALL_LIMITS))).toBe(
      "The ZIP archive unpacks to more than 2 MB, more than a backup can hold",
    );
  });

  it("more entries than allowed", () => {
    const entries = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}.txt`, "x"]));
    expect(refusal(() => openZip(buildZip(entries), SMALL_LIMITS))).toBe(
      "The ZIP archive lists 11 entries; a backup may have at most 10",
    );
  });

  it.each([
    ["../x", "AA/x", "it climbs out of its folder (..)"],
    ["/etc/passwd", "Aetc/passwd", "it is an absolute path"],
    ["images/../../x", "images/AA/AA/x", "it climbs out of its folder (..)"],
    ["images\\x.png", "images_x.png", "it contains a backslash"],
    ["C:/x.png", "CC/x.png", "it starts with a drive letter"],
    ["a\u0000b.png", "aXb.png", "it contains a control character"],
    ["images//x.png", "images/aa.png", "it contains an empty segment (//)"],
    ["./data/tree.js", "a/data/tree.js", "it contains a '.' segment"],
  ])("the unsafe entry name %j", (name, placeholder, why) => {
    const bytes = renameEntry(buildZip({ [placeholder]: "payload" }), placeholder, name);
    expect(refusal(() => openZip(bytes))).toBe(
      `The ZIP archive has an unsafe entry name ${JSON.stringify(name)}: ${why}`,
    );
  });

  it("two entries with the same name", () => {
    const bytes = renameEntry(buildZip({ "a.txt": "one", "b.txt": "two" }), "b.txt", "a.txt");
    expect(refusal(() => openZip(bytes))).toBe('The ZIP archive lists "a.txt" twice');
  });

  it("reading an entry that is not there", () => {
    expect(refusal(() => openZip(buildZip({ "a.txt": "one" })).read("b.txt"))).toBe(
      "The ZIP archive has no b.txt",
    );
  });

  it("has default caps of 512 MB in all, 64 MB per entry and 100,000 entries", () => {
    expect(DEFAULT_ZIP_LIMITS).toEqual({
      maxEntries: 100_000,
      maxEntryBytes: 64 * 1024 * 1024,
      maxTotalBytes: 512 * 1024 * 1024,
    });
  });
});
