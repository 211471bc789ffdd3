// The typed custom rows (ADR 007): sex and the individual events that carry only a date and a
// place (birth, christening, death, burial…) are custom rows with a fixed title and a value of
// "DATE, PLACE", so the person keeps its shape (lib/schemas/person.ts) while the export maps the
// rows back to SEX, BIRT, CHR, DEAT, BURI… with their DATE and PLAC.

/** Events whose GEDCOM payload is only "Y" (it happened): the row's title for each tag. */
export const TYPED_EVENTS: Record<string, string> = {
  BIRT: "Birth",
  CHR: "Christening",
  BAPM: "Baptism",
  DEAT: "Death",
  BURI: "Burial",
  CREM: "Cremation",
  BARM: "Bar mitzvah",
  BASM: "Bat mitzvah",
  BLES: "Blessing",
  CHRA: "Adult christening",
  CONF: "Confirmation",
  FCOM: "First communion",
  GRAD: "Graduation",
  RETI: "Retirement",
  NATU: "Naturalization",
  EMIG: "Emigration",
  IMMI: "Immigration",
  CENS: "Census",
  PROB: "Probate",
  WILL: "Will",
  ORDN: "Ordination",
};

/** The tag of a typed row's title ("Birth" → "BIRT"). */
export const EVENT_TAGS = new Map(Object.entries(TYPED_EVENTS).map(([tag, title]) => [title, tag]));

export const SEX_TITLE = "Sex";
export const SEX_LABELS: Record<string, string> = {
  M: "Male",
  F: "Female",
  X: "Intersex",
  U: "Unknown",
};
export const SEX_CODES = new Map(Object.entries(SEX_LABELS).map(([code, label]) => [label, code]));

/** The title suffix of the row that keeps an event's own text ("Birth note"). */
export const EVENT_TEXT_SUFFIX = "note";

/** The value of an event that happened with neither date nor place. */
export const HAPPENED = "Yes";

const MONTH = "JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC";
const ERA = "(?: (?:BCE|B\\.C\\.|BC))?";
const SINGLE = `(?:(?:\\d{1,2} )?(?:${MONTH}) )?\\d{1,4}${ERA}`;
/** GEDCOM dates: exact, approximate, before/after, ranges and periods (no calendars, no dual years). */
const DATE_VALUE = `(?:(?:ABT|CAL|EST|BEF|AFT) ${SINGLE}|BET ${SINGLE} AND ${SINGLE}|FROM ${SINGLE}(?: TO ${SINGLE})?|TO ${SINGLE}|${SINGLE})`;
const DATE = new RegExp(`^${DATE_VALUE}$`, "i");
const LEADING_DATE = new RegExp(`^(${DATE_VALUE})(?:, (.*))?$`, "is");
const LEADING_PHRASE = /^\(([^()]*)\)(?:, (.*))?$/s;

/**
 * A GEDCOM date as GEDCOM 7 writes it (upper case, BCE), or null when it is not one. Real
 * exports' dotted keywords ("ABT. 1886", "BEF. 1908") and "BET. 1899 - 1905" are read too.
 */
export function canonicalDate(text: string): string | null {
  let squashed = text
    .trim()
    .replace(/\s+/g, " ")
    .replace(/^(ABT|CAL|EST|BEF|AFT|BET|FROM|TO|INT)\.(?= )/i, "$1");
  const dashed = /^BET (.+?) - (.+)$/i.exec(squashed);
  if (dashed) squashed = `BET ${dashed[1]!} AND ${dashed[2]!}`;
  if (!DATE.test(squashed)) return null;
  return squashed.toUpperCase().replace(/ (?:B\.C\.|BC\b)/g, " BCE");
}

/**
 * A typed row's value: "DATE, PLACE", either alone, or "Yes". A date that is not a GEDCOM date
 * (free text some programs write) is kept as a phrase in brackets, as GEDCOM 5.5.1 writes one.
 */
export function eventValue(date: string | null, place: string | null): string {
  const parts: string[] = [];
  const dateText = date?.trim() ?? "";
  if (dateText !== "") {
    parts.push(
      canonicalDate(dateText) ?? (/^\(.*\)$/s.test(dateText) ? dateText : `(${dateText})`),
    );
  }
  const placeText = place?.trim() ?? "";
  if (placeText !== "") parts.push(placeText);
  return parts.length > 0 ? parts.join(", ") : HAPPENED;
}

export type EventParts =
  | { happened: true }
  | { happened: false; date: string | null; phrase: string | null; place: string | null };

/** Reads a typed row's value back into date (or date phrase) and place. */
export function eventParts(value: string): EventParts {
  const text = value.trim();
  if (text === HAPPENED) return { happened: true };
  const phrase = LEADING_PHRASE.exec(text);
  if (phrase) return { happened: false, date: null, phrase: phrase[1]!, place: phrase[2] ?? null };
  const dated = LEADING_DATE.exec(text);
  if (dated) {
    return {
      happened: false,
      date: canonicalDate(dated[1]!),
      phrase: null,
      place: dated[2] ?? null,
    };
  }
  return { happened: false, date: null, phrase: null, place: text };
}
