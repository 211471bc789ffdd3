import fs from "node:fs";
import { describe, expect, it } from "vitest";
import {
  buildFixtureZip,
  buildPlumTreeZip,
  buildZip,
  FIXTURE_ZIP,
} from "@/tests/fixtures/plumtree/build";
import { TREE_LIMITS } from "@/lib/schemas/tree";
import { parsePlumTreeZip } from "./plumtree";
import { ImportError } from "./types";

const id = (n: number) => `5f1c0a6e2b9d4a0017aa000${n}`;

function refusal(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof ImportError) return error.message;
    throw error;
  }
}

const person = (key: string, extra: Record<string, unknown> = {}) => ({
  _id: key,
  tree: "t1",
  firstName: key,
  lastName: "",
  ...extra,
});
const treeOf = (data: unknown) => ({ _id: "t1", title: "T", description: "", cover: null, data });

describe("parsePlumTreeZip on the hand-built fixture", () => {
  it("matches the committed legacy.zip (rebuild it with make-fixture.ts)", async () => {
    expect(Buffer.from(await buildFixtureZip()).equals(fs.readFileSync(FIXTURE_ZIP))).toBe(true);
  });

  const file = parsePlumTreeZip(fs.readFileSync(FIXTURE_ZIP));

  it("reads the tree's details", () => {
    expect(file.source).toBe("plumtree");
    expect(file.title).toBe("The Goth Legacy");
    expect(file.description).toContain("<script>"); // sanitized on import, not here
    expect(file.sourceTreeId).toBe("5f1c0a6e2b9d4a0017aa0000");
  });

  it("reads every person with their fields", () => {
    expect(file.people.map((p) => `${p.firstName} ${p.lastName}`)).toEqual([
      "Bella Goth",
      "Mortimer Goth",
      "Cassandra Goth",
      "Alexander Goth",
      "Don Lothario",
      "Pollination Technician 9",
      "Gunther Goth",
    ]);
    expect(file.people[0]).toMatchObject({
      key: id(1),
      traits: ["Romantic", "Snob", "Romantic"],
      aspirations: ["Soulmate"],
      lifeStates: ["Sim"],
      custom: [{ title: "Favourite colour", value: "Black" }],
      avatar: "images/avatar/bella.png",
    });
    expect(file.people[5]?.links).toEqual([
      { title: "Also in this tree", treeId: "5f1c0a6e2b9d4a0017aa0000", personId: id(7) },
    ]);
  });

  it("finds images as images/<value> and as images/<basename of value>", () => {
    expect(file.cover).toBe("images/goth-crest.jpg");
    expect(file.people.map((p) => p.avatar)).toEqual([
      "images/avatar/bella.png",
      "images/mortimer.jpg",
      null,
      "images/alexander.jpg",
      null,
      "images/pollination.png",
      null,
    ]);
    expect([...file.images.keys()].sort()).toEqual([
      "images/alexander.jpg",
      "images/avatar/bella.png",
      "images/goth-crest.jpg",
      "images/mortimer.jpg",
      "images/pollination.png",
    ]);
    expect(file.notes).toEqual([
      "The image avatar/lost-forever.png (avatar of Gunther Goth) is not in the archive and was left out",
    ]);
  });

  it("reads the structure with its enums, hidden flag and empty node", () => {
    const root = file.data;
    expect(root.person).toEqual({ _id: id(2) });
    expect(root.partners).toEqual([
      { type: "MARRIED", people: [{ _id: id(1) }] },
      { type: "EX_PARTNER", people: [{ _id: id(5) }] },
    ]);
    expect(root.children.map((c) => [c.person?._id, c.parentType, c.hidden])).toEqual([
      [id(3), "NONE", false],
      [id(4), "CLONE", false],
      [id(7), "ABDUCTION", true],
    ]);
    expect(root.children[1]?.adoptiveParents).toEqual([{ _id: id(1) }]);
    expect(root.children[2]?.partners).toEqual([{ type: "ABDUCTION", people: [{ _id: id(6) }] }]);
    expect(root.children[2]?.children[0]).toEqual({
      person: null,
      partners: [],
      children: [],
      parentType: "NONE",
      parents: [],
      adoptiveParents: [],
      hidden: false,
    });
    expect(Object.keys(root)).not.toContain("_id");
  });
});

describe("parsePlumTreeZip accepts", () => {
  it("missing fields and nulls, with defaults", () => {
    const file = parsePlumTreeZip(
      buildPlumTreeZip(
        { title: null, data: { person: { _id: "a" }, partners: null, parentType: null } },
        [{ _id: "a", avatar: null, traits: null, custom: null, links: null }],
      ),
    );
    expect(file.title).toBe("");
    expect(file.sourceTreeId).toBeNull();
    expect(file.people[0]).toMatchObject({ firstName: "", traits: [], custom: [], links: [] });
    expect(file.data.parentType).toBe("NONE");
  });

  it("data files with a byte-order mark, spaces and trailing semicolons", () => {
    const bytes = buildZip({
      "data/tree.js": '\uFEFF var tree = {"title":"Spaced","data":{}} ;;\n',
      "data/people.js": "const people=[];",
    });
    const file = parsePlumTreeZip(bytes);
    expect([file.title, file.people]).toEqual(["Spaced", []]);
  });
});

describe("parsePlumTreeZip refuses", () => {
  const deep = () => {
    const root: Record<string, unknown> = { person: null };
    let node = root;
    for (let i = 1; i < TREE_LIMITS.maxDepth + 5; i++) {
      const child: Record<string, unknown> = { person: null };
      node.children = [child];
      node = child;
    }
    return root;
  };

  it.each([
    [
      "a structure that refers to people not in people.js",
      treeOf({ person: { _id: "ghost" }, partners: [{ type: "MARRIED", people: [{ _id: "a" }] }] }),
      [person("a")],
      "The tree refers to people who are not in the file: ghost",
    ],
    [
      "a structure nested deeper than the limit",
      treeOf(deep()),
      [],
      `A tree can be at most ${TREE_LIMITS.maxDepth} generations deep`,
    ],
    [
      "an unknown partner type",
      treeOf({ partners: [{ type: "BESTIES", people: [] }] }),
      [],
      'The tree structure has an unknown partner type "BESTIES"',
    ],
    [
      "an unknown parent type",
      treeOf({ parentType: "STORK" }),
      [],
      'The tree structure has an unknown parent type "STORK"',
    ],
    [
      "children that are not a list",
      treeOf({ children: { 0: {} } }),
      [],
      "The tree structure is not valid: children must be a list",
    ],
    ["a tree without data", { title: "x" }, [], "The tree structure is missing or not an object"],
    [
      "a person listed twice",
      treeOf({}),
      [person("a"), person("a")],
      "data/people.js lists the person a twice",
    ],
    [
      "a person without an id",
      treeOf({}),
      [{ firstName: "Nobody" }],
      "data/people.js (person 1) is not valid at _id: Invalid input",
    ],
    [
      "traits that are not a list",
      treeOf({}),
      [person("a", { traits: "Genius" })],
      "data/people.js (person 1) is not valid at traits: Invalid input: expected array, received string",
    ],
    [
      "people that are not a list",
      treeOf({}),
      { a: 1 },
      "data/people.js is not valid: Invalid input: expected array, received object",
    ],
  ])("%s", (_name, tree, people, detail) => {
    expect(refusal(() => parsePlumTreeZip(buildPlumTreeZip(tree, people)))).toBe(detail);
  });

  it("data files that are not `var x=` JSON (nothing is evaluated)", () => {
    const zip = (tree: string, people: string) =>
      buildZip({ "data/tree.js": tree, "data/people.js": people });
    expect(refusal(() => parsePlumTreeZip(zip("tree={}", "var people=[]")))).toBe(
      'data/tree.js is not valid: it should start with "var tree="',
    );
    expect(refusal(() => parsePlumTreeZip(zip("var tree={a:1}", "var people=[]")))).toBe(
      'data/tree.js is not valid: "var tree=" must be followed by JSON',
    );
    expect(refusal(() => parsePlumTreeZip(zip("var tree={}", "var people=[];alert(1)")))).toBe(
      'data/people.js is not valid: "var people=" must be followed by JSON',
    );
  });

  it("an archive without data/people.js", () => {
    expect(refusal(() => parsePlumTreeZip(buildZip({ "data/tree.js": "var tree={}" })))).toBe(
      "The backup has no data/people.js",
    );
  });
});
