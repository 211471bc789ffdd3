// A tree's whole structure in SQL (ADR 037). A large structure is stored in parts, "Tree"."data"
// and its "TreeChunk" rows; a statement that reads the structure reads it through these, never
// through "data" alone. Loaded by the front and the seed outside Next's bundle: no "server-only".

/** The structure of the "Tree" row `alias` as JSON text, in jsonb's text form (as data::text). */
export const treeDataText = (alias: string) => `heirloom_tree_text(${alias}."id", ${alias}."data")`;

/** The structure of the "Tree" row `alias` as jsonb. */
export const treeDataJsonb = (alias: string) => `heirloom_tree_data(${alias}."id", ${alias}."data")`;
