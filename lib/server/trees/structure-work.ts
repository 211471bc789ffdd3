import "server-only";
import { z } from "zod";
import { LIMIT_TEXT, TREE_LIMITS, type TreeNode, treeData } from "@/lib/schemas/tree";
import { buildKinship } from "@/lib/tree/placements";
import { describeZodError } from "@/lib/validation-message";
import { chunkedWrite } from "./structure-json";

// The CPU work of writes to a whole structure, as pure functions of JSON text, so that a large
// tree's runs in the worker pool (tasks.ts) and a small one's on the request thread, the same code
// either way (issue 32, ADR 043). Nothing here imports the database or the HTTP layer: a worker
// thread loads this module, and an error crosses between threads as its status and sentence.

/**
 * Structures (or request bodies) of more characters than this are worked on in the worker pool:
 * at about 500 characters a Sim, some 500 Sims. Parsing, validating and serializing 12 MB (24,000
 * Sims) took the request thread 0.5-1.0 s; a quarter of a megabyte costs it about 10-20 ms, less
 * than a round trip to the worker when the pool is idle, and much less when it is busy.
 */
export const OFF_THREAD_CHARS = 256 * 1024;

/** A refusal with the status and sentence the player sees (ApiError's fields, across threads). */
export class StructureRefusal extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = "StructureRefusal";
  }
}

/** What a task answers: its value, or the refusal to throw as an ApiError on the request thread. */
export type WorkAnswer<T> = { ok: true; value: T } | { ok: false; status: number; detail: string };

/** Runs `work`, turning a refusal or a schema error into the answer the request thread rethrows. */
export function answerOf<T>(work: () => T): WorkAnswer<T> {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    if (error instanceof StructureRefusal) {
      return { ok: false, status: error.status, detail: error.detail };
    }
    if (error instanceof z.ZodError)
      return { ok: false, status: 400, detail: describeZodError(error) };
    throw error;
  }
}

/**
 * A whole new structure, ready to store: the texts its chunks are written as (a new set, as
 * `chunkedWrite(data, null)` makes on the request thread), its stored bytes, and every person id
 * it refers to.
 */
export interface PreparedStructure {
  root: string;
  put: { key: number; text: string }[];
  bytes: number;
  people: string[];
}

/** Every person id of a validated structure: node people, partners, parents, adoptive parents. */
export function peopleOf(root: TreeNode): string[] {
  const ids = new Set<string>();
  const stack: TreeNode[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.person) ids.add(node.person._id);
    for (const partner of node.partners) for (const p of partner.people) ids.add(p._id);
    for (const p of node.parents) ids.add(p._id);
    for (const p of node.adoptiveParents) ids.add(p._id);
    for (const child of node.children) stack.push(child);
  }
  return [...ids];
}

/** A validated structure's new set of chunks, without its people (a household sync's). */
export function structureChunks(data: TreeNode): PreparedStructure {
  const write = chunkedWrite(data, null);
  return { root: write.root!, put: write.put, bytes: write.bytes, people: [] };
}

/** A validated structure's new set of chunks and people; refused past the stored-bytes limit. */
export function prepareStructure(data: TreeNode): PreparedStructure {
  const prepared = structureChunks(data);
  if (prepared.bytes > TREE_LIMITS.maxBytes) throw new StructureRefusal(422, LIMIT_TEXT.bytes);
  return { ...prepared, people: peopleOf(data) };
}

/** Escapes PostgreSQL cannot store (NUL, a lone surrogate): such a body takes the usual path. */
const UNSTORABLE_ESCAPE = /\\u(0000|[dD][89a-fA-F])/;

/**
 * A `PATCH /api/trees/{id}` body as text: when it is exactly `{data}`, its structure validated by
 * `treeData` (as parseTreePatch does) and prepared to store. Any other body (details, both at
 * once, invalid JSON, an escape to check) answers null, and the request thread reads it the usual
 * way (parseBody, parseTreePatch), with the usual errors.
 */
export function prepareTreeBody(text: string): PreparedStructure | null {
  if (UNSTORABLE_ESCAPE.test(text)) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== "data") return null;
  return prepareStructure(treeData.parse((body as { data: unknown }).data));
}

/** What `orderHeirs` reads beside the structure: the heirs stored now and the legacy's founder. */
export interface HeirsContext {
  /** The heirs the tree holds before this write. */
  stored?: readonly string[];
  /** The founder the generations are counted from (the legacy's settings); default the root's Sim. */
  founder?: string | null;
}

/**
 * The heirs in generation order, oldest first (in the order sent within a generation), checked
 * against the stored structure: each must be a Sim placed in the tree, and no two in one
 * generation (422 otherwise), except heirs who were all stored already: generations are counted
 * again when the rule (ADR 040), the structure or the founder changes, so two heirs marked in
 * different generations can come to share one. Refusing them would refuse every later write of
 * the heirs, and the player could not even un-mark one (issue 33); they are kept until the player
 * marks a new heir in that generation or un-marks one of them.
 */
export function orderHeirs(data: TreeNode, heirs: string[], context: HeirsContext = {}): string[] {
  const kin = context.founder ? buildKinship(data, context.founder) : buildKinship(data);
  const stored = new Set(context.stored ?? []);
  const byGeneration = new Map<number, string[]>();
  for (const id of heirs) {
    const generation = kin.generation.get(id);
    if (generation === undefined) {
      throw new StructureRefusal(422, `The heir ${id} is not placed in this tree`);
    }
    const same = byGeneration.get(generation);
    if (same === undefined) byGeneration.set(generation, [id]);
    else if (stored.has(id) && same.every((other) => stored.has(other))) same.push(id);
    else throw new StructureRefusal(422, `Generation ${generation} can have only one heir`);
  }
  return [...byGeneration].sort((a, b) => a[0] - b[0]).flatMap(([, ids]) => ids);
}
