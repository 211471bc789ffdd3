/**
 * Widths of the canvas's 11 px name text, estimated without a DOM (the layout also runs in Node
 * for exports and tests). The figures are DejaVu Sans's advance widths, the widest of the
 * fonts in the app's system font stack; a name measured here is never wider on screen, so
 * a node sized with them never cuts a name.
 */
const NARROW = new Set([..."ijl.,:;'|!ıìíîïĺļľł()[]"]);
const SLIM = new Set([..."frtIJ- "]);
const WIDE = new Set([..."mwMWÆæŒœ@%"]);

/** Width of one character (a code point), in ems. */
function charEm(char: string): number {
  if (NARROW.has(char)) return 0.3;
  if (SLIM.has(char)) return 0.42;
  if (WIDE.has(char)) return 0.98;
  if (char >= "A" && char <= "Z") return 0.72;
  if (char.toUpperCase() !== char.toLowerCase() && char === char.toUpperCase()) return 0.72;
  if (char.charCodeAt(0) > 0x2e80) return 1; // CJK and other full-width scripts
  return 0.62;
}

/**
 * charEm of every code unit below TABLE_SIZE, worked out on first use (0 = not yet): the layout
 * measures every name of a 10,000-Sim tree when it opens, and a lookup here is a fraction of
 * charEm's set lookups and case conversions.
 */
const TABLE_SIZE = 0x3000;
const emTable = new Float64Array(TABLE_SIZE);

function emOfCode(code: number): number {
  let em = emTable[code]!;
  if (em === 0) {
    em = charEm(String.fromCharCode(code));
    emTable[code] = em;
  }
  return em;
}

/** The sum of charEm over the code points of `text`. */
function textEms(text: string): number {
  let ems = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < TABLE_SIZE) {
      ems += emOfCode(code);
    } else {
      const point = text.codePointAt(i)!;
      if (point > 0xffff) i += 1; // the second half of a surrogate pair
      ems += charEm(String.fromCodePoint(point));
    }
  }
  return ems;
}

export const NAME_FONT_SIZE = 11;
/** Semibold first names run about 8% wider than the regular last names. */
const BOLD = 1.08;

/**
 * Names repeat (a legacy's surnames, a genealogy's given names): each distinct string is
 * measured once. Bounded, so a long session of imports cannot grow it without end.
 */
const emsByText = new Map<string, number>();
const CACHE_LIMIT = 50_000;

export function textWidth(text: string, bold = false, fontSize = NAME_FONT_SIZE): number {
  let ems = emsByText.get(text);
  if (ems === undefined) {
    ems = textEms(text);
    if (emsByText.size >= CACHE_LIMIT) emsByText.clear();
    emsByText.set(text, ems);
  }
  return ems * fontSize * (bold ? BOLD : 1);
}

/** `text` as it fits in `maxWidth`: whole, or cut with an ellipsis. */
export function fitText(text: string, maxWidth: number, bold = false): string {
  if (textWidth(text, bold) <= maxWidth) return text;
  const ellipsis = textWidth("…", bold);
  let width = 0;
  let end = 0;
  const chars = [...text];
  for (; end < chars.length; end += 1) {
    const next = width + charEm(chars[end]!) * NAME_FONT_SIZE * (bold ? BOLD : 1);
    if (next + ellipsis > maxWidth) break;
    width = next;
  }
  return `${chars.slice(0, Math.max(1, end)).join("").trimEnd()}…`;
}
