// What a GEDCOM import read past instead of refusing the file (issue 13): each kind of fault is
// counted, with the first few line numbers, and becomes one note of the import's answer.

export type GedcomWarningKind =
  | "malformedLine"
  | "longLine"
  | "tooDeep"
  | "skippedLevel"
  | "idInRecord"
  | "idOnContinuation"
  | "orphanContinuation"
  | "missingTrailer"
  | "unknownTag"
  | "danglingPointer"
  | "wrongPointer"
  | "notAPointer"
  | "duplicateId";

/** How each kind reads in a note: the count's noun (one, many) and what was done about it. */
const WORDING: Record<GedcomWarningKind, [one: string, many: string, done: string]> = {
  malformedLine: ["line is not a GEDCOM line", "lines are not GEDCOM lines", "left out"],
  longLine: [
    "line is longer than 262,144 characters",
    "lines are longer than 262,144 characters",
    "left out",
  ],
  tooDeep: [
    "line is nested more than 99 levels deep",
    "lines are nested more than 99 levels deep",
    "left out",
  ],
  skippedLevel: ["line skips a level", "lines skip a level", "read as part of the structure above"],
  idInRecord: [
    "structure inside a record has an id of its own",
    "structures inside records have ids of their own",
    "read without the id",
  ],
  idOnContinuation: [
    "continuation line (CONT or CONC) has a record id, like 1 @N1@ CONT",
    "continuation lines (CONT or CONC) have a record id, like 1 @N1@ CONT",
    "read as continuations, without the id",
  ],
  orphanContinuation: [
    "continuation line (CONT or CONC) continues no text",
    "continuation lines (CONT or CONC) continue no text",
    "left out",
  ],
  missingTrailer: [
    'file does not end with the line "0 TRLR": it may have been cut off',
    'file does not end with the line "0 TRLR": it may have been cut off',
    "read up to its last line",
  ],
  unknownTag: [
    "line has a tag Heirloom does not know",
    "lines have tags Heirloom does not know",
    "left out",
  ],
  danglingPointer: [
    "pointer refers to a record that is not in the file",
    "pointers refer to records that are not in the file",
    "left out",
  ],
  wrongPointer: [
    "pointer refers to a record of the wrong kind",
    "pointers refer to records of the wrong kind",
    "left out",
  ],
  notAPointer: [
    "link (FAMS, FAMC, HUSB, WIFE or CHIL) holds no pointer",
    "links (FAMS, FAMC, HUSB, WIFE or CHIL) hold no pointer",
    "left out",
  ],
  duplicateId: [
    "record reuses the id of an earlier record",
    "records reuse the ids of earlier records",
    "left out",
  ],
};

/** How many line numbers a note lists. */
export const LINES_SHOWN = 5;
/** How many distinct details (e.g. unknown tags) a note names. */
const DETAILS_SHOWN = 5;

interface Tally {
  count: number;
  lines: number[];
  details: Map<string, number>;
}

const number = (n: number) => n.toLocaleString("en-US");

/** Counts faults by kind, keeping the first line numbers; `notes()` words them for the player. */
export class GedcomWarnings {
  private readonly tallies = new Map<GedcomWarningKind, Tally>();

  add(kind: GedcomWarningKind, line: number, detail?: string): void {
    let tally = this.tallies.get(kind);
    if (!tally) {
      tally = { count: 0, lines: [], details: new Map() };
      this.tallies.set(kind, tally);
    }
    tally.count += 1;
    // the first lines in file order, whatever order the checks met them in
    if (line > 0 && (tally.lines.length < LINES_SHOWN || line < tally.lines[LINES_SHOWN - 1]!)) {
      tally.lines.push(line);
      tally.lines.sort((a, b) => a - b);
      tally.lines.length = Math.min(tally.lines.length, LINES_SHOWN);
    }
    if (detail !== undefined) tally.details.set(detail, (tally.details.get(detail) ?? 0) + 1);
  }

  count(kind: GedcomWarningKind): number {
    return this.tallies.get(kind)?.count ?? 0;
  }

  /** One sentence per kind, in the order the kinds were first met. */
  notes(): string[] {
    const out: string[] = [];
    for (const [kind, { count, lines, details }] of this.tallies) {
      const [one, many, done] = WORDING[kind];
      let note =
        kind === "missingTrailer"
          ? `The ${one}; it was ${done}`
          : `${number(count)} ${count === 1 ? one : many}; ${count === 1 ? "it was" : "they were"} ${done}`;
      if (details.size > 0) {
        const named = [...details]
          .sort((a, b) => b[1] - a[1])
          .slice(0, DETAILS_SHOWN)
          .map(([detail, n]) => (n > 1 ? `${detail} ×${number(n)}` : detail));
        const more = details.size - named.length;
        note += ` (${named.join(", ")}${more > 0 ? ` and ${number(more)} more` : ""})`;
      }
      if (lines.length > 0) {
        const rest = count - lines.length;
        note += `: line${lines.length > 1 ? "s" : ""} ${lines.map(number).join(", ")}${rest > 0 ? ` and ${number(rest)} more` : ""}`;
      }
      out.push(`${note}.`);
    }
    return out;
  }
}
