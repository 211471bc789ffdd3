// GEDCOM 5.5.1 / 7 → ImportedTree. How people are placed in Heirloom's strict hierarchy (root,
// several placements, disconnected families, cycles) is docs/decisions/007-gedcom-placement.md.
// The stages, one file each: parse.ts (lines → records, with warnings), import-graph.ts (people
// and families linked), import-person.ts (each INDI's fields), import-generations.ts (depth and
// cycles), import-placement.ts (the tree's nodes).
import type { ImportedTree } from "@/lib/import/types";
import { DESCRIPTION_MAX, TITLE_MAX } from "@/lib/schemas/tree";
import { generationsBelow } from "./import-generations";
import { notesHtml, readGraph } from "./import-graph";
import { importPerson } from "./import-person";
import { placePeople } from "./import-placement";
import { clip, squash } from "./import-text";
import { child, parseGedcomText, type GedcomNode } from "./parse";
import { HEIRLOOM_TAGS } from "./tags";

export { textToHtml } from "./import-text";

const DEFAULT_TITLE = "Imported family tree";

export interface GedcomImportOptions {
  /** The name of the file the player chose, e.g. "Smith family.ged": the title when the file has none. */
  fileName?: string;
}

export function parseGedcom(bytes: Uint8Array, options: GedcomImportOptions = {}): ImportedTree {
  const graph = readGraph(parseGedcomText(bytes));
  const imported = graph.people.map((person) => importPerson(person, graph));
  const depth = generationsBelow(graph, imported);
  const { root, families } = placePeople(graph, imported, depth);
  const { head } = graph.parsed;
  return {
    source: "gedcom",
    title: treeTitle(head, options.fileName),
    description: clip(notesHtml(head, graph), DESCRIPTION_MAX),
    cover: null,
    data: root,
    people: imported,
    images: new Map(),
    notes: graph.warnings.notes(),
    families,
    // heirs (issue 26): the import keeps one per generation of the tree it builds
    heirs: graph.people
      .filter((person) => person.record.children.some((n) => n.tag === HEIRLOOM_TAGS.heir))
      .map((person) => person.key),
  };
}

/** The title: the file's own (an Heirloom export's), else the name of the file the player chose,
 * else the file name in the header when it is one (not a program's name), else a default. */
function treeTitle(head: GedcomNode, fileName: string | undefined): string {
  const own = child(head, HEIRLOOM_TAGS.title)?.value;
  if (own !== undefined && squash(own) !== "") return clip(squash(own), TITLE_MAX);
  const stem = (name: string) =>
    squash(
      name
        .split(/[\\/]/)
        .pop()!
        .replace(/\.(?:ged|gedcom)$/i, ""),
    );
  if (fileName && stem(fileName) !== "") return clip(stem(fileName), TITLE_MAX);
  const file = child(head, "FILE")?.value.trim() ?? "";
  if (/\.(?:ged|gedcom)$/i.test(file) && stem(file) !== "") return clip(stem(file), TITLE_MAX);
  return DEFAULT_TITLE;
}
