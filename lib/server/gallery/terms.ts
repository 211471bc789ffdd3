// The Gallery's search words (ADR 028): one normalization for what is indexed and what is asked.
// Loaded by the scale seed outside Next's bundle: no "server-only" here.
import { GALLERY_LIMITS } from "@/lib/schemas/published";

/** Which part of a publication a word comes from; the lower ranks first. */
export const TERM_FIELD = { title: 0, name: 1, description: 2 } as const;

const MARKS = /\p{M}+/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
// Letters that NFKD does not take apart but a reader types without their accent.
const FOLDS: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ð: "d",
  þ: "th",
  ł: "l",
  ı: "i",
};
const FOLDABLE = new RegExp(`[${Object.keys(FOLDS).join("")}]`, "gu");

/** Lower case, no accents: "Jünö" → "juno", "Château" → "chateau". */
export function foldText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(MARKS, "")
    .toLowerCase()
    .replace(FOLDABLE, (c) => FOLDS[c] ?? c);
}

/** The words of a text, folded, each cut to the index's word length. */
export function wordsOf(text: string): string[] {
  return foldText(text)
    .split(NOT_WORD)
    .filter((w) => w.length > 0)
    .map((w) => w.slice(0, GALLERY_LIMITS.maxTermLength));
}

/** The text of stored (sanitized) HTML: tags and entities out, for indexing only. */
export function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (entity, code: string) => {
      if (code.startsWith("#x") || code.startsWith("#X"))
        return String.fromCodePoint(Number.parseInt(code.slice(2), 16) || 32);
      if (code.startsWith("#")) return String.fromCodePoint(Number(code.slice(1)) || 32);
      return entity === "&amp;" ? "&" : " ";
    });
}

export interface GalleryTermRow {
  term: string;
  field: number;
}

/**
 * The words a publication is found by: each word once per field it appears in, title first, then
 * the Sims' names, then the description, at most GALLERY_LIMITS.maxTerms in all.
 */
export function termsOf(source: {
  title: string;
  description: string;
  names: Iterable<string>;
}): GalleryTermRow[] {
  const rows: GalleryTermRow[] = [];
  const seen = new Set<string>();
  const add = (field: number, words: string[]) => {
    for (const term of words) {
      if (rows.length >= GALLERY_LIMITS.maxTerms) return;
      const key = `${field}:${term}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push({ term, field });
    }
  };
  add(TERM_FIELD.title, wordsOf(source.title));
  for (const name of source.names) {
    if (rows.length >= GALLERY_LIMITS.maxTerms) break;
    add(TERM_FIELD.name, wordsOf(name));
  }
  add(TERM_FIELD.description, wordsOf(htmlText(source.description)));
  return rows;
}

/**
 * A reader's search as index words: trimmed, cut to GALLERY_LIMITS.maxSearch characters, at most
 * GALLERY_LIMITS.maxWords distinct words; empty when the search is under 2 characters.
 */
export function searchWords(search: string | null | undefined): string[] {
  const text = (search ?? "").trim().slice(0, GALLERY_LIMITS.maxSearch);
  if (text.length < GALLERY_LIMITS.minSearch) return [];
  return [...new Set(wordsOf(text))].slice(0, GALLERY_LIMITS.maxWords);
}
