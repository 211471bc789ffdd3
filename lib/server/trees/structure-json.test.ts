import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonPatchOperation, TreeNode } from "@/lib/schemas/tree";
import { applyTreePatch } from "./apply-tree-patch";
import {
  type ChunkState,
  type ChunkedWrite,
  chunkedWrite,
  forgetNodeJson,
  readStoredParts,
  structureJson,
} from "./structure-json";
import { measureStructure } from "./structure-size";

/** A tree of `count` nodes, breadth first, `branching` children each, with references. */
function legacy(count: number, branching = 3): TreeNode {
  const all: TreeNode[] = [];
  for (let i = 0; i < count; i++) {
    all.push({
      person: i % 5 === 0 ? null : { _id: `p${i}` },
      partners: i % 3 ? [{ type: "MARRIED", people: [{ _id: `q${i}` }] }] : [],
      children: [],
      parentType: "NONE",
      parents: i % 2 ? [{ _id: `p${i + 1}` }] : [],
      adoptiveParents: [],
      hidden: i % 6 === 0,
    });
    if (i > 0) all[Math.floor((i - 1) / branching)]!.children.push(all[i]!);
  }
  return all[0]!;
}

/** The JSON Pointer of every node of `root`, the root first. */
function nodePaths(root: TreeNode): string[] {
  const paths: string[] = [];
  const stack: [TreeNode, string][] = [[root, "/data"]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, path] = entry;
    paths.push(path);
    node.children.forEach((child, i) => stack.push([child, `${path}/children/${i}`]));
  }
  return paths;
}

type Edit = { kind: number; at: number; to: number };

/** One op of a kind at nodes picked by index among the tree's current nodes. */
function operation(root: TreeNode, edit: Edit): JsonPatchOperation | null {
  const paths = nodePaths(root);
  const at = paths[edit.at % paths.length]!;
  const to = paths[edit.to % paths.length]!;
  switch (edit.kind % 7) {
    case 0:
      return { op: "add", path: `${at}/children/-`, value: {} };
    case 1:
      return at === "/data" ? null : { op: "remove", path: at };
    case 2:
      return { op: "replace", path: `${at}/hidden`, value: edit.to % 2 === 0 };
    case 3:
      return { op: "add", path: `${at}/parents/0`, value: { _id: `n${edit.to}` } };
    case 4:
      // a move into its own subtree is refused (422), which the run skips
      return at === "/data" ? null : { op: "move", from: at, path: `${to}/children/0` };
    case 5:
      return { op: "copy", from: at, path: `${to}/children/-` };
    default:
      return { op: "replace", path: `${at}/person`, value: { _id: `r${edit.to}` } };
  }
}

describe("structureJson", () => {
  it("is JSON.stringify of a structure, and stays so across patches applied in place", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.record({ kind: fc.nat(), at: fc.nat(), to: fc.nat() }), { maxLength: 12 }),
        (count, edits) => {
          let root = legacy(count);
          expect(structureJson(root)).toBe(JSON.stringify(root));
          for (const edit of edits) {
            const op = operation(root, edit);
            if (!op) continue;
            try {
              root = applyTreePatch(root, measureStructure(root), [op], forgetNodeJson).data;
            } catch {
              // refused ops may have changed nothing or part: the save drops such a structure
              root = JSON.parse(JSON.stringify(root)) as TreeNode;
            }
            expect(structureJson(root)).toBe(JSON.stringify(root));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("leaves out fields holding undefined, as JSON.stringify does", () => {
    const root = { ...legacy(3), extra: undefined } as unknown as TreeNode;
    expect(structureJson(root)).toBe(JSON.stringify(root));
  });

  it("walks a structure deeper than the stack", () => {
    const root = legacy(1);
    let node = root;
    for (let i = 0; i < 20_000; i++) {
      const child = legacy(1);
      node.children.push(child);
      node = child;
    }
    expect(structureJson(root).length).toBe(measureStructure(root).bytes);
  });
});

/** A tree's stored parts as the save keeps them: "Tree"."data" and its chunks by key. */
class Store {
  root = "";
  chunks = new Map<number, string>();

  apply(write: ChunkedWrite): void {
    if (write.replaceAll) this.chunks.clear();
    for (const key of write.drop) this.chunks.delete(key);
    for (const chunk of write.put) this.chunks.set(chunk.key, chunk.text);
    if (write.root !== null) this.root = write.root;
    write.commit();
  }

  /** The whole text, each placeholder replaced by its chunk (as heirloom_tree_text does). */
  text(): string {
    const used = new Set<number>();
    const expand = (text: string): string =>
      text.replace(/\{"\$chunk":(\d+)\}/g, (_mark, key: string) => {
        const chunk = this.chunks.get(Number(key));
        if (chunk === undefined || used.has(Number(key))) throw new Error(`chunk ${key}`);
        used.add(Number(key));
        return expand(chunk);
      });
    const whole = expand(this.root);
    // every stored chunk is in the structure: none is left behind
    expect([...this.chunks.keys()].sort()).toEqual([...used].sort());
    return whole;
  }

  read(): { data: TreeNode; state: ChunkState } {
    return readStoredParts({
      root: this.root,
      chunks: [...this.chunks].map(([key, text]) => ({ key, text })),
    });
  }
}

/** Small chunks, so that trees of some dozens of nodes have several. */
const SMALL = { minBytes: 300, maxBytes: 900, splitBytes: 60 };

describe("chunkedWrite", () => {
  it("stores what JSON.stringify writes, across patches, saves and reads back", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 80 }),
        fc.array(
          fc.record({ kind: fc.nat(), at: fc.nat(), to: fc.nat(), reread: fc.boolean() }),
          { maxLength: 12 },
        ),
        (count, edits) => {
          let root = legacy(count);
          const store = new Store();
          let write = chunkedWrite(root, null, SMALL);
          store.apply(write);
          let state = write.state;
          expect(store.text()).toBe(JSON.stringify(root));
          expect(write.bytes).toBe(JSON.stringify(root).length);
          for (const edit of edits) {
            const op = operation(root, edit);
            if (!op) continue;
            if (edit.reread) ({ data: root, state } = store.read());
            try {
              root = applyTreePatch(root, measureStructure(root), [op], forgetNodeJson).data;
            } catch {
              // a refused patch: the save drops the structure and reads it again
              ({ data: root, state } = store.read());
              continue;
            }
            write = chunkedWrite(root, state, SMALL);
            store.apply(write);
            state = write.state;
            expect(store.text()).toBe(JSON.stringify(root));
            expect(write.bytes).toBe(JSON.stringify(root).length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("writes one chunk for a child added deep in a large tree, and nothing for no change", () => {
    // a deep legacy: 400 generations of one Sim and a partner each
    const root = legacy(1);
    let node = root;
    for (let i = 0; i < 400; i++) {
      const child = legacy(1);
      child.person = { _id: `generation-${i}` };
      child.partners = [{ type: "MARRIED", people: [{ _id: `partner-${i}` }] }];
      node.children.push(child);
      node = child;
    }
    const store = new Store();
    const first = chunkedWrite(root, null, SMALL);
    store.apply(first);
    expect(first.put.length).toBeGreaterThan(50);

    const again = chunkedWrite(root, first.state, SMALL);
    expect(again.root).toBeNull();
    expect(again.put).toEqual([]);
    expect(again.drop).toEqual([]);

    const path = `/data${"/children/0".repeat(300)}/children/-`;
    const patched = applyTreePatch(
      root,
      measureStructure(root),
      [{ op: "add", path, value: {} }],
      forgetNodeJson,
    );
    const write = chunkedWrite(patched.data, again.state, SMALL);
    expect(write.root).toBeNull();
    // the chunk of the parent, and a new one if that chunk grew past minBytes
    expect(write.put.length).toBeGreaterThanOrEqual(1);
    expect(write.put.length).toBeLessThanOrEqual(2);
    for (const chunk of write.put) expect(chunk.text.length).toBeLessThan(SMALL.maxBytes);
    store.apply(write);
    expect(store.text()).toBe(JSON.stringify(patched.data));

    // read back with its chunks: the same chunks, and nothing to write
    const read = store.read();
    expect(chunkedWrite(read.data, read.state, SMALL).put).toEqual([]);
  });

  it("puts the largest of many small children in chunks of their own", () => {
    const root = legacy(1);
    for (let i = 0; i < 20; i++) {
      const child = legacy(1);
      child.parents = [{ _id: `parent-${i}` }, { _id: `other-parent-${i}` }];
      child.partners = [{ type: "MARRIED", people: [{ _id: `partner-${i}` }] }];
      root.children.push(child);
    }
    expect(JSON.stringify(root.children[0]).length).toBeLessThan(SMALL.minBytes);
    expect(JSON.stringify(root).length).toBeGreaterThan(SMALL.maxBytes * 2);
    const write = chunkedWrite(root, null, SMALL);
    expect(write.root!.length).toBeLessThanOrEqual(SMALL.maxBytes);
    const store = new Store();
    store.apply(write);
    expect(store.text()).toBe(JSON.stringify(root));
  });
});
