// What the ZIP importers share: reading `var x=` data files without eval, loose validation of
// people as older tools wrote them, and an iterative walk that turns a file's tree structure into
// a TreeNode (enums in either spelling, ids as strings, every reference checked, limits enforced).
import { z } from "zod";
import {
  TREE_LIMITS,
  type ParentType,
  type PartnerType,
  type PersonRef,
  type TreeNode,
} from "@/lib/schemas/tree";
import { ImportError, type ImportedLink, type ImportedPerson } from "./types";

/** Most people one import may hold (as many as a tree may have nodes). */
export const MAX_IMPORT_PEOPLE = TREE_LIMITS.maxNodes;

/** Partner types as Plum Tree (constants) and PruneTree (words) write them. */
const PARTNER_TYPE_NAMES: Record<string, PartnerType> = {
  partner: "PARTNER",
  ex_partner: "EX_PARTNER",
  "ex-partner": "EX_PARTNER",
  married: "MARRIED",
  abduction: "ABDUCTION",
};

/** Conception types: NONE is "WooHoo", ABDUCTION "Alien Abduction", CLONE "Cloning". */
const PARENT_TYPE_NAMES: Record<string, ParentType> = {
  none: "NONE",
  woohoo: "NONE",
  abduction: "ABDUCTION",
  "alien abduction": "ABDUCTION",
  clone: "CLONE",
  cloning: "CLONE",
};

function enumValue<T extends string>(
  names: Record<string, T>,
  value: unknown,
  fallback: T,
  what: string,
): T {
  if (value === null || value === undefined || value === "") return fallback;
  const found = typeof value === "string" ? names[value.trim().toLowerCase()] : undefined;
  if (!found) {
    throw new ImportError(
      `The tree structure has an unknown ${what} ${typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : `of type ${typeof value}`}`,
    );
  }
  return found;
}

export const partnerTypeOf = (value: unknown) =>
  enumValue(PARTNER_TYPE_NAMES, value, "PARTNER", "partner type");
export const parentTypeOf = (value: unknown) =>
  enumValue(PARENT_TYPE_NAMES, value, "NONE", "parent type");

/**
 * Reads a data file of the form `var name=<JSON>;` (Plum Tree's data/tree.js and people.js) by
 * stripping the declaration and parsing the rest as JSON. Nothing is ever evaluated.
 */
export function parseVarFile(text: string, variable: string, file: string): unknown {
  const declaration = new RegExp(`^\\s*(?:var|let|const|window\\.)\\s*${variable}\\s*=\\s*`);
  const match = declaration.exec(text);
  if (!match) {
    throw new ImportError(`${file} is not valid: it should start with "var ${variable}="`);
  }
  const json = text.slice(match[0].length).replace(/[\s;]+$/, "");
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw new ImportError(`${file} is not valid: "var ${variable}=" must be followed by JSON`);
  }
}

/** Parses JSON text, naming the file when it is not JSON. */
export function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ImportError(`${file} is not valid JSON`);
  }
}

/** A zod failure as one readable sentence naming the file and the field. */
export function describeIssue(error: z.ZodError, file: string): string {
  const issue = error.issues[0];
  const at = issue?.path.length ? ` at ${issue.path.map(String).join(".")}` : "";
  return `${file} is not valid${at}: ${issue?.message ?? "unexpected content"}`;
}

export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  file: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ImportError(describeIssue(parsed.error, file));
  return parsed.data;
}

// Loose shapes: lengths are clipped on import (lib/server/import), not refused here, and missing
// or null fields take their defaults, as older files leave them out.
const text = z
  .union([z.string(), z.number(), z.boolean()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? "" : String(v)));
const textList = z
  .array(z.union([z.string(), z.number()]).transform(String))
  .nullish()
  .transform((v) => v ?? []);
/** Ids: Plum Tree and Heirloom use strings, PruneTree (IndexedDB) numbers. */
export const fileId = z
  .union([z.string().trim().min(1).max(200), z.number().int().nonnegative()])
  .transform(String);
const customRow = z.object({ title: text, value: text });
const link = z.object({ title: text, treeId: fileId, personId: fileId });

export const filePerson = z.object({
  _id: fileId,
  avatar: z.union([z.string(), z.number()]).nullish(),
  firstName: text,
  lastName: text,
  bio: text,
  traits: textList,
  aspirations: textList,
  lifeStates: textList,
  custom: z
    .array(customRow)
    .nullish()
    .transform((v) => v ?? []),
  links: z
    .array(z.unknown())
    .nullish()
    .transform((items): ImportedLink[] =>
      (items ?? []).flatMap((item) => {
        const parsed = link.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      }),
    ),
});
export type FilePerson = z.output<typeof filePerson>;

/**
 * A tree as Plum Tree's data/tree.js and PruneTree's bundle.json write it: ids as strings or
 * numbers, a missing title or description as empty, the cover an image name or id.
 */
export const fileTree = z.object({
  _id: fileId.nullish(),
  title: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
  description: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
  cover: z.union([z.string(), z.number()]).nullish(),
  data: z.unknown().optional(),
});

export const filePeople = z
  .array(z.unknown())
  .max(MAX_IMPORT_PEOPLE, `A tree can hold at most ${MAX_IMPORT_PEOPLE} people`);

/** Validates each person (naming the one that fails) and refuses duplicate ids. */
export function parsePeople(values: unknown[], file: string): FilePerson[] {
  const seen = new Set<string>();
  return values.map((value, index) => {
    const parsed = filePerson.safeParse(value);
    if (!parsed.success)
      throw new ImportError(describeIssue(parsed.error, `${file} (person ${index + 1})`));
    if (seen.has(parsed.data._id)) {
      throw new ImportError(`${file} lists the person ${parsed.data._id} twice`);
    }
    seen.add(parsed.data._id);
    return parsed.data;
  });
}

/** A file person as an ImportedPerson, with its avatar already resolved to an image key. */
export function toImportedPerson(person: FilePerson, avatar: string | null): ImportedPerson {
  return {
    key: person._id,
    firstName: person.firstName,
    lastName: person.lastName,
    bio: person.bio,
    traits: person.traits,
    aspirations: person.aspirations,
    lifeStates: person.lifeStates,
    custom: person.custom,
    avatar,
    links: person.links,
  };
}

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function listOf(value: unknown, what: string): unknown[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value))
    throw new ImportError(`The tree structure is not valid: ${what} must be a list`);
  return value;
}

/**
 * Turns a file's tree structure into a TreeNode without recursion (so no nesting can blow the
 * stack), refusing more than TREE_LIMITS nodes, generations or people per list, unknown enum
 * values, and references to people the file does not have. A reference without an id (PruneTree
 * writes `{}` for a missing one) is dropped; a node whose person has no id has no person.
 */
export function normalizeTreeData(raw: unknown, peopleKeys: ReadonlySet<string>): TreeNode {
  if (!isObject(raw)) throw new ImportError("The tree structure is missing or not an object");
  const missing = new Set<string>();
  const refOf = (value: unknown): PersonRef | null => {
    if (!isObject(value)) return null;
    const id = value._id;
    if (id === null || id === undefined || id === "") return null;
    const parsed = fileId.safeParse(id);
    if (!parsed.success)
      throw new ImportError("The tree structure has a person reference that is not an id");
    if (!peopleKeys.has(parsed.data)) missing.add(parsed.data);
    return { _id: parsed.data };
  };
  const refsOf = (value: unknown, what: string): PersonRef[] => {
    const items = listOf(value, what);
    if (items.length > TREE_LIMITS.maxPeoplePerList) {
      throw new ImportError(
        `The tree structure has more than ${TREE_LIMITS.maxPeoplePerList} people in one list of ${what}`,
      );
    }
    return items.map(refOf).filter((ref): ref is PersonRef => ref !== null);
  };

  let nodes = 0;
  const convert = (value: unknown): TreeNode => {
    if (!isObject(value))
      throw new ImportError("The tree structure has a node that is not an object");
    nodes += 1;
    if (nodes > TREE_LIMITS.maxNodes) {
      throw new ImportError(`A tree can hold at most ${TREE_LIMITS.maxNodes} nodes`);
    }
    const partners = listOf(value.partners, "partners");
    if (partners.length > TREE_LIMITS.maxPeoplePerList) {
      throw new ImportError(
        `The tree structure has a node with more than ${TREE_LIMITS.maxPeoplePerList} partner rows`,
      );
    }
    return {
      person: refOf(value.person),
      partners: partners.map((row) => {
        if (!isObject(row))
          throw new ImportError("The tree structure has a partner row that is not an object");
        return { type: partnerTypeOf(row.type), people: refsOf(row.people, "partners") };
      }),
      children: [],
      parentType: parentTypeOf(value.parentType),
      parents: refsOf(value.parents, "parents"),
      adoptiveParents: refsOf(value.adoptiveParents, "adoptive parents"),
      hidden: value.hidden === true,
    };
  };

  const root = convert(raw);
  const stack: { source: Raw; node: TreeNode; depth: number }[] = [
    { source: raw, node: root, depth: 1 },
  ];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const children = listOf(item.source.children, "children");
    if (children.length > 0 && item.depth + 1 > TREE_LIMITS.maxDepth) {
      throw new ImportError(`A tree can be at most ${TREE_LIMITS.maxDepth} generations deep`);
    }
    for (const child of children) {
      const node = convert(child);
      item.node.children.push(node);
      stack.push({ source: child as Raw, node, depth: item.depth + 1 });
    }
  }

  if (missing.size > 0) {
    const ids = [...missing];
    const more = ids.length > 3 ? ` and ${ids.length - 3} more` : "";
    throw new ImportError(
      `The tree refers to people who are not in the file: ${ids.slice(0, 3).join(", ")}${more}`,
    );
  }
  return root;
}

/** The last path segment of an image reference ("avatar/abc.jpg" → "abc.jpg"). */
export const baseName = (value: string) => value.slice(value.lastIndexOf("/") + 1);
