// Turns GEDCOM bytes into text. GEDCOM 7 is always UTF-8; GEDCOM 5.5.1 declares its character
// set in HEAD.CHAR (ANSEL, UTF-8, UNICODE, ASCII) and real files add ANSI, IBMPC, MACINTOSH...
// Bytes that are valid UTF-8 are read as UTF-8 whatever the header says: tools often declare
// ANSEL or ANSI and write UTF-8, while ANSEL or Windows-1252 text is almost never valid UTF-8.

/** ANSEL (ANSI Z39.47) spacing characters above 0x7F, with GEDCOM's additions (0xBE-0xCF). */
const ANSEL_SPACING: Record<number, string> = {
  0xa1: "\u0141", // Ł
  0xa2: "\u00d8", // Ø
  0xa3: "\u0110", // Đ
  0xa4: "\u00de", // Þ
  0xa5: "\u00c6", // Æ
  0xa6: "\u0152", // Œ
  0xa7: "\u02b9", // ʹ
  0xa8: "\u00b7", // ·
  0xa9: "\u266d", // ♭
  0xaa: "\u00ae", // ®
  0xab: "\u00b1", // ±
  0xac: "\u01a0", // Ơ
  0xad: "\u01af", // Ư
  0xae: "\u02bc", // ʼ
  0xb0: "\u02bb", // ʻ
  0xb1: "\u0142", // ł
  0xb2: "\u00f8", // ø
  0xb3: "\u0111", // đ
  0xb4: "\u00fe", // þ
  0xb5: "\u00e6", // æ
  0xb6: "\u0153", // œ
  0xb7: "\u02ba", // ʺ
  0xb8: "\u0131", // ı
  0xb9: "\u00a3", // £
  0xba: "\u00f0", // ð
  0xbc: "\u01a1", // ơ
  0xbd: "\u01b0", // ư
  0xbe: "\u25a1", // □ (GEDCOM: empty box)
  0xbf: "\u25a0", // ■ (GEDCOM: black box)
  0xc0: "\u00b0", // °
  0xc1: "\u2113", // ℓ
  0xc2: "\u2117", // ℗
  0xc3: "\u00a9", // ©
  0xc4: "\u266f", // ♯
  0xc5: "\u00bf", // ¿
  0xc6: "\u00a1", // ¡
  0xc7: "\u00df", // ß (MARC-8)
  0xc8: "\u20ac", // €
  0xcd: "e", // GEDCOM: midline e
  0xce: "o", // GEDCOM: midline o
  0xcf: "\u00df", // ß (GEDCOM)
};

/** ANSEL combining marks; in ANSEL they come before the letter, in Unicode after it. */
const ANSEL_COMBINING: Record<number, string> = {
  0xe0: "\u0309",
  0xe1: "\u0300",
  0xe2: "\u0301",
  0xe3: "\u0302",
  0xe4: "\u0303",
  0xe5: "\u0304",
  0xe6: "\u0306",
  0xe7: "\u0307",
  0xe8: "\u0308",
  0xe9: "\u030c",
  0xea: "\u030a",
  0xeb: "\ufe20",
  0xec: "\ufe21",
  0xed: "\u0315",
  0xee: "\u030b",
  0xef: "\u0310",
  0xf0: "\u0327",
  0xf1: "\u0328",
  0xf2: "\u0323",
  0xf3: "\u0324",
  0xf4: "\u0325",
  0xf5: "\u0333",
  0xf6: "\u0332",
  0xf7: "\u0326",
  0xf8: "\u031c",
  0xf9: "\u032e",
  0xfa: "\ufe22",
  0xfb: "\ufe23",
  0xfe: "\u0313",
};

/** Decodes ANSEL, moving each combining mark after its letter and composing (NFC). */
export function decodeAnsel(bytes: Uint8Array): string {
  const parts: string[] = [];
  let pending = "";
  for (const byte of bytes) {
    if (byte < 0x80) {
      // a mark before a line break has nothing to combine with: it is dropped
      parts.push(
        byte === 0x0a || byte === 0x0d
          ? String.fromCharCode(byte)
          : String.fromCharCode(byte) + pending,
      );
      pending = "";
      continue;
    }
    const mark = ANSEL_COMBINING[byte];
    if (mark !== undefined) {
      pending += mark;
      continue;
    }
    parts.push((ANSEL_SPACING[byte] ?? "\ufffd") + pending);
    pending = "";
  }
  return parts.join("").normalize("NFC");
}

export type GedcomEncoding =
  "UTF-8" | "UTF-16LE" | "UTF-16BE" | "ANSEL" | "WINDOWS-1252" | "MACINTOSH";

/** The header's CHAR and GEDC.VERS, read from the first lines before the text is decoded. */
function peekHeader(bytes: Uint8Array): { char: string | null; version: string | null } {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 65_536));
  const lines = head.split(/\r\n|\r|\n/);
  let char: string | null = null;
  let version: string | null = null;
  let inGedc = false;
  for (let i = 1; i < lines.length; i += 1) {
    const match = /^\s*(\d+)\s+(\S+)(?:\s+(.*))?$/.exec(lines[i]!);
    if (!match) continue;
    const level = match[1];
    const tag = match[2]!.toUpperCase();
    if (level === "0") break;
    if (level === "1") {
      inGedc = tag === "GEDC";
      if (tag === "CHAR") char = (match[3] ?? "").trim().toUpperCase();
    } else if (level === "2" && inGedc && tag === "VERS") {
      version = (match[3] ?? "").trim();
    }
  }
  return { char, version };
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Picks the encoding from the byte order mark, the byte pattern and the header. */
export function detectEncoding(bytes: Uint8Array): { encoding: GedcomEncoding; offset: number } {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { encoding: "UTF-8", offset: 3 };
  if (b0 === 0xff && b1 === 0xfe) return { encoding: "UTF-16LE", offset: 2 };
  if (b0 === 0xfe && b1 === 0xff) return { encoding: "UTF-16BE", offset: 2 };
  // "0 HEAD" in UTF-16 without a byte order mark
  if (b0 === 0x30 && b1 === 0x00) return { encoding: "UTF-16LE", offset: 0 };
  if (b0 === 0x00 && b1 === 0x30) return { encoding: "UTF-16BE", offset: 0 };
  const { char, version } = peekHeader(bytes);
  if (version && /^[7-9]/.test(version)) return { encoding: "UTF-8", offset: 0 };
  if (isUtf8(bytes)) return { encoding: "UTF-8", offset: 0 };
  switch (char) {
    case "ANSEL":
      return { encoding: "ANSEL", offset: 0 };
    case "UTF-8":
    case "UTF8":
    case "UNICODE":
      return { encoding: "UTF-8", offset: 0 };
    case "MACINTOSH":
    case "MAC":
      return { encoding: "MACINTOSH", offset: 0 };
    default:
      // ASCII, ANSI, IBMPC, CP1252, ISO-8859-1 or nothing: Windows-1252 is a superset of Latin-1
      return { encoding: "WINDOWS-1252", offset: 0 };
  }
}

/** Decodes a GEDCOM file to text; invalid bytes become U+FFFD. */
export function decodeGedcom(bytes: Uint8Array): { text: string; encoding: GedcomEncoding } {
  const { encoding, offset } = detectEncoding(bytes);
  const body = bytes.subarray(offset);
  let text: string;
  switch (encoding) {
    case "ANSEL":
      text = decodeAnsel(body);
      break;
    case "UTF-16LE":
      text = new TextDecoder("utf-16le").decode(body);
      break;
    case "UTF-16BE":
      text = new TextDecoder("utf-16be").decode(body);
      break;
    case "MACINTOSH":
      text = new TextDecoder("macintosh").decode(body);
      break;
    case "WINDOWS-1252":
      text = new TextDecoder("windows-1252").decode(body);
      break;
    default:
      text = new TextDecoder("utf-8").decode(body);
  }
  // TextDecoder keeps a BOM it did not strip itself (e.g. a second one)
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { text, encoding };
}
