import data from "./data/suggestions.json";

/**
 * The fixed suggestion lists of the person editor's multi-selects; users may add their own. The
 * JSON is typed by the compiler, so it is not parsed again at run time (in the browser a zod parse
 * would also probe for `eval`, which the Content-Security-Policy refuses).
 */
export const SUGGESTIONS: Readonly<{
  traits: readonly string[];
  aspirations: readonly string[];
  lifeStates: readonly string[];
}> = data;

export type SuggestionList = keyof typeof SUGGESTIONS;
