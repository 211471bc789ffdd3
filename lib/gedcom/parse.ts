// GEDCOM 5.5.1 and 7 line and record parser. One pass, no recursion: a line's parent is found on
// an explicit stack indexed by level, so hostile nesting is a bounded loop, not a deep call stack.
import { ImportError } from "@/lib/import/types";
import { decodeGedcom, type GedcomEncoding } from "./decode";

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

function lineError(line: number, problem: string): ImportError {
  return new ImportError(`Line ${line.toLocaleString("en-US")} of the GEDCOM file ${problem}.`);
}

/** The first child with this tag. */
export function child(node: GedcomNode, tag: string): GedcomNode | undefined {
  return node.children.find((c) => c.tag === tag);
}

/** Every child with this tag, in file order. */
export function childrenOf(node: GedcomNode, tag: string): GedcomNode[] {
  return node.children.filter((c) => c.tag === tag);
}

/** Reads the bytes of a GEDCOM file into records; throws ImportError on anything malformed. */
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

  // GEDCOM 7 only unescapes a leading "@@"; 5.5.1 doubles every "@" in text
  const allAts = !(Number.parseInt(peekVersion(rawLines), 10) >= 7);
  const unescape = (value: string) =>
    !value.includes("@@")
      ? value
      : allAts
        ? value.replaceAll("@@", "@")
        : value.startsWith("@@")
          ? value.slice(1)
          : value;

  const records: GedcomNode[] = [];
  // stack[i] is the open structure at level i; `depth` of them are open
  const stack: GedcomNode[] = [];
  let depth = 0;
  let head: GedcomNode | null = null;
  let trailer = false;

  for (let index = 0; index < rawLines.length && !trailer; index += 1) {
    const raw = rawLines[index]!;
    const lineNumber = index + 1;
    if (raw.length > GEDCOM_LIMITS.maxLineLength) {
      throw lineError(
        lineNumber,
        `is longer than ${GEDCOM_LIMITS.maxLineLength.toLocaleString("en-US")} characters`,
      );
    }
    if (BLANK.test(raw)) continue;
    const match = LINE.exec(raw);
    if (!match) {
      if (!head) throw new ImportError(NOT_GEDCOM);
      throw lineError(lineNumber, "is not a valid GEDCOM line");
    }
    const level = Number(match[1]);
    const xref = match[2] ?? null;
    const tag = match[3]!.toUpperCase();
    const rawValue = match[4] ?? "";

    if (!head) {
      if (level !== 0 || tag !== "HEAD") throw new ImportError(NOT_GEDCOM);
    }
    if (level > GEDCOM_LIMITS.maxLevel) {
      throw lineError(lineNumber, `is nested more than ${GEDCOM_LIMITS.maxLevel} levels deep`);
    }
    if (level > depth) {
      throw lineError(lineNumber, `skips a level (level ${level} after level ${depth - 1})`);
    }

    if (tag === "CONT" || tag === "CONC") {
      const parent = level > 0 ? stack[level - 1] : undefined;
      if (!parent || xref) throw lineError(lineNumber, `has a ${tag} line that continues nothing`);
      const text = unescape(rawValue);
      parent.value += tag === "CONT" ? `\n${text}` : text;
      if (parent.value.length > GEDCOM_LIMITS.maxLineLength) {
        throw lineError(
          lineNumber,
          `continues a text longer than ${GEDCOM_LIMITS.maxLineLength.toLocaleString("en-US")} characters`,
        );
      }
      // a continuation line closes any structure nested under its parent
      depth = level;
      continue;
    }

    const pointerMatch = rawValue.includes("@") ? POINTER.exec(rawValue.trim()) : null;
    const node: GedcomNode = {
      level,
      xref: level === 0 ? xref : null,
      tag,
      value: "",
      pointer: pointerMatch ? pointerMatch[1]! : null,
      line: lineNumber,
      children: [],
    };
    if (xref && level > 0)
      throw lineError(lineNumber, "gives an id to a structure inside a record");

    if (level === 0) {
      if (!head) {
        head = node;
      } else if (tag === "TRLR") {
        trailer = true;
        break;
      } else {
        if (records.length >= GEDCOM_LIMITS.maxRecords) {
          throw new ImportError(
            `The GEDCOM file is too large: it has more than ${GEDCOM_LIMITS.maxRecords.toLocaleString("en-US")} records.`,
          );
        }
        records.push(node);
      }
    } else {
      stack[level - 1]!.children.push(node);
    }
    node.value = node.pointer ? "" : unescape(rawValue);
    stack[level] = node;
    depth = level + 1;
  }

  if (!head) throw new ImportError(NOT_GEDCOM);
  if (!trailer) {
    throw new ImportError(
      'The GEDCOM file is incomplete: it does not end with the line "0 TRLR". It may have been cut off while downloading or copying; export it again from your genealogy program.',
    );
  }
  const version = versionOf(head);
  const major = Number.parseInt(version, 10);
  return { version, major: Number.isNaN(major) ? 5 : major, encoding, head, records };
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
