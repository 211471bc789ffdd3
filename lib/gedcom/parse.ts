// GEDCOM 5.5.1 and 7 line and record parser. One pass, no recursion: a line's parent is found on
// an explicit stack indexed by level, so hostile nesting is a bounded loop, not a deep call stack.
import { ImportError } from "@/lib/import/types";
import { decodeGedcom, type GedcomEncoding } from "./decode";
import { HEIRLOOM_TAGS, STANDARD_TAGS } from "./tags";
import { GedcomWarnings } from "./warnings";

const HEIRLOOM_TAG_NAMES = new Set<string>(Object.values(HEIRLOOM_TAGS));

/** One structure: a line and the lines nested under it. */
export interface GedcomNode {
  level: number;
  /** The record's own id without the @ signs (level 0 only), e.g. "I1". */
  xref: string | null;
  /** Upper-cased, e.g. "INDI", "_FREL". */
  tag: string;
  /** The payload with CONT/CONC lines joined ("\n" for CONT) and "@@" unescaped. */
  value: string;
  /** When the payload is a pointer ("@F1@"), its id ("F1"); "VOID" for GEDCOM 7's @VOID@. */
  pointer: string | null;
  /** 1-based line number in the file, for messages. */
  line: number;
  children: GedcomNode[];
}

export interface ParsedGedcom {
  /** HEAD.GEDC.VERS, e.g. "5.5.1" or "7.0" ("5.5.1" when the header has none). */
  version: string;
  major: number;
  encoding: GedcomEncoding;
  head: GedcomNode;
  /** Every level-0 record after HEAD, TRLR excluded. */
  records: GedcomNode[];
  /** Faults read past, by kind; the import adds its own and turns them into notes. */
  warnings: GedcomWarnings;
}

export const GEDCOM_LIMITS = {
  /** GEDCOM 5.5.1 allows levels 0-99; nothing real goes past 10. */
  maxLevel: 99,
  /** GEDCOM 7 has no line limit; this leaves room for a 100,000-character bio on one line. */
  maxLineLength: 262_144,
  maxLines: 5_000_000,
  maxRecords: 500_000,
} as const;

const LINE = /^[ \t]*(\d{1,9})[ \t]+(?:@([^@\s]+)@[ \t]+)?([A-Za-z0-9_]+)(?:[ \t](.*))?$/;
const POINTER = /^@([^@#\s][^@]*)@$/;
const BLANK = /^\s*$/;

const NOT_GEDCOM = 'This file is not a GEDCOM file: a GEDCOM file starts with the line "0 HEAD".';

/** The first child with this tag. */
export function child(node: GedcomNode, tag: string): GedcomNode | undefined {
  return node.children.find((c) => c.tag === tag);
}

/** Every child with this tag, in file order. */
export function childrenOf(node: GedcomNode, tag: string): GedcomNode[] {
  return node.children.filter((c) => c.tag === tag);
}

/** Reads the bytes of a GEDCOM file into records. Refuses only a file that cannot be read at all
 * (empty, binary, not GEDCOM, beyond the limits); a fault in a line is read past and counted in
 * `warnings` (docs/decisions/007-gedcom-placement.md). */
export function parseGedcomText(bytes: Uint8Array): ParsedGedcom {
  if (bytes.length === 0) throw new ImportError("The GEDCOM file is empty.");
  const { text, encoding } = decodeGedcom(bytes);
  if (text.includes("\u0000")) {
    throw new ImportError("This file is not a GEDCOM file: it contains binary data.");
  }
  const rawLines = text.split(/\r\n|\r|\n/);
  if (rawLines.length > GEDCOM_LIMITS.maxLines) {
    throw new ImportError(
      `The GEDCOM file is too large: it has more than ${GEDCOM_LIMITS.maxLines.toLocaleString("en-US")} lines.`,
    );
  }
  const reader = new RecordReader(!(Number.parseInt(peekVersion(rawLines), 10) >= 7));
  for (let index = 0; index < rawLines.length && !reader.ended; index += 1) {
    reader.read(rawLines[index]!, index + 1);
  }
  const head = reader.head;
  if (!head) throw new ImportError(NOT_GEDCOM);
  if (!reader.ended) reader.warnings.add("missingTrailer", 0);
  const version = versionOf(head);
  const major = Number.parseInt(version, 10);
  return {
    version,
    major: Number.isNaN(major) ? 5 : major,
    encoding,
    head,
    records: reader.records,
    warnings: reader.warnings,
  };
}

const isKnownTag = (tag: string) => STANDARD_TAGS.has(tag) || HEIRLOOM_TAG_NAMES.has(tag);

/** Builds records line by line on a stack indexed by level (no recursion). */
class RecordReader {
  readonly records: GedcomNode[] = [];
  readonly warnings = new GedcomWarnings();
  head: GedcomNode | null = null;
  ended = false;
  /** stack[i] is the open structure at level i; `depth` of them are open. */
  private readonly stack: GedcomNode[] = [];
  /** known[i]: the open structure at level i is one Heirloom reads (unknown subtrees are skipped). */
  private readonly known: boolean[] = [];
  private depth = 0;

  /** 5.5.1 doubles every "@" in text; GEDCOM 7 only a leading one. */
  constructor(private readonly allAts: boolean) {}

  read(raw: string, lineNumber: number): void {
    if (raw.length > GEDCOM_LIMITS.maxLineLength) {
      this.warnings.add("longLine", lineNumber);
      return;
    }
    if (BLANK.test(raw)) return;
    const match = LINE.exec(raw);
    if (!this.head) {
      if (!match || match[1] !== "0" || match[3]!.toUpperCase() !== "HEAD") {
        throw new ImportError(NOT_GEDCOM);
      }
    }
    if (!match) {
      this.warnings.add("malformedLine", lineNumber);
      return;
    }
    let level = Number(match[1]);
    const xref = match[2] ?? null;
    const tag = match[3]!.toUpperCase();
    const rawValue = match[4] ?? "";
    if (level > GEDCOM_LIMITS.maxLevel) {
      this.warnings.add("tooDeep", lineNumber);
      return;
    }
    if (level > this.depth) {
      // read as best it can be: a child of the innermost open structure
      this.warnings.add("skippedLevel", lineNumber);
      level = this.depth;
    }
    if (tag === "CONT" || tag === "CONC") {
      this.continueText(level, xref, tag, rawValue, lineNumber);
      return;
    }
    if (xref && level > 0) this.warnings.add("idInRecord", lineNumber);
    const pointerMatch = rawValue.includes("@") ? POINTER.exec(rawValue.trim()) : null;
    const node: GedcomNode = {
      level,
      xref: level === 0 ? xref : null,
      tag,
      value: pointerMatch ? "" : this.unescape(rawValue),
      pointer: pointerMatch ? pointerMatch[1]! : null,
      line: lineNumber,
      children: [],
    };
    const parentKnown = level === 0 || this.known[level - 1] === true;
    const known = parentKnown && isKnownTag(tag);
    if (parentKnown && !known) this.warnings.add("unknownTag", lineNumber, tag);
    if (level === 0) {
      if (!this.head) this.head = node;
      else if (tag === "TRLR") {
        this.ended = true;
        return;
      } else this.addRecord(node);
    } else {
      this.stack[level - 1]!.children.push(node);
    }
    this.stack[level] = node;
    this.known[level] = known;
    this.depth = level + 1;
  }

  private addRecord(node: GedcomNode): void {
    if (this.records.length >= GEDCOM_LIMITS.maxRecords) {
      throw new ImportError(
        `The GEDCOM file is too large: it has more than ${GEDCOM_LIMITS.maxRecords.toLocaleString("en-US")} records.`,
      );
    }
    this.records.push(node);
  }

  /** CONT adds a line break and text, CONC text, to the structure one level up. */
  private continueText(
    level: number,
    xref: string | null,
    tag: string,
    rawValue: string,
    lineNumber: number,
  ): void {
    const parent = level > 0 ? this.stack[level - 1] : undefined;
    if (!parent) {
      this.warnings.add("orphanContinuation", lineNumber);
      return;
    }
    if (xref) this.warnings.add("idOnContinuation", lineNumber);
    const text = this.unescape(rawValue);
    const joined = parent.value + (tag === "CONT" ? `\n${text}` : text);
    if (joined.length > GEDCOM_LIMITS.maxLineLength) {
      this.warnings.add("longLine", lineNumber);
    } else {
      parent.value = joined;
    }
    // a continuation line closes any structure nested under its parent
    this.depth = level;
  }

  private unescape(value: string): string {
    if (!value.includes("@@")) return value;
    if (this.allAts) return value.replaceAll("@@", "@");
    return value.startsWith("@@") ? value.slice(1) : value;
  }
}

/** HEAD.GEDC.VERS from the raw lines, before the records are built (it sets the escaping rules). */
function peekVersion(lines: string[]): string {
  let inGedc = false;
  for (let i = 1; i < lines.length && i < 1_000; i += 1) {
    const match = /^\s*(\d+)\s+([A-Za-z0-9_]+)(?:\s+(.*))?$/.exec(lines[i]!);
    if (!match) continue;
    if (match[1] === "0") break;
    const tag = match[2]!.toUpperCase();
    if (match[1] === "1") inGedc = tag === "GEDC";
    else if (match[1] === "2" && inGedc && tag === "VERS") return (match[3] ?? "").trim();
  }
  return "5.5.1";
}

function versionOf(head: GedcomNode): string {
  const gedc = child(head, "GEDC");
  const vers = gedc ? child(gedc, "VERS") : undefined;
  return vers?.value.trim() || "5.5.1";
}
