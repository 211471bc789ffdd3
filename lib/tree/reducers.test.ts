import { describe, expect, it } from "vitest";
import { emptyNode } from "@/lib/tree/empty-node";
import {
  addChild,
  countNodes,
  deleteNode,
  findNode,
  mapPersonRefs,
  mergeNode,
  pathFromKey,
  pathKey,
  peopleInNode,
  removePersonEverywhere,
} from "./reducers";
import { deepFreeze, node, partners } from "./test-trees";

/** root(a) → [b → [d, e], c → [f]] */
function family() {
  return deepFreeze(
    node("a", [node("b", [node("d"), node("e")]), node("c", [node("f")])], {
      partners: partners(["MARRIED", "m"]),
    }),
  );
}

describe("paths", () => {
  it("round-trips a path through its key", () => {
    expect(pathKey([])).toBe("");
    expect(pathKey([0, 2, 1])).toBe("0.2.1");
    expect(pathFromKey("")).toEqual([]);
    expect(pathFromKey("0.2.1")).toEqual([0, 2, 1]);
  });

  it("finds nodes by path and nothing outside the tree", () => {
    const root = family();
    expect(findNode(root, [])).toBe(root);
    expect(findNode(root, [0, 1])?.person?._id).toBe("e");
    expect(findNode(root, [1, 0])?.person?._id).toBe("f");
    expect(findNode(root, [2])).toBeUndefined();
    expect(findNode(root, [0, 1, 0])).toBeUndefined();
  });

  it("counts nodes", () => {
    expect(countNodes(family())).toBe(6);
    expect(countNodes(emptyNode())).toBe(1);
  });

  it("lists the people of a node, its person first", () => {
    const one = node("a", [], { partners: partners(["MARRIED", "m"], ["ABDUCTION", "x", "y"]) });
    expect(peopleInNode(one)).toEqual(["a", "m", "x", "y"]);
    expect(peopleInNode(emptyNode())).toEqual([]);
  });
});

describe("addChild", () => {
  it("appends an empty node and copies only the path to it", () => {
    const root = family();
    const next = addChild(root, [0]);
    expect(next).not.toBe(root);
    expect(next.children[0]!.children.map((child) => child.person?._id ?? null)).toEqual([
      "d",
      "e",
      null,
    ]);
    expect(next.children[0]!.children[2]).toEqual(emptyNode());
    // Untouched subtrees keep their identity, so memoized nodes do not re-render.
    expect(next.children[1]).toBe(root.children[1]);
    expect(next.children[0]!.children[0]).toBe(root.children[0]!.children[0]);
    expect(next.partners).toBe(root.partners);
    expect(countNodes(root)).toBe(6);
  });

  it("appends to the root and to a leaf", () => {
    expect(addChild(family(), []).children).toHaveLength(3);
    expect(findNode(addChild(family(), [1, 0]), [1, 0, 0])).toEqual(emptyNode());
  });

  it("appends the given child", () => {
    const child = node("z");
    expect(findNode(addChild(family(), [1]), [1, 1])).toEqual(emptyNode());
    expect(findNode(addChild(family(), [1], child), [1, 1])).toBe(child);
  });

  it("returns the same tree for a path that does not exist", () => {
    const root = family();
    expect(addChild(root, [5])).toBe(root);
    expect(addChild(root, [0, 0, 3])).toBe(root);
  });
});

describe("deleteNode", () => {
  it("removes a node with all its children", () => {
    const root = family();
    const next = deleteNode(root, [0]);
    expect(next.children.map((child) => child.person?._id)).toEqual(["c"]);
    expect(next.children[0]).toBe(root.children[1]);
    expect(countNodes(next)).toBe(3);
    expect(countNodes(root)).toBe(6);
  });

  it("removes a leaf and keeps its siblings", () => {
    const root = family();
    const next = deleteNode(root, [0, 0]);
    expect(next.children[0]!.children.map((child) => child.person?._id)).toEqual(["e"]);
    expect(next.children[0]!.children[0]).toBe(root.children[0]!.children[1]);
    expect(next.children[1]).toBe(root.children[1]);
  });

  it("leaves an empty root when the root is deleted", () => {
    expect(deleteNode(family(), [])).toEqual(emptyNode());
  });

  it("returns the same tree for a path that does not exist", () => {
    const root = family();
    expect(deleteNode(root, [4])).toBe(root);
    expect(deleteNode(root, [3, 0])).toBe(root);
  });
});

describe("mergeNode", () => {
  it("sets the person and keeps everything else", () => {
    const root = family();
    const next = mergeNode(root, [1], { person: { _id: "q" } });
    const merged = findNode(next, [1])!;
    expect(merged.person).toEqual({ _id: "q" });
    expect(merged.children).toBe(root.children[1]!.children);
    expect(next.children[0]).toBe(root.children[0]);
  });

  it("replaces the partner rows", () => {
    const rows = partners(["EX_PARTNER", "x"], ["MARRIED", "y", "z"]);
    const next = mergeNode(family(), [], { partners: rows });
    expect(next.partners).toBe(rows);
    expect(next.person).toEqual({ _id: "a" });
  });

  it("merges the parent details", () => {
    const next = mergeNode(family(), [0, 1], {
      parentType: "ABDUCTION",
      parents: [{ _id: "b" }, { _id: "alien" }],
      adoptiveParents: [{ _id: "m" }],
    });
    expect(findNode(next, [0, 1])).toEqual({
      ...emptyNode(),
      person: { _id: "e" },
      parentType: "ABDUCTION",
      parents: [{ _id: "b" }, { _id: "alien" }],
      adoptiveParents: [{ _id: "m" }],
    });
  });

  it("returns the same tree when nothing changes", () => {
    const root = family();
    const target = root.children[0]!;
    expect(mergeNode(root, [0], { person: target.person, parents: target.parents })).toBe(root);
    expect(mergeNode(root, [0], {})).toBe(root);
    expect(mergeNode(root, [9], { person: { _id: "q" } })).toBe(root);
  });
});

describe("removePersonEverywhere", () => {
  it("removes a person from nodes, partner rows and parent lists", () => {
    const root = deepFreeze(
      node(
        "a",
        [
          node("b", [], { parents: [{ _id: "a" }, { _id: "m" }] }),
          node("c", [node("d", [], { adoptiveParents: [{ _id: "m" }, { _id: "c" }] })], {
            partners: partners(["PARTNER", "m", "n"]),
          }),
          node("m"),
        ],
        { partners: partners(["MARRIED", "m"], ["EX_PARTNER", "x"]) },
      ),
    );
    const next = removePersonEverywhere(root, "m");
    expect(next.partners).toEqual(partners(["EX_PARTNER", "x"]));
    expect(next.children[0]!.parents).toEqual([{ _id: "a" }]);
    expect(next.children[1]!.partners).toEqual(partners(["PARTNER", "n"]));
    expect(next.children[1]!.children[0]!.adoptiveParents).toEqual([{ _id: "c" }]);
    expect(next.children[2]!.person).toBeNull();
    expect(JSON.stringify(next)).not.toContain('"m"');
  });

  it("keeps the identity of subtrees that never mention the person", () => {
    const root = family();
    const next = removePersonEverywhere(root, "f");
    expect(next.children[0]).toBe(root.children[0]);
    expect(next.children[1]!.children[0]!.person).toBeNull();
    expect(next.partners).toBe(root.partners);
  });

  it("returns the same tree when the person is nowhere", () => {
    const root = family();
    expect(removePersonEverywhere(root, "nobody")).toBe(root);
  });
});

describe("mapPersonRefs", () => {
  it("maps every kind of reference and keeps the rest of each node", () => {
    const root = deepFreeze(
      node("a", [node("b", [], { parents: [{ _id: "a" }, { _id: "m" }], hidden: true })], {
        partners: partners(["MARRIED", "m"], ["ABDUCTION", "x", "y"]),
        adoptiveParents: [{ _id: "z" }],
        parentType: "CLONE",
      }),
    );
    const mapped = mapPersonRefs(root, ({ _id }) => ({ _id: `new-${_id}` }));
    expect(mapped).toEqual(
      node(
        "new-a",
        [node("new-b", [], { parents: [{ _id: "new-a" }, { _id: "new-m" }], hidden: true })],
        {
          partners: partners(["MARRIED", "new-m"], ["ABDUCTION", "new-x", "new-y"]),
          adoptiveParents: [{ _id: "new-z" }],
          parentType: "CLONE",
        },
      ),
    );
  });

  it("copies a tree deeper than the call stack allows", () => {
    let root = node("p0");
    for (let depth = 1; depth < 100_000; depth += 1) root = node(`p${depth}`, [root]);
    const mapped = mapPersonRefs(root, ({ _id }) => ({ _id: `new-${_id}` }));
    expect(countNodes(mapped)).toBe(100_000);
    let deepest = mapped;
    while (deepest.children[0]) deepest = deepest.children[0];
    expect(deepest.person?._id).toBe("new-p0");
  });
});
