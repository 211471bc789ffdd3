import "server-only";
import { z } from "zod";
import { objectId } from "@/lib/schemas/common";
import {
  type JsonPatchOperation,
  LIMIT_TEXT,
  type PartnerEntry,
  type PersonRef,
  TREE_LIMITS,
  type TreeNode,
  measureRaw,
  parentType,
  partnerEntry,
  partnerType,
  personRef,
  treeNode,
} from "@/lib/schemas/tree";
import { ApiError } from "@/lib/server/http/errors";
import { TREE_PATCH_LIMITS } from "@/lib/tree/limits";
import { arrayIndex, isProperPrefix, pointerTokens } from "./json-pointer";
import {
  type StructureSize,
  cloneStructure,
  measureStructure,
  nodeReferences,
  partnerBytes,
  partnerListBytes,
  refBytes,
  refListBytes,
} from "./structure-size";

// A strict, bounded RFC 6902 applier for a tree's structure (ADR 019). The document is always a
// validated structure: every value is checked against the schema of the place it goes to before
// it goes there, and every op is counted (nodes, references, bytes, depth, work) before it runs,
// so no op can build what the limits refuse, and what the patch did not touch is never walked.
// Every change in place is logged with how to take it back, so a refused patch leaves the
// structure exactly as it was (issue 22): undoing costs what the patch did, not the tree's size.

/** What lives at a place in the structure. */
type Kind =
  | "node"
  | "nodes"
  | "partners"
  | "partner"
  | "refs"
  | "ref"
  | "person"
  | "id"
  | "parentType"
  | "partnerType"
  | "hidden";

const NODE_FIELDS: Record<string, Kind> = {
  person: "person",
  partners: "partners",
  children: "nodes",
  parentType: "parentType",
  parents: "refs",
  adoptiveParents: "refs",
  hidden: "hidden",
};
const FIELDS: Partial<Record<Kind, Record<string, Kind>>> = {
  node: NODE_FIELDS,
  partner: { type: "partnerType", people: "refs" },
  ref: { _id: "id" },
  person: { _id: "id" },
};
const ELEMENT: Partial<Record<Kind, Kind>> = { nodes: "node", partners: "partner", refs: "ref" };
/** What `remove` leaves in a field, as a whole save without that field would store. */
const DEFAULTS: Partial<Record<string, () => unknown>> = {
  person: () => null,
  partners: () => [],
  children: () => [],
  parentType: () => "NONE",
  parents: () => [],
  adoptiveParents: () => [],
  hidden: () => false,
  type: () => "PARTNER",
  people: () => [],
};

const SCHEMAS: Record<Kind, z.ZodType> = {
  node: treeNode,
  nodes: z.array(treeNode),
  partners: z.array(partnerEntry).max(TREE_LIMITS.maxPeoplePerList),
  partner: partnerEntry,
  refs: z.array(personRef).max(TREE_LIMITS.maxPeoplePerList),
  ref: personRef,
  person: personRef.nullable(),
  id: objectId,
  parentType,
  partnerType,
  hidden: z.boolean(),
};

/** The size of one value of a kind, as the limits count it. */
type Size = Pick<StructureSize, "nodes" | "references" | "bytes" | "height" | "maxNodeReferences">;
const flat = (references: number, bytes: number): Size => ({
  nodes: 0,
  references,
  bytes,
  height: 0,
  maxNodeReferences: 0,
});

/** The running totals of the structure being patched. */
export interface StructureTotals {
  nodes: number;
  references: number;
  bytes: number;
}

/** A place in the structure a pointer names. */
interface Slot {
  /** The object or list holding the value; the document for the root. */
  container: Record<string, unknown> | unknown[];
  /** A field name, a list index, or "-" (the end of a list, for an add). */
  key: string | number;
  kind: Kind;
  value: unknown;
  /** The node whose own fields hold the place (for the per-node reference count). */
  owner: TreeNode;
  /** The generation a node put here would have (for a list of nodes: its elements'). */
  generation: number;
}

export interface AppliedPatch {
  data: TreeNode;
  totals: StructureTotals;
  /** Person ids the patch's own values brought in (copies and moves only repeat ids already held). */
  newIds: Set<string>;
}

const PAST_END = "a list index in its path is past the end of the list";
const NOT_FOUND = "its path is not in the tree";
const FROM_NOT_FOUND = "its from path is not in the tree";
const WORK_TEXT = `A JSON Patch can walk at most ${TREE_PATCH_LIMITS.maxWork} nodes and references in all; send the whole {data} instead`;

class PatchRun {
  private work = 0;
  private index = 0;
  private operation: JsonPatchOperation | undefined;
  /** How to take back each change made in place so far, oldest first. */
  private readonly undo: (() => void)[] = [];
  readonly newIds = new Set<string>();
  readonly doc: { data: TreeNode };
  readonly totals: StructureTotals;
  private readonly bounds: StructureTotals & { depth: number };

  constructor(
    root: TreeNode,
    stored: StructureSize,
    private readonly touch?: (node: TreeNode) => void,
  ) {
    this.doc = { data: root };
    this.totals = { nodes: stored.nodes, references: stored.references, bytes: stored.bytes };
    // A tree stored over a limit (before the limit existed) may be trimmed: the bound is the
    // limit or what is stored, whichever is larger (ADR 019).
    this.bounds = {
      nodes: Math.max(TREE_LIMITS.maxNodes, stored.nodes),
      references: Math.max(TREE_LIMITS.maxReferences, stored.references),
      bytes: Math.max(TREE_LIMITS.maxBytes, stored.bytes),
      depth: Math.max(TREE_LIMITS.maxDepth, stored.height),
    };
  }

  /** Applies `operations` in order; on any error takes back every change, newest first, and throws it. */
  run(operations: readonly JsonPatchOperation[]): void {
    try {
      operations.forEach((operation, index) => {
        this.index = index;
        this.operation = operation;
        this.apply(operation);
      });
    } catch (error) {
      for (let undo = this.undo.pop(); undo; undo = this.undo.pop()) undo();
      throw error;
    }
  }

  /** Sets a field, logging how to put back what it held (or that it held nothing). */
  private setField(container: Record<string, unknown>, key: string, value: unknown): void {
    const had = Object.hasOwn(container, key);
    const old = container[key];
    container[key] = value;
    this.undo.push(() => {
      if (had) container[key] = old;
      else delete container[key];
    });
  }

  private describe(): string {
    const op = this.operation;
    if (!op) return "";
    return op.from === undefined ? `${op.op} ${op.path}` : `${op.op} ${op.from} → ${op.path}`;
  }

  fail(reason: string): never {
    throw new ApiError(
      422,
      `Operation ${this.index} (${this.describe()}) cannot be applied: ${reason}`,
    );
  }

  private overLimit(text: string): never {
    throw new ApiError(
      422,
      `Operation ${this.index} (${this.describe()}) would pass a limit: ${text}`,
    );
  }

  private charge(units: number): void {
    this.work += units;
    if (this.work > TREE_PATCH_LIMITS.maxWork) this.overLimit(WORK_TEXT);
  }

  private apply(op: JsonPatchOperation): void {
    const path = this.tokens(op.path, NOT_FOUND);
    switch (op.op) {
      case "add":
      case "replace": {
        const slot = this.resolve(path, op.op === "add", NOT_FOUND);
        if (op.op === "replace" && slot.key === "-") this.fail(NOT_FOUND);
        const value = this.parseValue(slot, op.value, path);
        const size = this.sizeOf(slot.kind, value, true);
        this.place(slot, op.op === "add", size, () => value);
        return;
      }
      case "remove": {
        const slot = this.resolve(path, false, NOT_FOUND);
        this.remove(slot);
        return;
      }
      case "test": {
        const slot = this.resolve(path, false, NOT_FOUND);
        if (!this.equal(slot.value, op.value)) {
          this.fail("its test failed: the tree does not hold that value there");
        }
        return;
      }
      case "copy":
      case "move": {
        const from = this.tokens(op.from ?? "", FROM_NOT_FOUND);
        const source = this.resolve(from, false, FROM_NOT_FOUND);
        if (op.op === "move") {
          if (isProperPrefix(from, path)) {
            this.fail(
              "its path is inside its from path: nothing can be moved into itself (RFC 6902, 4.4)",
            );
          }
          if (from.length === path.length && from.every((token, i) => token === path[i])) return;
          const { value, size } = this.remove(source);
          const target = this.resolve(path, true, NOT_FOUND);
          const placed = this.convert(source.kind, target, value, size);
          this.place(target, true, placed.size, () => placed.value);
          return;
        }
        const target = this.resolve(path, true, NOT_FOUND);
        // counted before anything is copied: a copy past a limit allocates nothing
        const size = this.sizeOf(source.kind, source.value, false);
        if (source.kind === target.kind) {
          this.place(target, true, size, () => this.clone(source.kind, source.value));
        } else {
          const placed = this.convert(source.kind, target, source.value, size);
          this.place(target, true, placed.size, () => placed.value);
        }
        return;
      }
    }
  }

  private tokens(pointer: string, notFound: string): string[] {
    const tokens = pointerTokens(pointer);
    if (!tokens || tokens[0] !== "data") this.fail(notFound);
    return tokens;
  }

  /**
   * Walks `tokens` by the structure's schema. Only the fields of a node, partner row or reference
   * and RFC 6901 list indexes are places; `-` only as the last step of an add, and an index one past
   * the end only there.
   */
  private resolve(tokens: readonly string[], forAdd: boolean, notFound: string): Slot {
    let slot: Slot = {
      container: this.doc,
      key: "data",
      kind: "node",
      value: this.doc.data,
      owner: this.doc.data,
      generation: 1,
    };
    this.touch?.(this.doc.data);
    for (let i = 1; i < tokens.length; i += 1) {
      const token = tokens[i]!;
      const last = i === tokens.length - 1;
      const { kind, value } = slot;
      const element = ELEMENT[kind];
      if (element) {
        const list = value as unknown[];
        const index = arrayIndex(token, last && forAdd);
        if (index === null) {
          this.fail(
            token === "-"
              ? "- (the end of a list) can only end the path of an add, a move or a copy"
              : "a list index in its path must be 0 or digits without a leading zero (RFC 6901)",
          );
        }
        if (index !== "-" && index >= list.length) {
          if (!(last && forAdd && index === list.length)) {
            this.fail(last && forAdd ? PAST_END : notFound);
          }
        }
        slot = {
          container: list,
          key: index,
          kind: element,
          value: index === "-" ? undefined : list[index],
          owner: slot.owner,
          generation: kind === "nodes" ? slot.generation + 1 : slot.generation,
        };
      } else {
        const fields = FIELDS[kind];
        if (
          !fields ||
          value === null ||
          typeof value !== "object" ||
          !Object.hasOwn(fields, token)
        ) {
          this.fail(notFound);
        }
        const owner = kind === "node" ? (value as TreeNode) : slot.owner;
        if (kind === "node") this.touch?.(owner);
        slot = {
          container: value as Record<string, unknown>,
          key: token,
          kind: fields[token]!,
          value: (value as Record<string, unknown>)[token],
          owner,
          generation: slot.generation,
        };
      }
    }
    return slot;
  }

  /** A sent value checked against the schema of its place; nodes are measured before zod sees them. */
  private parseValue(slot: Slot, value: unknown, tokens: readonly string[]): unknown {
    if (slot.kind === "node" || slot.kind === "nodes") {
      const first = slot.kind === "nodes" ? slot.generation + 1 : slot.generation;
      const roots = slot.kind === "nodes" && Array.isArray(value) ? (value as unknown[]) : [value];
      const limits = {
        ...TREE_LIMITS,
        maxNodes: this.bounds.nodes,
        maxReferences: this.bounds.references,
        maxDepth: this.bounds.depth,
      };
      let nodes = 0;
      let references = 0;
      for (const root of roots) {
        const measured = measureRaw(root, first, limits);
        this.charge(measured.nodes + measured.references);
        nodes += measured.nodes;
        references += measured.references;
        if (measured.over) this.overLimit(LIMIT_TEXT[measured.over]);
        if (nodes > this.bounds.nodes) this.overLimit(LIMIT_TEXT.nodes);
        if (references > this.bounds.references) this.overLimit(LIMIT_TEXT.references);
      }
    }
    const parsed = SCHEMAS[slot.kind].safeParse(value);
    if (!parsed.success) {
      const prefix = tokens.map((token) => (/^\d+$/.test(token) ? Number(token) : token));
      throw new z.ZodError(
        parsed.error.issues.map((issue) => ({ ...issue, path: [...prefix, ...issue.path] })),
      );
    }
    return parsed.data;
  }

  /** Measures a value of a kind (charging the walk); `fromRequest` collects the ids it brings in. */
  private sizeOf(kind: Kind, value: unknown, fromRequest: boolean): Size {
    const ids = fromRequest ? this.newIds : undefined;
    const refs = (list: readonly PersonRef[]) => {
      if (ids) for (const ref of list) ids.add(ref._id);
    };
    switch (kind) {
      case "node":
      case "nodes": {
        const roots = kind === "node" ? [value as TreeNode] : (value as TreeNode[]);
        const total: Size = { nodes: 0, references: 0, bytes: 0, height: 0, maxNodeReferences: 0 };
        if (kind === "nodes") total.bytes = 2 + Math.max(0, roots.length - 1);
        for (const root of roots) {
          let walked = 0;
          const size = measureStructure(root, (node) => {
            walked += 1 + nodeReferences(node);
            if (walked > 4096) {
              this.charge(walked);
              walked = 0;
            }
            if (ids) {
              if (node.person) ids.add(node.person._id);
              for (const partner of node.partners) refs(partner.people);
              refs(node.parents);
              refs(node.adoptiveParents);
            }
          });
          this.charge(walked);
          total.nodes += size.nodes;
          total.references += size.references;
          total.bytes += size.bytes;
          total.height = Math.max(total.height, size.height);
          total.maxNodeReferences = Math.max(total.maxNodeReferences, size.maxNodeReferences);
        }
        return total;
      }
      case "partners": {
        const partners = value as PartnerEntry[];
        let references = 0;
        for (const partner of partners) {
          references += partner.people.length;
          refs(partner.people);
        }
        this.charge(1 + partners.length + references);
        return flat(references, partnerListBytes(partners));
      }
      case "partner": {
        const partner = value as PartnerEntry;
        refs(partner.people);
        this.charge(1 + partner.people.length);
        return flat(partner.people.length, partnerBytes(partner));
      }
      case "refs": {
        const list = value as PersonRef[];
        refs(list);
        this.charge(1 + list.length);
        return flat(list.length, refListBytes(list));
      }
      case "ref":
      case "person": {
        this.charge(1);
        if (value === null) return flat(0, 4);
        refs([value as PersonRef]);
        return flat(1, refBytes(value as PersonRef));
      }
      case "id":
        this.charge(1);
        if (ids) ids.add(value as string);
        return flat(0, (value as string).length + 2);
      case "parentType":
      case "partnerType":
        this.charge(1);
        return flat(0, (value as string).length + 2);
      case "hidden":
        this.charge(1);
        return flat(0, value ? 4 : 5);
    }
  }

  /** A copy of a stored value (never shared with the place it came from). */
  private clone(kind: Kind, value: unknown): unknown {
    if (kind === "node") return cloneStructure(value as TreeNode);
    if (kind === "nodes") return (value as TreeNode[]).map(cloneStructure);
    return value !== null && typeof value === "object" ? structuredClone(value) : value;
  }

  /** A value moved or copied to a place of another kind, checked against that place's schema. */
  private convert(
    kind: Kind,
    target: Slot,
    value: unknown,
    size: Size,
  ): { value: unknown; size: Size } {
    if (kind === target.kind) return { value, size };
    const parsed = SCHEMAS[target.kind].safeParse(value);
    if (!parsed.success) this.fail(`what its from path holds cannot go where its path points`);
    return { value: parsed.data, size: this.sizeOf(target.kind, parsed.data, false) };
  }

  /** The size of what is at a place now (for a replace), charging the walk. */
  private sizeAt(slot: Slot): Size {
    if (slot.key === "-" || slot.value === undefined) return flat(0, 0);
    if (slot.container === this.doc) {
      return { ...this.totals, height: 0, maxNodeReferences: 0 };
    }
    return this.sizeOf(slot.kind, slot.value, false);
  }

  /**
   * Puts a value of `size` at `slot` (inserting into a list for an add, replacing otherwise), after
   * checking every limit it could pass; `produce` makes the value only then.
   */
  private place(slot: Slot, add: boolean, size: Size, produce: () => unknown): void {
    const inserting = add && Array.isArray(slot.container);
    const old = inserting ? flat(0, 0) : this.sizeAt(slot);
    if (slot.kind === "node" || slot.kind === "nodes") {
      const first = slot.kind === "nodes" ? slot.generation + 1 : slot.generation;
      if (size.height > 0 && first + size.height - 1 > this.bounds.depth) {
        this.overLimit(LIMIT_TEXT.depth);
      }
      if (size.maxNodeReferences > TREE_LIMITS.maxReferencesPerNode) {
        this.overLimit(LIMIT_TEXT.referencesPerNode);
      }
    } else {
      if (inserting && (slot.container as unknown[]).length >= TREE_LIMITS.maxPeoplePerList) {
        this.overLimit(LIMIT_TEXT.perList);
      }
      const owner = slot.owner;
      this.charge(1 + owner.partners.length);
      const before = nodeReferences(owner);
      const after = before - old.references + size.references;
      if (after > TREE_LIMITS.maxReferencesPerNode && after > before) {
        this.overLimit(LIMIT_TEXT.referencesPerNode);
      }
    }
    const comma = inserting && (slot.container as unknown[]).length > 0 ? 1 : 0;
    const next = {
      nodes: this.totals.nodes - old.nodes + size.nodes,
      references: this.totals.references - old.references + size.references,
      bytes: this.totals.bytes - old.bytes + size.bytes + comma,
    };
    if (next.nodes > this.bounds.nodes) this.overLimit(LIMIT_TEXT.nodes);
    if (next.references > this.bounds.references) this.overLimit(LIMIT_TEXT.references);
    if (next.bytes > this.bounds.bytes) this.overLimit(LIMIT_TEXT.bytes);
    const value = produce();
    if (slot.container === this.doc) {
      const old = this.doc.data;
      this.doc.data = value as TreeNode;
      this.undo.push(() => {
        this.doc.data = old;
      });
    } else if (Array.isArray(slot.container)) {
      const list = slot.container;
      if (inserting) {
        const index = slot.key === "-" ? list.length : (slot.key as number);
        list.splice(index, 0, value);
        this.undo.push(() => list.splice(index, 1));
      } else {
        const index = slot.key as number;
        const old = list[index];
        list[index] = value;
        this.undo.push(() => {
          list[index] = old;
        });
      }
    } else this.setField(slot.container, slot.key as string, value);
    Object.assign(this.totals, next);
  }

  /** Removes what is at a place (a field goes back to its default) and answers it with its size. */
  private remove(slot: Slot): { value: unknown; size: Size } {
    if (slot.container === this.doc)
      this.fail("the root node cannot be removed; replace it instead");
    const size = this.sizeAt(slot);
    const value = slot.value;
    if (Array.isArray(slot.container)) {
      const list = slot.container;
      const index = slot.key as number;
      const [removed] = list.splice(index, 1);
      this.undo.push(() => list.splice(index, 0, removed));
      const comma = list.length > 0 ? 1 : 0;
      this.totals.bytes -= size.bytes + comma;
    } else {
      const fallback = DEFAULTS[slot.key as string];
      if (!fallback) this.fail("a person reference cannot lose its _id");
      const empty = fallback();
      // logged before it is measured: the measure is charged, and may end the patch
      this.setField(slot.container, slot.key as string, empty);
      this.totals.bytes += this.sizeOf(slot.kind, empty, false).bytes - size.bytes;
    }
    this.totals.nodes -= size.nodes;
    this.totals.references -= size.references;
    return { value, size };
  }

  /** JSON equality (RFC 6902 4.6), without recursion, charging the walk. */
  private equal(a: unknown, b: unknown): boolean {
    const stack: [unknown, unknown][] = [[a, b]];
    for (let pair = stack.pop(); pair; pair = stack.pop()) {
      const [x, y] = pair;
      this.charge(1);
      if (x === y) continue;
      if (x === null || y === null || typeof x !== "object" || typeof y !== "object") return false;
      if (Array.isArray(x) !== Array.isArray(y)) return false;
      if (Array.isArray(x)) {
        const ys = y as unknown[];
        if (x.length !== ys.length) return false;
        x.forEach((item, i) => stack.push([item, ys[i]]));
        continue;
      }
      const xKeys = Object.keys(x);
      const yObject = y as Record<string, unknown>;
      if (xKeys.length !== Object.keys(yObject).length) return false;
      for (const key of xKeys) {
        if (!Object.hasOwn(yObject, key)) return false;
        stack.push([(x as Record<string, unknown>)[key], yObject[key]]);
      }
    }
    return true;
  }
}

/**
 * Applies validated RFC 6902 operations to a tree's validated structure `root` (changed in
 * place when the patch applies; as it was when it is refused, below) of size `stored`, op by op,
 * each checked and counted before it runs. Answers the new structure, its totals and the person ids the patch's values brought in.
 * An op that cannot apply is 422 naming it; the first op past a limit is 422 naming the limit; a
 * value the schema refuses is 400 with its path, as in a whole save. `touch` is told of every
 * node a path walks through, before its op changes anything (the nodes whose own fields or
 * lists an op can change: what it did not walk through it did not change).
 *
 * All or nothing: when it throws (any error: a limit, a path not in the tree, a failed `test`, a
 * move into its own child, a value the schema refuses), every change the patch made in place has
 * been taken back, newest first, so every object and list reachable from `root` is as it was
 * before the call, the same node objects in the same places, and `root` may be kept for the next
 * patch as it is. Taking back costs what the patch did (an undo log), not the size of the tree.
 * `touch` may have been told of nodes along the paths before the error: for `forgetNodeJson` that
 * is harmless (those nodes' texts are made again; every text kept still matches its node).
 */
export function applyTreePatch(
  root: TreeNode,
  stored: StructureSize,
  operations: readonly JsonPatchOperation[],
  touch?: (node: TreeNode) => void,
): AppliedPatch {
  const run = new PatchRun(root, stored, touch);
  run.run(operations);
  return { data: run.doc.data, totals: run.totals, newIds: run.newIds };
}
