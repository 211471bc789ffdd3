// The editor's two loads answer JSON written by PostgreSQL (lib/server/people/list-people.ts,
// lib/server/trees/get-tree.ts): the same values, keys and key order as the API's serializers.
import { beforeAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { db } from "@/lib/server/db";
import { api } from "../helpers/api";
import { type TestUser, createPerson, createTree, createUser } from "../helpers/factories";

/** Text that JSON escapes or that PostgreSQL's JSON writer could treat differently. */
const AWKWARD =
  'Quote " backslash \\ tab \t newline \n ctrl \u0001 sep \u2028 é 🌱 </script> &amp;';

let owner: TestUser;

beforeAll(async () => {
  owner = await createUser();
});

describe("GET /api/people?tree= as PostgreSQL writes it", () => {
  it("answers each person exactly as GET /api/people/{id} does, keys in the same order", async () => {
    const tree = await createTree(owner.token);
    const plain = await createPerson(owner.token, tree._id, {
      firstName: "",
      lastName: "",
      bio: "",
      traits: [],
      aspirations: [],
      lifeStates: [],
      custom: [],
    });
    const full = await createPerson(owner.token, tree._id, {
      firstName: AWKWARD,
      lastName: "Goth",
      bio: "<p>Her <strong>story</strong></p>",
      traits: ["Romantic", AWKWARD],
      custom: [{ title: AWKWARD, value: "1.50" }],
    });
    const links = [{ title: AWKWARD, treeId: tree._id, personId: plain._id }];
    await db.person.update({ where: { id: full._id }, data: { links } });

    const list = await api.get<Person[]>(`/api/people?tree=${tree._id}`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.headers.get("content-type")).toBe("application/json");
    const singles = [];
    for (const person of [plain, full]) {
      const single = await api.get<Person>(`/api/people/${person._id}`, { token: owner.token });
      singles.push(single.body);
    }
    expect(singles[1]!.links).toEqual(links);
    expect(list.body).toStrictEqual(singles);
    expect(list.body.map((person) => Object.keys(person))).toEqual(
      singles.map((person) => Object.keys(person)),
    );
    // Compact, like JSON.stringify (no spaces between the persons or their own keys).
    expect(list.bytes.toString("utf8")).toMatch(/^\[\{"_id":"[^"]+","tree":/);
    expect(list.bytes.toString("utf8")).toContain('},{"_id":');
  });

  it("answers 404 for a deleted tree and for someone else's", async () => {
    const deleted = await createTree(owner.token);
    const gone = await api.delete(`/api/trees/${deleted._id}`, undefined, { token: owner.token });
    expect(gone.status).toBe(200);
    const other = await createUser();
    const theirs = await createTree(other.token);
    for (const id of [deleted._id, theirs._id]) {
      const response = await api.get(`/api/people?tree=${id}`, { token: owner.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ errors: [{ detail: "Tree not found" }] });
    }
  });
});

describe("GET /api/people?tree=&fields=canvas: what the editor draws (ADR 032)", () => {
  it("answers each person without bio, lists and custom rows, in the full list's order, which does not change", async () => {
    const tree = await createTree(owner.token);
    const first = await createPerson(owner.token, tree._id, {
      firstName: AWKWARD,
      lastName: "Goth",
      bio: `<p>${"A long story. ".repeat(200)}</p>`,
      traits: ["Romantic"],
      aspirations: ["Soulmate"],
      lifeStates: ["Vampire"],
      custom: [{ title: "Career", value: "Astronaut" }],
    });
    const second = await createPerson(owner.token, tree._id, { firstName: "Cassandra" });
    const links = [{ title: "Cousin", treeId: tree._id, personId: second._id }];
    await db.person.update({ where: { id: first._id }, data: { links } });

    const full = await api.get<Person[]>(`/api/people?tree=${tree._id}`, { token: owner.token });
    const canvas = await api.get<Record<string, unknown>[]>(
      `/api/people?tree=${tree._id}&fields=canvas`,
      { token: owner.token },
    );
    expect(canvas.status).toBe(200);
    expect(canvas.headers.get("content-type")).toBe("application/json");
    expect(canvas.body).toStrictEqual(
      full.body.map((person) => ({
        _id: person._id,
        avatar: person.avatar,
        firstName: person.firstName,
        lastName: person.lastName,
        links: person.links,
      })),
    );
    expect(canvas.body.map((person) => Object.keys(person))).toEqual([
      ["_id", "avatar", "firstName", "lastName", "links"],
      ["_id", "avatar", "firstName", "lastName", "links"],
    ]);
    expect(canvas.bytes.toString("utf8")).not.toContain("A long story.");
    // the original client's read still carries everything
    expect(full.body[0]!.bio).toContain("A long story.");
    expect(full.body[0]!.custom).toEqual([{ title: "Career", value: "Astronaut" }]);
    expect(full.body.map((person) => Object.keys(person))[0]).toEqual([
      "_id",
      "tree",
      "avatar",
      "firstName",
      "lastName",
      "bio",
      "traits",
      "aspirations",
      "lifeStates",
      "custom",
      "links",
    ]);
  });

  it("refuses another fields value and answers 404 for someone else's tree", async () => {
    const tree = await createTree(owner.token);
    const bad = await api.get(`/api/people?tree=${tree._id}&fields=bio`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ errors: [{ detail: "fields must be canvas" }] });
    const other = await createUser();
    const response = await api.get(`/api/people?tree=${tree._id}&fields=canvas`, {
      token: other.token,
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errors: [{ detail: "Tree not found" }] });
  });
});

describe("GET /api/trees/{treeId} as PostgreSQL writes it", () => {
  it("answers the tree with its fields in the API's order and its data unchanged", async () => {
    const tree = await createTree(owner.token, { title: AWKWARD, description: "<p>Desc</p>" });
    // names that need escaping, as the answer writes them into every reference (issue 13)
    const person = await createPerson(owner.token, tree._id, {
      firstName: AWKWARD,
      lastName: 'O"Neil \\ {"_id": "x"}',
    });
    const data: TreeNode = {
      ...emptyNode(),
      person: { _id: person._id },
      partners: [{ type: "MARRIED", people: [{ _id: person._id }] }],
      children: [{ ...emptyNode(), parentType: "CLONE", hidden: true }],
    };
    const saved = await api.patch(`/api/trees/${tree._id}`, { data }, { token: owner.token });
    expect(saved.status).toBe(200);

    const named = { _id: person._id, firstName: person.firstName, lastName: person.lastName };
    const response = await api.get<Tree>(`/api/trees/${tree._id}`, { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("etag")).toBe('"2-1"');
    expect(Object.keys(response.body)).toEqual([
      "_id",
      "title",
      "description",
      "cover",
      "data",
      "version",
      "heirs",
    ]);
    expect(response.body).toStrictEqual({
      _id: tree._id,
      title: AWKWARD,
      description: "<p>Desc</p>",
      cover: null,
      data: {
        ...data,
        person: named,
        partners: [{ type: "MARRIED", people: [named] }],
      },
      version: 2,
      heirs: [],
    });
  });
});
