// Loaded by the fast read path too (lib/server/fast-reads.ts), outside Next's bundle: no
// "server-only" import here.

/**
 * A person reference in the JSON text PostgreSQL writes for a jsonb structure. A stored reference
 * holds only `_id` (lib/schemas/tree.ts personRef), and nothing else in a structure is an object
 * with that one key, so this matches references and nothing else.
 */
const STORED_REF = /\{"_id": "([^"\\]*)"\}/g;

/**
 * The tree's JSON text with every person reference given the person's current names,
 * `{"_id": "…", "firstName": "…", "lastName": "…"}`, as the original server answered and as the
 * original client reads them (issue 13). `names` is the JSON text of `{id: [firstName, lastName]}`
 * for the tree's people; a reference to nobody in it is left as it is. The structure is never
 * parsed: one pass over the text, so a 10,000-node tree costs milliseconds.
 */
export function withPersonNames(treeJson: string, names: string | null): string {
  if (!names) return treeJson;
  const byId = JSON.parse(names) as Record<string, [string, string]>;
  return treeJson.replace(STORED_REF, (ref, id: string) => {
    const name = Object.hasOwn(byId, id) ? byId[id] : undefined;
    if (!name) return ref;
    return `{"_id": "${id}", "firstName": ${JSON.stringify(name[0])}, "lastName": ${JSON.stringify(name[1])}}`;
  });
}

/**
 * A stored reference as withPersonNames finds it, with or without the spaces of jsonb's text (so
 * that another writer of the structure's text, e.g. a compact one, keeps being read).
 */
const ANY_STORED_REF = /\{\s*"_id"\s*:\s*"([^"\\]*)"\s*\}/g;
/**
 * Each person's id in a people list's JSON text (sql/reads.ts peopleJson: compact, `_id` first).
 * A string value cannot hold `{"_id":"` (its quotes would be escaped), so this finds the persons'
 * own ids, in the list's order, and nothing else.
 */
const LISTED_ID = /\{"_id":"([^"\\]*)"/g;

/** The persons' ids of a people list's JSON text, in its order (see LISTED_ID). */
export function listedIds(peopleJson: string): string[] {
  return Array.from(peopleJson.matchAll(LISTED_ID), (match) => match[1]!);
}

/** A tree's JSON text with its references as positions in `ids` (see withPersonIndexes). */
export interface IndexedTree {
  /** The tree's JSON text up to, not including, its closing brace. */
  open: string;
  /** References left as stored: to nobody in `ids`. */
  unresolved: number;
}

/** Each id's position in `ids` (its first, should one repeat): what indexRefs writes. */
export function positionsOf(ids: readonly string[]): Map<string, number> {
  const positions = new Map<string, number>();
  ids.forEach((id, position) => {
    if (!positions.has(id)) positions.set(id, position);
  });
  return positions;
}

/**
 * A piece of a tree's JSON text with each reference to someone in `positions` written as that
 * position, and the count of references left as stored (to nobody there). A reference is a whole
 * object, so a text cut between objects (at a chunk's placeholder) is indexed piece by piece.
 */
export function indexRefs(
  text: string,
  positions: ReadonlyMap<string, number>,
): { text: string; unresolved: number } {
  let unresolved = 0;
  const indexed = text.replace(ANY_STORED_REF, (ref, id: string) => {
    const position = positions.get(id);
    if (position === undefined) {
      unresolved += 1;
      return ref;
    }
    return String(position);
  });
  return { text: indexed, unresolved };
}

/** A reference's opening in jsonb's text form. */
const JSONB_REF_OPEN = '{"_id": "';
const CLOSING_BRACE = 0x7d;

/**
 * indexRefs for a text in jsonb's text form, as PostgreSQL writes a stored structure (`{"_id":
 * "…"}`, one space after the colon): the same text and count, by a plain string search, a third
 * faster than the regular expression over the megabyte or two of a large legacy's chunks
 * (lib/server/front/canvas-read.ts). An id with a backslash is no reference, as there.
 */
export function indexJsonbRefs(
  text: string,
  positions: ReadonlyMap<string, number>,
): { text: string; unresolved: number } {
  let out = "";
  let from = 0;
  let unresolved = 0;
  let at = text.indexOf(JSONB_REF_OPEN);
  while (at !== -1) {
    const start = at + JSONB_REF_OPEN.length;
    const end = text.indexOf('"', start);
    if (end === -1) break;
    let next = start;
    if (text.charCodeAt(end + 1) === CLOSING_BRACE) {
      const id = text.slice(start, end);
      if (!id.includes("\\")) {
        const position = positions.get(id);
        if (position === undefined) {
          unresolved += 1;
        } else {
          out += text.slice(from, at) + String(position);
          from = end + 2;
        }
        next = end + 2;
      }
    }
    at = text.indexOf(JSONB_REF_OPEN, next);
  }
  return { text: from === 0 ? text : out + text.slice(from), unresolved };
}

/** withPersonIndexes's first half: the tree's references written as positions in `ids`. */
export function indexTreeRefs(treeJson: string, ids: readonly string[]): IndexedTree {
  const { text: tree, unresolved } = indexRefs(treeJson, positionsOf(ids));
  // row_to_json's object: its closing brace is the text's last character
  return { open: tree.slice(0, tree.lastIndexOf("}")), unresolved };
}

/** withPersonIndexes's second half: the indexed tree with the people list as its last key. */
export const withPeopleList = (tree: IndexedTree, peopleJson: string): string =>
  `${tree.open},"people":${peopleJson}}`;

/**
 * GET /api/trees/{id}?fields=canvas's answer (ADR 038): the tree's JSON text with every person
 * reference written as the person's position in `peopleJson` (the canvas people, oldest first,
 * read in the same statement), and that list as its last key, `people`. Each id is then sent once:
 * the structure of a 10,000-Sim tree holds some 18,000 references, and a random id costs a
 * compressor about 20 bytes wherever it is repeated. A reference to nobody in the list stays as it
 * is stored (`{"_id": …}`). One pass over each text, as withPersonNames.
 */
export function withPersonIndexes(treeJson: string, peopleJson: string): string {
  return withPeopleList(indexTreeRefs(treeJson, listedIds(peopleJson)), peopleJson);
}
