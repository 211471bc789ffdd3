import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { buildZip, FIXTURE_ZIP } from "@/tests/fixtures/plumtree/build";
import { buildPruneTreeZip } from "@/tests/fixtures/prunetree/build";
import { detectFormat, UNKNOWN_FORMAT } from "./detect";
import { ImportError } from "./types";

const text = (value: string) => new TextEncoder().encode(value);
/** UTF-16 without a byte-order mark, in either byte order. */
const utf16 = (value: string, order: "le" | "be") => {
  const bytes = Buffer.from(value, "utf16le");
  return order === "le" ? bytes : bytes.swap16();
};

describe("detectFormat", () => {
  it.each([
    ["the Plum Tree fixture", () => fs.readFileSync(FIXTURE_ZIP), "plumtree"],
    [
      "a Plum Tree layout with heirloom.json",
      () => buildZip({ "data/tree.js": "var tree={}", "heirloom.json": "{}" }),
      "heirloom",
    ],
    ["a PruneTree bundle", () => buildPruneTreeZip(), "prunetree"],
    ["GEDCOM", () => text("0 HEAD\n1 GEDC\n2 VERS 7.0\n0 TRLR\n"), "gedcom"],
    ["GEDCOM with a UTF-8 BOM and CRLF", () => text("\uFEFF0 HEAD\r\n0 TRLR\r\n"), "gedcom"],
    [
      "GEDCOM in UTF-16LE with its BOM",
      () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("0 HEAD\n0 TRLR\n", "utf16le")]),
      "gedcom",
    ],
    ["GEDCOM in UTF-16LE without a BOM", () => utf16("0 HEAD\r\n0 TRLR\r\n", "le"), "gedcom"],
    ["GEDCOM in UTF-16BE without a BOM", () => utf16("0 HEAD\r\n0 TRLR\r\n", "be"), "gedcom"],
    [
      "GEDCOM in UTF-16BE with its BOM",
      () => Buffer.concat([Buffer.from([0xfe, 0xff]), utf16("0 HEAD\n0 TRLR\n", "be")]),
      "gedcom",
    ],
  ])("%s", (_name, make, format) => {
    expect(detectFormat(make())).toBe(format);
  });

  it.each([
    ["plain text", () => text("hello"), UNKNOWN_FORMAT],
    ["a line that only starts like GEDCOM", () => text("0 HEADER\n"), UNKNOWN_FORMAT],
    [
      "a ZIP of something else",
      () => buildZip({ "photo.png": "x" }),
      "This ZIP archive is not a Plum Tree, PruneTree or Heirloom backup (it has no data/tree.js or bundle.json)",
    ],
  ])("refuses %s", (_name, make, detail) => {
    expect(() => detectFormat(make())).toThrow(new ImportError(detail));
  });
});
