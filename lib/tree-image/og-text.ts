/**
 * The characters of the font next/og draws with (Geist Regular, bundled with Next), read from its
 * cmap. Any other character would make next/og download a fallback font or emoji from the
 * internet while rendering, so it is left out of Open Graph images instead.
 */
const NOT_IN_OG_FONT =
  /[^\u0020-\u007e\u00a0-\u00ac\u00ae-\u0113\u0116-\u012b\u012e-\u0137\u0139-\u013e\u0141-\u0148\u014a-\u014d\u0150-\u017e\u018f\u0192\u01a0-\u01a1\u01af-\u01b0\u01cd-\u01ce\u01e4-\u01e9\u0218-\u021b\u0237\u0259\u02b9\u02bc\u02c6-\u02c8\u02d8-\u02dd\u0300-\u0304\u0306-\u030c\u0312\u031b\u0323\u0326-\u0328\u0335-\u0338\u039b\u03a9\u03bb-\u03bc\u03c0\u03c9\u0400-\u045f\u0462-\u0463\u046a-\u046b\u0472-\u0475\u0490-\u0493\u0496-\u0497\u049a-\u049b\u04a2-\u04a3\u04ae-\u04b3\u04b6-\u04b7\u04ba-\u04bb\u04c0\u04cf\u04d8-\u04d9\u04e2-\u04e3\u04e8-\u04e9\u04ee-\u04ef\u0e3f\u1e20-\u1e21\u1e80-\u1e85\u1e9e\u1ea0-\u1ef9\u2013-\u2014\u2018-\u201a\u201c-\u201e\u2020-\u2022\u2026\u2030\u2032-\u2033\u2039-\u203a\u2044\u2070\u2074-\u2079\u2080-\u2089\u20aa\u20ac\u20b1\u20b4\u20b9\u20bd\u2116-\u2117\u2122\u2153-\u2155\u215b-\u215e\u2190-\u2199\u219d\u21a9-\u21aa\u21b0-\u21b1\u21b3-\u21b5\u21e4-\u21e5\u21e7\u2202\u2206\u220f\u2211-\u2212\u221a\u221e\u222b\u2236\u2248\u2260\u2264-\u2265\u2460-\u2468\u24ea\u24ff\u25b2-\u25b3\u25b6-\u25b7\u25bc-\u25bd\u25c0-\u25c1\u25ca-\u25cc\u25cf\u2639-\u263a\u2776-\u277e]/gu;

/** Text as the Open Graph image can draw it with local fonts only: unknown characters removed. */
export function ogText(text: string): string {
  return text
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .replace(NOT_IN_OG_FONT, "")
    .replace(/ {2,}/g, " ")
    .trim();
}

/** "1 Sim", "1,234 Sims". */
export function simCount(count: number): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? "Sim" : "Sims"}`;
}
