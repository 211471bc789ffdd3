import { describe, expect, it } from "vitest";
import { ImportError } from "@/lib/import/types";
import { decodeAnsel, detectEncoding } from "./decode";
import { GEDCOM_LIMITS, child, parseGedcomText } from "./parse";

const enc = (text: string) => new TextEncoder().encode(text);
const file = (...lines: string[]) =>
  enc(["0 HEAD", "1 GEDC", "2 VERS 5.5.1", ...lines, "0 TRLR", ""].join("\n"));

function refusal(bytes: Uint8Array): string {
  try {
    parseGedcomText(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return (error as Error).message;
  }
  throw new Error("the file was accepted");
}

describe("parseGedcomText", () => {
  it("reads levels, ids, tags, values and pointers into records", () => {
    const parsed = parseGedcomText(
      file(
        "0 @I1@ INDI",
        "1 NAME Ada /Lovelace/",
        "2 GIVN Ada",
        "1 FAMS @F1@",
        "0 @F1@ FAM",
        "1 HUSB @I1@",
      ),
    );
    expect(parsed.version).toBe("5.5.1");
    expect(parsed.records.map((r) => [r.xref, r.tag])).toEqual([
      ["I1", "INDI"],
      ["F1", "FAM"],
    ]);
    const indi = parsed.records[0]!;
    expect(child(indi, "NAME")!.value).toBe("Ada /Lovelace/");
    expect(child(child(indi, "NAME")!, "GIVN")!.value).toBe("Ada");
    expect(child(indi, "FAMS")!.pointer).toBe("F1");
    expect(child(indi, "FAMS")!.line).toBe(7);
  });

  it("joins CONT with a line break and CONC without one", () => {
    const parsed = parseGedcomText(
      file("0 @N1@ NOTE First", "1 CONC  half", "1 CONT second line", "1 CONT", "1 CONT fourth"),
    );
    expect(parsed.records[0]!.value).toBe("First half\nsecond line\n\nfourth");
  });

  it.each([
    ["CRLF", "\r\n"],
    ["CR", "\r"],
    ["LF", "\n"],
  ])("accepts %s line endings", (_name, eol) => {
    const text = ["0 HEAD", "0 @I1@ INDI", "1 NAME A /B/", "0 TRLR"].join(eol);
    const parsed = parseGedcomText(enc(text));
    expect(child(parsed.records[0]!, "NAME")!.value).toBe("A /B/");
  });

  it("skips a UTF-8 byte order mark and reads UTF-8 text", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...file("0 @I1@ INDI", "1 NAME Zoë /Åström/")]);
    const parsed = parseGedcomText(bytes);
    expect(parsed.encoding).toBe("UTF-8");
    expect(child(parsed.records[0]!, "NAME")!.value).toBe("Zoë /Åström/");
  });

  it("reads UTF-16 with a byte order mark (5.5.1 CHAR UNICODE)", () => {
    const text = "0 HEAD\n1 CHAR UNICODE\n0 @I1@ INDI\n1 NAME Łucja /Żak/\n0 TRLR\n";
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes[0] = 0xff;
    bytes[1] = 0xfe;
    for (let i = 0; i < text.length; i += 1) {
      bytes[2 + i * 2] = text.charCodeAt(i) & 0xff;
      bytes[3 + i * 2] = text.charCodeAt(i) >> 8;
    }
    const parsed = parseGedcomText(bytes);
    expect(parsed.encoding).toBe("UTF-16LE");
    expect(child(parsed.records[0]!, "NAME")!.value).toBe("Łucja /Żak/");
  });

  it("decodes ANSEL when the header declares it, combining marks after their letter", () => {
    // "Ren" + acute + "e" + " /M" + diaeresis + "uller/"
    const before = enc("0 HEAD\n1 CHAR ANSEL\n0 @I1@ INDI\n1 NAME Ren");
    const after = enc("e /M");
    const rest = enc("uller/\n0 TRLR\n");
    const bytes = new Uint8Array([...before, 0xe2, ...after, 0xe8, ...rest]);
    expect(detectEncoding(bytes).encoding).toBe("ANSEL");
    const parsed = parseGedcomText(bytes);
    expect(parsed.encoding).toBe("ANSEL");
    expect(child(parsed.records[0]!, "NAME")!.value).toBe("René /Müller/");
    expect(decodeAnsel(new Uint8Array([0xa2, 0xb2, 0xc3, 0x41]))).toBe("Øø©A");
  });

  it("reads UTF-8 even when the header says ANSEL, and 8-bit text as Windows-1252", () => {
    expect(
      detectEncoding(enc("0 HEAD\n1 CHAR ANSEL\n0 @I1@ INDI\n1 NAME José\n0 TRLR\n")).encoding,
    ).toBe("UTF-8");
    const latin = new Uint8Array([
      ...enc("0 HEAD\n1 CHAR ANSI\n0 @I1@ INDI\n1 NAME Jos"),
      0xe9,
      ...enc("\n0 TRLR\n"),
    ]);
    const parsed = parseGedcomText(latin);
    expect(parsed.encoding).toBe("WINDOWS-1252");
    expect(child(parsed.records[0]!, "NAME")!.value).toBe("José");
  });

  it("unescapes @@ everywhere in 5.5.1 and only at the start in GEDCOM 7", () => {
    const old = parseGedcomText(file("0 @N1@ NOTE mail me at ann@@example.com"));
    expect(old.records[0]!.value).toBe("mail me at ann@example.com");
    const seven = parseGedcomText(
      enc("0 HEAD\n1 GEDC\n2 VERS 7.0\n0 @N1@ SNOTE @@home and a@@b\n0 TRLR\n"),
    );
    expect(seven.major).toBe(7);
    expect(seven.records[0]!.value).toBe("@home and a@@b");
    expect(seven.records[0]!.pointer).toBeNull();
  });

  it("stops at 0 TRLR and ignores what follows", () => {
    const parsed = parseGedcomText(
      enc("0 HEAD\n0 @I1@ INDI\n0 TRLR\n\u001a garbage after the end"),
    );
    expect(parsed.records).toHaveLength(1);
  });

  it("reads nesting up to the limit without recursion", () => {
    const lines = ["0 HEAD", "0 @I1@ INDI"];
    for (let level = 1; level <= GEDCOM_LIMITS.maxLevel; level += 1) lines.push(`${level} _DEEP x`);
    lines.push("0 TRLR");
    const parsed = parseGedcomText(enc(lines.join("\n")));
    let node = parsed.records[0]!;
    let depth = 0;
    while (node.children[0]) {
      node = node.children[0];
      depth += 1;
    }
    expect(depth).toBe(GEDCOM_LIMITS.maxLevel);
  });

  it.each([
    ["an empty file", new Uint8Array(), "The GEDCOM file is empty."],
    [
      "binary garbage",
      new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)),
      "This file is not a GEDCOM file",
    ],
    [
      "a PNG",
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      "This file is not a GEDCOM file",
    ],
    ["text that is not GEDCOM", enc("Name,Born\nAda,1815\n"), 'starts with the line "0 HEAD"'],
    ["a CONT before anything", enc("0 CONT x\n0 TRLR\n"), 'starts with the line "0 HEAD"'],
  ])("refuses %s with a clear message", (_name, bytes, message) => {
    expect(refusal(bytes)).toContain(message);
  });

  it.each([
    [
      "a file cut off before 0 TRLR",
      enc("0 HEAD\n0 @I1@ INDI\n1 NAME Ada /Lovelace/\n"),
      'The file does not end with the line "0 TRLR": it may have been cut off; it was read up to its last line.',
      1,
    ],
    [
      "garbage after the header",
      enc("0 HEAD\n\u00ff\u00fe%%%\n0 @I1@ INDI\n0 TRLR\n"),
      "1 line is not a GEDCOM line; it was left out: line 2.",
      1,
    ],
    [
      "a skipped level",
      enc("0 HEAD\n0 @I1@ INDI\n3 NAME x\n0 TRLR\n"),
      "1 line skips a level; it was read as part of the structure above: line 3.",
      1,
    ],
    [
      "absurd nesting",
      enc(
        [
          "0 HEAD",
          "0 @I1@ INDI",
          ...Array.from({ length: 150 }, (_, i) => `${i + 1} _X y`),
          "0 TRLR",
        ].join("\n"),
      ),
      "51 lines are nested more than 99 levels deep; they were left out: lines 102, 103, 104, 105, 106 and 46 more.",
      1,
    ],
    [
      "a huge level number",
      enc("0 HEAD\n0 @I1@ INDI\n999999999 NAME x\n0 TRLR\n"),
      "1 line is nested more than 99 levels deep; it was left out: line 3.",
      1,
    ],
    [
      "a CONT with nothing to continue",
      enc("0 HEAD\n0 CONT x\n0 @I1@ INDI\n0 TRLR\n"),
      "1 continuation line (CONT or CONC) continues no text; it was left out: line 2.",
      1,
    ],
    [
      "a line too long",
      enc(`0 HEAD\n0 @N1@ NOTE ${"x".repeat(GEDCOM_LIMITS.maxLineLength)}\n0 @I1@ INDI\n0 TRLR\n`),
      "1 line is longer than 262,144 characters; it was left out: line 2.",
      1,
    ],
  ])("reads past %s and says so", (_name, bytes, note, records) => {
    const parsed = parseGedcomText(bytes);
    expect(parsed.records.filter((r) => r.tag === "INDI")).toHaveLength(records);
    expect(parsed.warnings.notes()).toContain(note);
  });

  it("reads a pointer on a continuation line as the continuation, and names that fault", () => {
    const parsed = parseGedcomText(
      file("0 @N148@ NOTE First line", "1 @N149@ CONT second line", "0 @I1@ INDI"),
    );
    expect(parsed.records[0]!.value).toBe("First line\nsecond line");
    const notes = parsed.warnings.notes();
    expect(notes).toEqual([
      "1 continuation line (CONT or CONC) has a record id, like 1 @N1@ CONT; it was read as continuations, without the id: line 5.",
    ]);
    expect(notes.join(" ")).not.toContain("continues no");
  });

  it("counts tags it does not know by tag, once per unknown structure", () => {
    const parsed = parseGedcomText(
      file(
        "0 @I1@ INDI",
        "1 _UID 1234",
        "1 _SCHEMA",
        "2 _FA1",
        "3 LABL x",
        "1 _UID 5678",
        "1 NAME A /B/",
      ),
    );
    expect(parsed.warnings.notes()).toEqual([
      "3 lines have tags Heirloom does not know; they were left out (_UID ×2, _SCHEMA): lines 5, 6, 9.",
    ]);
  });
});
