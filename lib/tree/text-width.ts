/**
 * Widths of the canvas's 11 px name text, estimated without a DOM (the layout also runs in Node
 * for exports and tests). The figures are DejaVu Sans's advance widths, the widest of the
 * fonts in the app's system font stack; a name measured here is never wider on screen, so
 * a node sized with them never cuts a name.
 */
const NARROW = new Set([..."ijl.,:;'|!ıìíîïĺļľł()[]"]);
const SLIM = new Set([..."frtIJ- "]);
const WIDE = new Set([..."mwMWÆæŒœ@%"]);

/** Width of one character, in ems. */
function charEm(char: string): number {
  if (NARROW.has(char)) return 0.3;
  if (SLIM.has(char)) return 0.42;
  if (WIDE.has(char)) return 0.98;
  if (char >= "A" && char <= "Z") return 0.72;
  if (char.toUpperCase() !== char.toLowerCase() && char === char.toUpperCase()) return 0.72;
  if (char.charCodeAt(0) > 0x2e80) return 1; // CJK and other full-width scripts
  return 0.62;
}

export const NAME_FONT_SIZE = 11;
/** Semibold first names run about 8% wider than the regular last names. */
const BOLD = 1.08;

export function textWidth(text: string, bold = false, fontSize = NAME_FONT_SIZE): number {
  let ems = 0;
  for (const char of text) ems += charEm(char);
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
