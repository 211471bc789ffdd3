const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

function decodeEntity(match: string, entity: string): string {
  const lower = entity.toLowerCase();
  if (lower.startsWith("#")) {
    const code = lower.startsWith("#x")
      ? parseInt(lower.slice(2), 16)
      : parseInt(lower.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff
      ? String.fromCodePoint(code)
      : match;
  }
  return NAMED_ENTITIES[lower] ?? match;
}

// Block-level tags separate words; inline marks (strong, em, u, s) do not.
const BLOCK_TAG = /<\/?(?:p|li|ul|ol|br|div|h[1-6]|blockquote|pre|hr|tr|td|th)\b[^>]*>/gi;

/**
 * The words of a (sanitized) rich-text HTML fragment, for link previews: tags dropped, entities
 * decoded, whitespace collapsed. The result is text, to be escaped by whoever outputs it.
 */
export function htmlToPlainText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(BLOCK_TAG, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, decodeEntity)
    .replace(/\s+/g, " ")
    .trim();
}

/** Shortens text to at most `max` characters, at a word boundary when there is one, with "…". */
export function truncateText(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join("");
  const lastSpace = cut.lastIndexOf(" ");
  const head = lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut;
  return `${head.trimEnd()}…`;
}
