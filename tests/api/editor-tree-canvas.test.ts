// GET /api/trees/{id}?fields=canvas (ADR 038): the editor's first load in one read, the tree with
// its canvas people and each reference as the person's position among them. The original
// client's GET /api/trees/{id} (references with names, issue 13) does not change.
import { beforeAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { mapPersonRefs } from "@/lib/tree/reducers";
import { type CanvasTree, fromCanvasTree } from "@/components/tree-editor/canvas-tree";
import { db } from "@/lib/server/db";
import { api } from "../helpers/api";
import {
  type TestUser,
  buildLegacy,
  createPerson,
  createTree,
  createUser,
  insertPeople,
} from "../helpers/factories";

const AWKWARD =
  'Quote " backslash \\ tab \t newline \n ctrl \u0001 sep \u2028 é 🌱 </script> {"_id": "x"}';

let owner: TestUser;

beforeAll(async () => {
  owner = await createUser();
});

const canvasUrl = (treeId: string) => `/api/trees/${treeId}?fields=canvas`;
const bare = (data: TreeNode) => mapPersonRefs(data, ({ _id }) => ({ _id }));

describe("GET /api/trees/{id}?fields=canvas", () => {
  it("answers the tree with its canvas people, each reference by position, and the tree's ETag", async () => {
    const tree = await createTree(owner.token, { title: AWKWARD, description: "<p>Desc</p>" });
    const first = await createPerson(owner.token, tree._id, {
      firstName: AWKWARD,
      lastName: "Goth",
      bio: `<p>${"A long story. ".repeat(50)}</p>`,
      traits: ["Romantic"],
    });
    const second = await createPerson(owner.token, tree._id, { firstName: "Cassandra" });
    const third = await createPerson(owner.token, tree._id, { firstName: "Unplaced" });
    const links = [{ title: "Cousin", treeId: tree._id, personId: second._id }];
    await db.person.update({ where: { id: first._id }, data: { links } });
    const data: TreeNode = {
      ...emptyNode(),
      person: { _id: second._id },
      partners: [{ type: "MARRIED", people: [{ _id: first._id }] }],
      children: [
        {
          ...emptyNode(),
          person: { _id: first._id },
          parents: [{ _id: second._id }, { _id: first._id }],
          adoptiveParents: [{ _id: second._id }],
          parentType: "CLONE",
          hidden: true,
        },
        { ...emptyNode() },
      ],
    };
    const saved = await api.patch(`/api/trees/${tree._id}`, { data }, { token: owner.token });
    expect(saved.status).toBe(200);

    const named = await api.get<Tree>(`/api/trees/${tree._id}`, { token: owner.token });
    const canvas = await api.get<CanvasTree>(canvasUrl(tree._id), { token: owner.token });
    const people = await api.get<Person[]>(`/api/people?tree=${tree._id}&fields=canvas`, {
      token: owner.token,
    });
    expect(canvas.status).toBe(200);
    expect(canvas.headers.get("content-type")).toBe("application/json");
    expect(canvas.headers.get("etag")).toBe(named.headers.get("etag"));
    expect(Object.keys(canvas.body)).toEqual([
      "_id",
      "title",
      "description",
      "cover",
      "data",
      "version",
      "heirs",
      "people",
    ]);
    // the people as the canvas people read answers them, oldest first (placed or not)
    expect(canvas.body.people).toStrictEqual(people.body);
    expect(canvas.body.people.map((person) => person._id)).toEqual([
      first._id,
      second._id,
      third._id,
    ]);
    // references are positions in that list: each id once in the answer
    expect(canvas.body.data).toStrictEqual({
      ...emptyNode(),
      person: 1,
      partners: [{ type: "MARRIED", people: [0] }],
      children: [
        {
          ...emptyNode(),
          person: 0,
          parents: [1, 0],
          adoptiveParents: [1],
          parentType: "CLONE",
          hidden: true,
        },
        { ...emptyNode() },
      ],
    });
    const text = canvas.bytes.toString("utf8");
    expect(text.split(first._id).length - 1).toBe(1);
    expect(text).not.toContain("A long story.");
    // read as the editor reads it, it is the original answer with bare references
    const { tree: drawn } = fromCanvasTree(canvas.body);
    expect(drawn).toStrictEqual({ ...named.body, data: bare(named.body.data) });
    expect(drawn.data).toStrictEqual(data);
  });

  it("leaves the original client's answer as it was: references with the people's names", async () => {
    const tree = await createTree(owner.token);
    const person = await createPerson(owner.token, tree._id, {
      firstName: "Bella",
      lastName: "Goth",
    });
    const data: TreeNode = { ...emptyNode(), person: { _id: person._id } };
    await api.patch(`/api/trees/${tree._id}`, { data }, { token: owner.token });
    const named = await api.get<Tree>(`/api/trees/${tree._id}`, { token: owner.token });
    expect(named.body.data.person).toStrictEqual({
      _id: person._id,
      firstName: "Bella",
      lastName: "Goth",
    });
    expect(named.body).not.toHaveProperty("people");
    // an unknown query is ignored as before
    const other = await api.get(`/api/trees/${tree._id}?view=1`, { token: owner.token });
    expect(other.bytes.equals(named.bytes)).toBe(true);
  });

  it("answers a new tree with no people", async () => {
    const tree = await createTree(owner.token);
    const canvas = await api.get<CanvasTree>(canvasUrl(tree._id), { token: owner.token });
    expect(canvas.status).toBe(200);
    expect(canvas.body.people).toEqual([]);
    expect(canvas.body.data).toStrictEqual(emptyNode());
  });

  it("follows renames, additions and saves: each answer is read in one snapshot", async () => {
    const tree = await createTree(owner.token);
    const ids = await insertPeople(tree._id, 40);
    const data = buildLegacy(ids, { nodes: 60 });
    await api.patch(`/api/trees/${tree._id}`, { data }, { token: owner.token });
    const before = await api.get<CanvasTree>(canvasUrl(tree._id), { token: owner.token });
    expect(fromCanvasTree(before.body).tree.data).toStrictEqual(data);

    await api.put(`/api/people/${ids[7]}`, { firstName: "Renamed" }, { token: owner.token });
    const added = await createPerson(owner.token, tree._id, { firstName: "Newcomer" });
    const after = await api.get<CanvasTree>(canvasUrl(tree._id), { token: owner.token });
    const read = fromCanvasTree(after.body);
    expect(read.people.find((person) => person._id === ids[7])?.firstName).toBe("Renamed");
    expect(read.people.at(-1)?._id).toBe(added._id);
    expect(read.tree.data).toStrictEqual(data);
  });

  it("refuses another fields value, and answers 404 for someone else's, a deleted or a missing tree", async () => {
    const tree = await createTree(owner.token);
    const bad = await api.get(`/api/trees/${tree._id}?fields=bio`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ errors: [{ detail: "fields must be canvas" }] });
    const other = await createUser();
    const theirs = await api.get(canvasUrl(tree._id), { token: other.token });
    const deleted = await createTree(owner.token);
    await api.delete(`/api/trees/${deleted._id}`, undefined, { token: owner.token });
    const gone = await api.get(canvasUrl(deleted._id), { token: owner.token });
    const missing = await api.get(canvasUrl("nope"), { token: owner.token });
    for (const response of [theirs, gone, missing]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ errors: [{ detail: "Tree not found" }] });
    }
    const anonymous = await api.get(canvasUrl(tree._id));
    expect(anonymous.status).toBe(401);
  });
});
