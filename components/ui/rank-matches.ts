/**
 * How well `text` matches the typed `needle` (both already lower-cased): 0 exact, 1 prefix,
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
 * The items whose text contains the typed text (ignoring case and surrounding spaces), ranked:
 * exact matches first, then those starting with it, then those with a word starting with it,
 * then the rest. Within a rank the items keep their given (alphabetical) order, so the top one
 * is what Enter should pick. An empty text matches everything in order. At most `limit` items.
 */
export function rankMatches<T>(
  items: readonly T[],
  input: string,
  textOf: (item: T) => string,
  limit = Infinity,
): T[] {
  const needle = input.trim().toLocaleLowerCase();
  if (!needle) return items.slice(0, limit);
  const tiers: T[][] = [[], [], [], []];
  for (const item of items) {
    const tier = matchTier(textOf(item).toLocaleLowerCase(), needle);
    if (tier >= 0) tiers[tier]!.push(item);
  }
  return tiers.flat().slice(0, limit);
}
