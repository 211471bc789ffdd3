/**
 * Lower case without accents, as Find a Sim compares names (find-sim/search-index.ts): "Zoë"
 * reads "zoe", "Ñoño" "nono". NFD takes the marks apart and keeps one code unit per mark, so
 * ranking on it needs no map back to the original text.
 */
export function foldForMatch(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();
}

/**
 * How well `text` matches the typed `needle` (both already folded): 0 exact, 1 prefix,
 * 2 a later word starts with it, 3 anywhere else, -1 no match.
 */
function matchTier(text: string, needle: string): number {
  if (text === needle) return 0;
  if (text.startsWith(needle)) return 1;
  const at = text.indexOf(needle);
  if (at < 0) return -1;
  // A later word starting with the text ("Sim" in "Bella Sim") beats a match inside a word.
  for (let index = at; index >= 0; index = text.indexOf(needle, index + 1)) {
    if (/[\s\-'(]/.test(text[index - 1] ?? "")) return 2;
  }
  return 3;
}

/**
 * The items whose text contains the typed text (ignoring case, accents and surrounding spaces),
 * ranked: exact matches first, then those starting with it, then those with a word starting with
 * it, then the rest. Among the starts, the shorter text first ("Crea" ranks Creative before
 * Creative Visionary, whatever the list's order: the whole word the player is typing is likelier
 * than a longer name that starts with it); otherwise the items keep their given order. The top
 * one is what Enter should pick. An empty text matches everything in order. At most `limit`.
 */
export function rankMatches<T>(
  items: readonly T[],
  input: string,
  textOf: (item: T) => string,
  limit = Infinity,
): T[] {
  const needle = foldForMatch(input.trim());
  if (!needle) return items.slice(0, limit);
  const tiers: { item: T; length: number }[][] = [[], [], [], []];
  for (const item of items) {
    const text = foldForMatch(textOf(item));
    const tier = matchTier(text, needle);
    if (tier >= 0) tiers[tier]!.push({ item, length: text.length });
  }
  // Array.prototype.sort is stable: equal lengths keep the list's order
  tiers[1]!.sort((a, b) => a.length - b.length);
  tiers[2]!.sort((a, b) => a.length - b.length);
  return tiers
    .flat()
    .slice(0, limit)
    .map((entry) => entry.item);
}
