import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { TREE_LIMITS, type Tree, type TreeNode, treeData } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { db } from "@/lib/server/db";
import type { PublishedTreeView } from "@/lib/schemas/published";
import { api, detailOf } from "../helpers/api";
import {
  type TestUser,
  buildLegacy,
  createPerson,
  createTree,
  createUser,
  insertPeople,
} from "../helpers/factories";

const CONFLICT =
  "This tree was changed somewhere else (another tab or device). Reload to get the latest version.";

const treePath = (id: string) => `/api/trees/${id}`;

/** A structure as GET answers it, without the names it gives each reference (issue 13). */
const idsOnly = (data: unknown): TreeNode => treeData.parse(data);

/** An upload of `ownerId` waiting to be used, as the upload flow leaves it. */
async function insertUpload(ownerId: string, dir: "cover" | "avatar" = "cover") {
  const id = `${dir}/${randomBytes(8).toString("hex")}.png`;
  await db.upload.create({
    data: { id, ownerId, dir, contentType: "image/png", status: "TEMP", urlExpiresAt: new Date() },
  });
  return id;
}

/** `depth` nested nodes as raw JSON (JSON.stringify would recurse that deep). */
const nestedDataJson = (depth: number) =>
  `{"data":${'{"children":['.repeat(depth - 1)}{}${"]}".repeat(depth - 1)}}`;

let owner: TestUser;

beforeAll(async () => {
  owner = await createUser();
});

describe("GET /api/trees", () => {
  it("lists only the caller's live trees, oldest first, as {_id, title}", async () => {
    const user = await createUser();
    const other = await createUser();
    const first = await createTree(user.token, { title: "First" });
    const second = await createTree(user.token, { title: "Second" });
    const deleted = await createTree(user.token, { title: "Deleted" });
    await createTree(other.token, { title: "Not mine" });
    expect((await api.delete(treePath(deleted._id), undefined, { token: user.token })).status).toBe(
      200,
    );

    const response = await api.get("/api/trees", { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { _id: first._id, title: "First" },
      { _id: second._id, title: "Second" },
    ]);
  });

  it("answers an empty list to a new user", async () => {
    const user = await createUser();
    const response = await api.get("/api/trees", { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });
});

describe("POST /api/trees", () => {
  it("creates a tree with one empty root node at version 1", async () => {
    const response = await api.post<Tree>(
      "/api/trees",
      { title: "  The Calientes  ", description: "<p>Two sisters</p>", cover: null },
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"1-1"');
    expect(response.body._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).toEqual({
      _id: response.body._id,
      title: "The Calientes",
      description: "<p>Two sisters</p>",
      cover: null,
      data: emptyNode(),
      version: 1,
      heirs: [],
    });
    const read = await api.get(treePath(response.body._id), { token: owner.token });
    expect(read.body).toEqual(response.body);
  });

  it("fills in defaults for an empty body (the client may send nothing but a title)", async () => {
    const response = await api.post<Tree>("/api/trees", undefined, { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ title: "", description: "", cover: null, version: 1 });
  });

  it("sanitizes the description before storing it", async () => {
    const response = await api.post<Tree>(
      "/api/trees",
      { title: "x", description: '<p onclick="alert(1)">hi<script>alert(1)</script></p>' },
      { token: owner.token },
    );
    expect(response.body.description).toBe("<p>hi</p>");
    const row = await db.tree.findUniqueOrThrow({ where: { id: response.body._id } });
    expect(row.description).toBe("<p>hi</p>");
  });

  it("claims the cover upload, marking it used", async () => {
    const cover = await insertUpload(owner.username);
    const tree = await createTree(owner.token, { cover });
    expect(tree.cover).toBe(cover);
    expect((await db.upload.findUniqueOrThrow({ where: { id: cover } })).status).toBe("USED");
  });

  it.each([
    ["a title that is not text", { title: 5 }, "title must be text"],
    [
      "a title over 200 characters",
      { title: "x".repeat(201) },
      "A title can be at most 200 characters",
    ],
    ["a description that is not text", { description: ["<p>"] }, "description must be text"],
    [
      "a description over 100,000 characters",
      { description: "x".repeat(100_001) },
      "The description is too long",
    ],
    [
      "a cover that is not text",
      { cover: 5 },
      "cover: Invalid input: expected string, received number",
    ],
    [
      "a cover nobody uploaded",
      { cover: "cover/deadbeef.png" },
      "That image was not found. Please upload it again.",
    ],
    ["an array body", [], "Invalid input: expected object, received array"],
  ])("refuses %s with 400", async (_name, body, detail) => {
    const before = await db.tree.count({ where: { ownerId: owner.username } });
    const response = await api.post<Tree>("/api/trees", body, { token: owner.token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errors: [{ detail }] });
    expect(await db.tree.count({ where: { ownerId: owner.username } })).toBe(before);
  });

  it("refuses another user's upload as a cover", async () => {
    const other = await createUser();
    const cover = await insertUpload(other.username);
    const response = await api.post<Tree>("/api/trees", { cover }, { token: owner.token });
    expect(response.status).toBe(400);
    expect(detailOf(response)).toBe("That image was not found. Please upload it again.");
    expect((await db.upload.findUniqueOrThrow({ where: { id: cover } })).status).toBe("TEMP");
  });

  it("refuses a body that is not JSON", async () => {
    const response = await api.post<Tree>("/api/trees", undefined, {
      token: owner.token,
      rawBody: "{title:",
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(detailOf(response)).toBe("The request body must be valid JSON");
  });
});

describe("GET /api/trees/{treeId}", () => {
  it("answers the tree with its version as ETag", async () => {
    const tree = await createTree(owner.token, { title: "Read me" });
    const response = await api.get(treePath(tree._id), { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"1-1"');
    expect(response.body).toEqual(tree);
  });

  it.each([
    ["an unknown id", "0b6f5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b"],
    ["an id of an impossible shape", "not a tree!"],
    ["a very long id", "a".repeat(5_000)],
  ])("answers 404 for %s", async (_name, id) => {
    const response = await api.get(treePath(encodeURIComponent(id)), { token: owner.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errors: [{ detail: "Tree not found" }] });
  });
});

describe("PATCH /api/trees/{treeId}", () => {
  it("updates the details only, leaving the structure and version", async () => {
    const tree = await createTree(owner.token);
    const [person] = await insertPeople(tree._id, 1);
    const data: TreeNode = { ...emptyNode(), person: { _id: person! } };
    await api.patch<Partial<Tree>>(treePath(tree._id), { data }, { token: owner.token });

    const response = await api.patch<Partial<Tree>>(
      treePath(tree._id),
      { title: "Renamed", description: "<p>New</p>" },
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      _id: tree._id,
      title: "Renamed",
      description: "<p>New</p>",
      cover: null,
      version: 2,
    });
    const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
    expect(read.body).toMatchObject({
      title: "Renamed",
      description: "<p>New</p>",
      data,
      version: 2,
    });
  });

  it("updates only the details that were sent", async () => {
    const tree = await createTree(owner.token, { title: "Keep", description: "<p>Keep</p>" });
    const cover = await insertUpload(owner.username);
    const response = await api.patch<Partial<Tree>>(
      treePath(tree._id),
      { cover },
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ title: "Keep", description: "<p>Keep</p>", cover });
    expect((await db.upload.findUniqueOrThrow({ where: { id: cover } })).status).toBe("USED");
  });

  it("replaces the structure only, bumping the version", async () => {
    const tree = await createTree(owner.token, { title: "Structure", description: "<p>D</p>" });
    const [a, b] = await insertPeople(tree._id, 2);
    const data: TreeNode = {
      ...emptyNode(),
      person: { _id: a! },
      partners: [{ type: "MARRIED", people: [{ _id: b! }] }],
      children: [{ ...emptyNode(), parentType: "CLONE", parents: [{ _id: a! }] }],
    };
    const response = await api.patch<Partial<Tree>>(
      treePath(tree._id),
      { data },
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ _id: tree._id, version: 2 });
    expect(response.headers.get("etag")).toBe('"2-1"');
    const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
    expect({ ...read.body, data: idsOnly(read.body.data) }).toEqual({
      ...tree,
      data,
      version: 2,
      heirs: [],
    });
  });

  it("fills node defaults and stores only _id of a person reference, names or not", async () => {
    const tree = await createTree(owner.token);
    const [a] = await insertPeople(tree._id, 1);
    // the original client sends references with the names it showed
    const response = await api.patch<Partial<Tree>>(
      treePath(tree._id),
      { data: { person: { _id: a, firstName: "Extra", lastName: "Old" }, children: [{}] } },
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    const stored = await db.tree.findUniqueOrThrow({ where: { id: tree._id } });
    expect(stored.data).toEqual({ ...emptyNode(), person: { _id: a }, children: [emptyNode()] });
    // GET answers the person's current names from the people table, not the ones sent
    const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
    expect(read.body.data).toEqual({
      ...emptyNode(),
      person: { _id: a, firstName: "Sim 1", lastName: "Legacy" },
      children: [emptyNode()],
    });
  });

  it("accepts 10,000 nodes in a ~5 MB payload", async () => {
    const tree = await createTree(owner.token);
    const people = await insertPeople(tree._id, 500);
    const data = buildLegacy(people, { nodes: 10_000 });
    const size = Buffer.byteLength(JSON.stringify({ data }));
    expect(size).toBeGreaterThan(5_000_000);

    const response = await api.patch<Partial<Tree>>(
      treePath(tree._id),
      { data },
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ _id: tree._id, version: 2 });
    const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
    expect(idsOnly(read.body.data)).toEqual(data);
  });

  describe("refuses an invalid structure", () => {
    let tree: Tree;
    let person: string;
    let foreignPerson: string;

    beforeAll(async () => {
      tree = await createTree(owner.token);
      [person] = (await insertPeople(tree._id, 1)) as [string];
      const otherTree = await createTree(owner.token);
      foreignPerson = (await createPerson(owner.token, otherTree._id))._id;
    });

    const deep = (depth: number): TreeNode => {
      let node = emptyNode();
      for (let i = 1; i < depth; i++) node = { ...emptyNode(), children: [node] };
      return node;
    };

    it.each<[string, () => unknown, string]>([
      [
        "a bad partner type",
        () => ({ data: { partners: [{ type: "FRIEND", people: [] }] } }),
        'data.partners.0.type: Invalid option: expected one of "PARTNER"|"EX_PARTNER"|"MARRIED"|"ABDUCTION"',
      ],
      [
        "a bad parent type",
        () => ({ data: { children: [{ parentType: "ADOPTED" }] } }),
        'data.children.0.parentType: Invalid option: expected one of "NONE"|"ABDUCTION"|"CLONE"',
      ],
      [
        "a structure deeper than the limit",
        () => ({ data: deep(TREE_LIMITS.maxDepth + 1) }),
        "A tree can be at most 500 generations deep",
      ],
      [
        "more nodes than the limit",
        () => ({ data: { children: Array.from({ length: TREE_LIMITS.maxNodes }, () => ({})) } }),
        "A tree can hold at most 50000 nodes",
      ],
      [
        "children that are not a list",
        () => ({ data: { children: "none" } }),
        "data.children: Invalid input: expected array, received string",
      ],
      [
        "hidden that is not a boolean",
        () => ({ data: { hidden: "yes" } }),
        "data.hidden: Invalid input: expected boolean, received string",
      ],
      [
        "a person id that is not text",
        () => ({ data: { person: { _id: 42 } } }),
        "data.person._id: Invalid input: expected string, received number",
      ],
      [
        "a person id of an impossible shape",
        () => ({ data: { person: { _id: "<script>" } } }),
        "Not a valid id",
      ],
      [
        "more than 100 people in a partner row",
        () => ({
          data: { partners: [{ people: Array.from({ length: 101 }, () => ({ _id: person })) }] },
        }),
        "data.partners.0.people: Too big: expected array to have <=100 items",
      ],
      ["null data", () => ({ data: null }), "data: Invalid input: expected object, received null"],
      [
        "a list as data",
        () => ({ data: [] }),
        "data: Invalid input: expected object, received array",
      ],
      [
        "data together with details",
        () => ({ data: emptyNode(), title: "Both" }),
        "Send either {data} or {title, description, cover}, not both in one request",
      ],
      [
        "a body that is not an object",
        () => "data",
        "The body must be an object: {data} or {title, description, cover}",
      ],
      [
        "a person who is not in the tree",
        () => ({ data: { person: { _id: "0b6f5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b" } } }),
        "The tree refers to people who are not in this tree: 0b6f5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
      ],
      [
        "a person of another tree",
        () => ({ data: { person: { _id: person }, parents: [{ _id: foreignPerson }] } }),
        "The tree refers to people who are not in this tree: FOREIGN",
      ],
      [
        "many unknown people",
        () => ({ data: { parents: ["p1", "p2", "p3", "p4", "p5"].map((_id) => ({ _id })) } }),
        "The tree refers to people who are not in this tree: p1, p2, p3 and 2 more",
      ],
      ["a title that is not text (details)", () => ({ title: 5 }), "title must be text"],
      [
        "a cover nobody uploaded (details)",
        () => ({ cover: "cover/deadbeef.png" }),
        "That image was not found. Please upload it again.",
      ],
    ])("%s → 400", async (_name, body, detail) => {
      const response = await api.patch<Partial<Tree>>(treePath(tree._id), body(), {
        token: owner.token,
      });
      expect(response.status).toBe(400);
      expect(detailOf(response)).toBe(detail.replace("FOREIGN", foreignPerson));
      const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
      expect(read.body).toEqual(tree);
    });

    it.each([
      ["invalid JSON", "{data:", "The request body must be valid JSON"],
      [
        "100,000 levels of nesting",
        nestedDataJson(100_000),
        "A tree can be at most 500 generations deep",
      ],
    ])("%s → 400", async (_name, rawBody, detail) => {
      const response = await api.patch<Partial<Tree>>(treePath(tree._id), undefined, {
        token: owner.token,
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(400);
      expect(detailOf(response)).toBe(detail);
      const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
      expect(read.body).toEqual(tree);
    });
  });

  it("answers 404 for a deleted tree", async () => {
    const tree = await createTree(owner.token);
    await api.delete(treePath(tree._id), undefined, { token: owner.token });
    for (const body of [{ data: emptyNode() }, { title: "Back" }]) {
      const response = await api.patch<Partial<Tree>>(treePath(tree._id), body, {
        token: owner.token,
      });
      expect(response.status).toBe(404);
      expect(detailOf(response)).toBe("Tree not found");
    }
  });
});

describe("PATCH /api/trees/{treeId} with If-Match (no lost updates)", () => {
  const save = (treeId: string, data: TreeNode, ifMatch?: string) =>
    api.patch<Partial<Tree>>(
      treePath(treeId),
      { data },
      {
        token: owner.token,
        headers: ifMatch === undefined ? {} : { "if-match": ifMatch },
      },
    );

  it("accepts the current version, quoted, bare or weak, and answers the next", async () => {
    const tree = await createTree(owner.token);
    for (const [ifMatch, next] of [
      ['"1"', 2],
      ["2", 3],
      ['W/"3"', 4],
      ["*", 5],
    ] as const) {
      const response = await save(tree._id, emptyNode(), ifMatch);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ _id: tree._id, version: next });
      expect(response.headers.get("etag")).toBe(`"${next}-1"`);
    }
  });

  it("refuses a stale version with 409, the current ETag, and keeps the newer save", async () => {
    const tree = await createTree(owner.token);
    const [a] = await insertPeople(tree._id, 1);
    const newer: TreeNode = { ...emptyNode(), person: { _id: a! } };
    expect((await save(tree._id, newer, '"1"')).status).toBe(200);

    const stale = await save(tree._id, emptyNode(), '"1"');
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ errors: [{ detail: CONFLICT }] });
    expect(stale.headers.get("etag")).toBe('"2-1"');
    const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
    expect(read.body).toMatchObject({ data: newer, version: 2 });
  });

  it("refuses a version from the future with 409", async () => {
    const tree = await createTree(owner.token);
    const response = await save(tree._id, emptyNode(), '"7"');
    expect(response.status).toBe(409);
    expect(detailOf(response)).toBe(CONFLICT);
  });

  it("refuses an If-Match that is not a version with 400", async () => {
    const tree = await createTree(owner.token);
    const response = await save(tree._id, emptyNode(), '"abc"');
    expect(response.status).toBe(400);
    expect(detailOf(response)).toBe(
      'If-Match must be a tree version, e.g. "3" (the ETag of the tree)',
    );
  });

  it("accepts a save without If-Match whatever the version (SPEC.md clients)", async () => {
    const tree = await createTree(owner.token);
    await save(tree._id, emptyNode());
    const response = await save(tree._id, emptyNode());
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ _id: tree._id, version: 3 });
  });

  it("lets exactly one of two concurrent saves with the same If-Match win", async () => {
    const tree = await createTree(owner.token);
    const [a, b] = (await insertPeople(tree._id, 2)) as [string, string];
    for (let round = 1; round <= 5; round++) {
      const dataA: TreeNode = { ...emptyNode(), person: { _id: a } };
      const dataB: TreeNode = { ...emptyNode(), person: { _id: b } };
      const responses = await Promise.all([
        save(tree._id, dataA, `"${round}"`),
        save(tree._id, dataB, `"${round}"`),
      ]);
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409]);
      const winner = responses[0].status === 200 ? dataA : dataB;
      const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
      expect(read.body).toMatchObject({ data: winner, version: round + 1 });
    }
  });

  it("does not bump the structure version on a details update, nor refuse a save after one", async () => {
    const tree = await createTree(owner.token);
    const response = await api.patch<Partial<Tree>>(
      treePath(tree._id),
      { title: "Details" },
      { token: owner.token, headers: { "if-match": '"1-1"' } },
    );
    expect(response.status).toBe(200);
    expect(response.body.version).toBe(1);
    expect(response.headers.get("etag")).toBe('"1-2"');
    // the editor's autosave still carries the structure version it had: no conflict
    expect((await save(tree._id, emptyNode(), '"1"')).status).toBe(200);
    expect((await save(tree._id, emptyNode(), '"2-1"')).status).toBe(200);
  });
});

describe("DELETE /api/trees/{treeId}", () => {
  it("hides the tree from every call but keeps the row (recoverable by the provider)", async () => {
    const tree = await createTree(owner.token);
    const person = await createPerson(owner.token, tree._id);
    const response = await api.delete(treePath(tree._id), undefined, { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: "Tree deleted" });

    for (const read of [
      await api.get(treePath(tree._id), { token: owner.token }),
      await api.get(`/api/people?tree=${tree._id}`, { token: owner.token }),
    ]) {
      expect(read.status).toBe(404);
      expect(detailOf(read)).toBe("Tree not found");
    }
    const personRead = await api.get(`/api/people/${person._id}`, { token: owner.token });
    expect(personRead.status).toBe(404);
    expect(detailOf(personRead)).toBe("Person not found");
    const list = await api.get<{ _id: string }[]>("/api/trees", { token: owner.token });
    expect(list.body.map((t) => t._id)).not.toContain(tree._id);

    const row = await db.tree.findUniqueOrThrow({ where: { id: tree._id } });
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect(await db.person.count({ where: { treeId: tree._id } })).toBe(1);
  });

  it("answers 404 the second time", async () => {
    const tree = await createTree(owner.token);
    await api.delete(treePath(tree._id), undefined, { token: owner.token });
    const again = await api.delete(treePath(tree._id), undefined, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ errors: [{ detail: "Tree not found" }] });
  });
});

describe("deleting an account", () => {
  it("cascades to its trees, people, published copies and uploads", async () => {
    const user = await createUser();
    const cover = await insertUpload(user.username);
    const tree = await createTree(user.token, { cover });
    const deletedTree = await createTree(user.token);
    const person = await createPerson(user.token, tree._id);
    expect(
      (await api.put(`/api/published/${tree._id}`, undefined, { token: user.token })).status,
    ).toBe(200);
    expect(
      (await api.put(`/api/published/${deletedTree._id}`, undefined, { token: user.token })).status,
    ).toBe(200);
    await api.delete(treePath(deletedTree._id), undefined, { token: user.token });
    const bystander = await createTree(owner.token);

    await db.user.delete({ where: { id: user.username } });

    const treeIds = [tree._id, deletedTree._id];
    expect(await db.tree.count({ where: { id: { in: treeIds } } })).toBe(0);
    expect(await db.person.count({ where: { id: person._id } })).toBe(0);
    expect(await db.publishedTree.count({ where: { treeId: { in: treeIds } } })).toBe(0);
    expect(await db.upload.count({ where: { id: cover } })).toBe(0);
    const published = await api.get<PublishedTreeView>(`/api/published/${tree._id}`);
    expect(published.status).toBe(404);
    expect((await api.get(treePath(bystander._id), { token: owner.token })).status).toBe(200);
  });
});
