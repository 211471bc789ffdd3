import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { db } from "@/lib/server/db";
import { api, detailOf } from "../helpers/api";
import { type TestUser, createPerson, createTree, createUser } from "../helpers/factories";

const personPath = (id: string) => `/api/people/${id}`;
const UNKNOWN_ID = "0b6f5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b";

async function insertAvatar(ownerId: string) {
  const id = `avatar/${randomBytes(8).toString("hex")}.png`;
  await db.upload.create({
    data: {
      id,
      ownerId,
      dir: "avatar",
      contentType: "image/png",
      status: "TEMP",
      urlExpiresAt: new Date(),
    },
  });
  return id;
}

let owner: TestUser;
let tree: Tree;

beforeAll(async () => {
  owner = await createUser();
  tree = await createTree(owner.token);
});

describe("POST /api/people", () => {
  it("creates a person in the API shape", async () => {
    const avatar = await insertAvatar(owner.username);
    const body = {
      tree: tree._id,
      avatar,
      firstName: " Bella ",
      lastName: "Goth",
      bio: "<p>Her <strong>story</strong></p>",
      traits: ["Romantic", "Snob", "Romantic", "My own trait"],
      aspirations: ["Soulmate"],
      lifeStates: ["Sim"],
      custom: [{ title: "Eyes", value: "Brown" }],
    };
    const response = await api.post<Person>("/api/people", body, { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).toEqual({
      _id: response.body._id,
      tree: tree._id,
      avatar,
      firstName: "Bella",
      lastName: "Goth",
      bio: "<p>Her <strong>story</strong></p>",
      traits: ["Romantic", "Snob", "My own trait"],
      aspirations: ["Soulmate"],
      lifeStates: ["Sim"],
      custom: [{ title: "Eyes", value: "Brown" }],
      links: [],
    });
    expect((await db.upload.findUniqueOrThrow({ where: { id: avatar } })).status).toBe("USED");
    const read = await api.get<Person>(personPath(response.body._id), { token: owner.token });
    expect(read.body).toEqual(response.body);
  });

  it("fills in defaults for everything but the tree", async () => {
    const response = await api.post<Person>(
      "/api/people",
      { tree: tree._id },
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      avatar: null,
      firstName: "",
      lastName: "",
      bio: "",
      traits: [],
      aspirations: [],
      lifeStates: [],
      custom: [],
      links: [],
    });
  });

  it("sanitizes the bio before storing it", async () => {
    const person = await createPerson(owner.token, tree._id, {
      bio: '<p>ok</p><img src=x onerror="alert(1)"><script>alert(1)</script>',
    });
    expect(person.bio).toBe("<p>ok</p>");
    expect((await db.person.findUniqueOrThrow({ where: { id: person._id } })).bio).toBe(
      "<p>ok</p>",
    );
  });

  it("ignores links sent on create (they are set through PUT {links})", async () => {
    const response = await api.post<Person>(
      "/api/people",
      { tree: tree._id, links: [{ title: "x", treeId: tree._id, personId: "p" }] },
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body.links).toEqual([]);
  });

  it.each<[string, () => unknown, number, string]>([
    [
      "no tree",
      () => ({ firstName: "A" }),
      400,
      "tree: Invalid input: expected string, received undefined",
    ],
    ["a tree id of an impossible shape", () => ({ tree: "../etc" }), 400, "Not a valid id"],
    ["an unknown tree", () => ({ tree: UNKNOWN_ID }), 404, "Tree not found"],
    [
      "a first name over 100 characters",
      () => ({ tree: tree._id, firstName: "x".repeat(101) }),
      400,
      "Names can be at most 100 characters",
    ],
    [
      "traits that are not a list",
      () => ({ tree: tree._id, traits: "Snob" }),
      400,
      "traits: Invalid input: expected array, received string",
    ],
    [
      "an empty trait",
      () => ({ tree: tree._id, traits: [" "] }),
      400,
      "traits.0: Too small: expected string to have >=1 characters",
    ],
    [
      "a trait over 100 characters",
      () => ({ tree: tree._id, traits: ["x".repeat(101)] }),
      400,
      "Traits can be at most 100 characters each",
    ],
    [
      "more than 200 aspirations",
      () => ({ tree: tree._id, aspirations: Array.from({ length: 201 }, (_, i) => `a${i}`) }),
      400,
      "At most 200 aspirations",
    ],
    [
      "a custom row that is not an object",
      () => ({ tree: tree._id, custom: ["Eyes"] }),
      400,
      "custom.0: Invalid input: expected object, received string",
    ],
    [
      "a custom title over 200 characters",
      () => ({ tree: tree._id, custom: [{ title: "x".repeat(201), value: "" }] }),
      400,
      "A custom title is too long",
    ],
    [
      "more than 100 custom rows",
      () => ({ tree: tree._id, custom: Array.from({ length: 101 }, () => ({})) }),
      400,
      "Too many custom rows",
    ],
    [
      "a bio over 100,000 characters",
      () => ({ tree: tree._id, bio: "x".repeat(100_001) }),
      400,
      "The bio is too long",
    ],
    [
      "an avatar that is not an image name",
      () => ({ tree: tree._id, avatar: "../../etc/passwd" }),
      400,
      "Not a valid image name",
    ],
    [
      "an avatar nobody uploaded",
      () => ({ tree: tree._id, avatar: "avatar/deadbeef.png" }),
      400,
      "That image was not found. Please upload it again.",
    ],
  ])("refuses %s", async (_name, body, status, detail) => {
    const before = await db.person.count({ where: { treeId: tree._id } });
    const response = await api.post<Person>("/api/people", body(), { token: owner.token });
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ errors: [{ detail }] });
    expect(await db.person.count({ where: { treeId: tree._id } })).toBe(before);
  });

  it("refuses invalid JSON", async () => {
    const response = await api.post<Person>("/api/people", undefined, {
      token: owner.token,
      rawBody: '{"tree":',
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(detailOf(response)).toBe("The request body must be valid JSON");
  });

  it("refuses a deleted tree with 404", async () => {
    const gone = await createTree(owner.token);
    await api.delete(`/api/trees/${gone._id}`, undefined, { token: owner.token });
    const response = await api.post<Person>(
      "/api/people",
      { tree: gone._id },
      { token: owner.token },
    );
    expect(response.status).toBe(404);
    expect(detailOf(response)).toBe("Tree not found");
  });
});

describe("GET /api/people?tree=", () => {
  it("lists the tree's people, oldest first, and only them", async () => {
    const own = await createTree(owner.token);
    const a = await createPerson(owner.token, own._id, { firstName: "A" });
    const b = await createPerson(owner.token, own._id, { firstName: "B" });
    await createPerson(owner.token, tree._id, { firstName: "Elsewhere" });
    const response = await api.get(`/api/people?tree=${own._id}`, { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([a, b]);
  });

  it("answers an empty list for a tree without people", async () => {
    const empty = await createTree(owner.token);
    const response = await api.get(`/api/people?tree=${empty._id}`, { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it.each([
    [
      "no tree parameter",
      "/api/people",
      400,
      "tree: Invalid input: expected string, received undefined",
    ],
    [
      "an empty tree parameter",
      "/api/people?tree=",
      400,
      "tree: Too small: expected string to have >=1 characters",
    ],
    ["an unknown tree", `/api/people?tree=${UNKNOWN_ID}`, 404, "Tree not found"],
  ])("answers %s", async (_name, path, status, detail) => {
    const response = await api.get(path, { token: owner.token });
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ errors: [{ detail }] });
  });
});

describe("GET /api/people/{personId}", () => {
  it.each([
    ["an unknown id", UNKNOWN_ID],
    ["an id of an impossible shape", "x y"],
  ])("answers 404 for %s", async (_name, id) => {
    const response = await api.get<Person>(personPath(encodeURIComponent(id)), {
      token: owner.token,
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errors: [{ detail: "Person not found" }] });
  });
});

describe("PUT /api/people/{personId}", () => {
  it("replaces the fields with the full body and never touches links", async () => {
    const target = await createTree(owner.token);
    const targetPerson = await createPerson(owner.token, target._id);
    await api.put(`/api/published/${target._id}`, undefined, { token: owner.token });
    const person = await createPerson(owner.token, tree._id);
    const links = [{ title: "Other legacy", treeId: target._id, personId: targetPerson._id }];
    await api.put<Person>(personPath(person._id), { links }, { token: owner.token });

    const other = await createTree(owner.token);
    const body = {
      tree: other._id,
      avatar: null,
      firstName: "Cassandra",
      lastName: "Goth",
      bio: "<p>New bio</p>",
      traits: ["Bookworm"],
      aspirations: [],
      lifeStates: ["Sim", "Vampire"],
      custom: [],
    };
    const response = await api.put<Person>(personPath(person._id), body, { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...body, _id: person._id, tree: tree._id, links });
    const read = await api.get<Person>(personPath(person._id), { token: owner.token });
    expect(read.body).toEqual(response.body);
  });

  it("ignores links echoed back in a full body", async () => {
    const person = await createPerson(owner.token, tree._id);
    const response = await api.put<Person>(
      personPath(person._id),
      { ...person, firstName: "Echo", links: [{ title: "x", treeId: UNKNOWN_ID, personId: "p" }] },
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...person, firstName: "Echo", links: [] });
  });

  it("updates the links alone, erasing nothing, and answers them", async () => {
    const target = await createTree(owner.token);
    const [t1, t2] = [
      await createPerson(owner.token, target._id),
      await createPerson(owner.token, target._id),
    ];
    await api.put(`/api/published/${target._id}`, undefined, { token: owner.token });
    const person = await createPerson(owner.token, tree._id);
    const links = [
      { title: "My Other Tree", treeId: target._id, personId: t1._id },
      { title: "", treeId: target._id, personId: t2._id },
    ];
    const response = await api.put<Person>(
      personPath(person._id),
      { links },
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...person, links });

    const cleared = await api.put<Person>(
      personPath(person._id),
      { links: [] },
      { token: owner.token },
    );
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ ...person, links: [] });
  });

  it("sanitizes the bio on update", async () => {
    const person = await createPerson(owner.token, tree._id);
    const response = await api.put<Person>(
      personPath(person._id),
      { bio: '<p style="x" onmouseover="alert(1)">b</p><iframe src="x"></iframe>' },
      { token: owner.token },
    );
    expect(response.body.bio).toBe("<p>b</p>");
  });

  describe("links only to public trees", () => {
    let published: Tree;
    let inCopy: Person;
    let addedLater: Person;
    let unpublished: Tree;
    let unpublishedPerson: Person;
    let person: Person;

    beforeAll(async () => {
      published = await createTree(owner.token);
      inCopy = await createPerson(owner.token, published._id);
      await api.put(`/api/published/${published._id}`, undefined, { token: owner.token });
      addedLater = await createPerson(owner.token, published._id);
      unpublished = await createTree(owner.token);
      unpublishedPerson = await createPerson(owner.token, unpublished._id);
      person = await createPerson(owner.token, tree._id);
    });

    it.each<[string, () => unknown, string]>([
      [
        "a tree that is not published",
        () => [{ title: "x", treeId: unpublished._id, personId: unpublishedPerson._id }],
        "Tree UNPUBLISHED is not published. Links may only target public trees.",
      ],
      [
        "a tree that does not exist",
        () => [{ title: "x", treeId: UNKNOWN_ID, personId: inCopy._id }],
        `Tree ${UNKNOWN_ID} is not published. Links may only target public trees.`,
      ],
      [
        "a person added after publishing",
        () => [{ title: "x", treeId: published._id, personId: addedLater._id }],
        "Person LATER is not in the published copy of tree PUBLISHED.",
      ],
      [
        "a person of another tree",
        () => [{ title: "x", treeId: published._id, personId: unpublishedPerson._id }],
        "Person UNPUBLISHED_PERSON is not in the published copy of tree PUBLISHED.",
      ],
      [
        "one bad link among good ones",
        () => [
          { title: "ok", treeId: published._id, personId: inCopy._id },
          { title: "bad", treeId: unpublished._id, personId: unpublishedPerson._id },
        ],
        "Tree UNPUBLISHED is not published. Links may only target public trees.",
      ],
      [
        "a tree id of an impossible shape",
        () => [{ title: "x", treeId: "a/b", personId: inCopy._id }],
        "Not a valid id",
      ],
      [
        "a link without a person",
        () => [{ title: "x", treeId: published._id }],
        "links.0.personId: Invalid input: expected string, received undefined",
      ],
      [
        "a link title over 200 characters",
        () => [{ title: "x".repeat(201), treeId: published._id, personId: inCopy._id }],
        "A link title is too long",
      ],
      [
        "more than 50 links",
        () => Array.from({ length: 51 }, () => ({ treeId: published._id, personId: inCopy._id })),
        "At most 50 links",
      ],
      [
        "links that are not a list",
        () => "none",
        "links: Invalid input: expected array, received string",
      ],
    ])("refuses %s with 400 and changes nothing", async (_name, links, detail) => {
      const response = await api.put<Person>(
        personPath(person._id),
        { links: links() },
        {
          token: owner.token,
        },
      );
      expect(response.status).toBe(400);
      expect(detailOf(response)).toBe(
        detail
          .replace("UNPUBLISHED_PERSON", unpublishedPerson._id)
          .replace("UNPUBLISHED", unpublished._id)
          .replace("PUBLISHED", published._id)
          .replace("LATER", addedLater._id),
      );
      const read = await api.get<Person>(personPath(person._id), { token: owner.token });
      expect(read.body).toEqual(person);
    });

    it("accepts the person once the tree is re-published", async () => {
      await api.put(`/api/published/${published._id}`, undefined, { token: owner.token });
      const links = [{ title: "Later", treeId: published._id, personId: addedLater._id }];
      const response = await api.put<Person>(
        personPath(person._id),
        { links },
        { token: owner.token },
      );
      expect(response.status).toBe(200);
      expect(response.body.links).toEqual(links);
    });

    it("keeps an existing link whose tree was unpublished since, while adding another", async () => {
      const source = await createPerson(owner.token, tree._id);
      const gone = await createTree(owner.token);
      const gonePerson = await createPerson(owner.token, gone._id);
      await api.put(`/api/published/${gone._id}`, undefined, { token: owner.token });
      const first = [{ title: "Gone soon", treeId: gone._id, personId: gonePerson._id }];
      expect(
        (await api.put<Person>(personPath(source._id), { links: first }, { token: owner.token }))
          .status,
      ).toBe(200);
      await api.delete(`/api/published/${gone._id}`, undefined, { token: owner.token });

      const both = [
        ...first,
        { title: "Still public", treeId: published._id, personId: inCopy._id },
      ];
      const response = await api.put<Person>(
        personPath(source._id),
        { links: both },
        { token: owner.token },
      );
      expect(response.status).toBe(200);
      expect(response.body.links).toEqual(both);
    });

    it("may link to another user's public tree", async () => {
      const stranger = await createUser();
      const theirs = await createTree(stranger.token);
      const theirPerson = await createPerson(stranger.token, theirs._id);
      await api.put(`/api/published/${theirs._id}`, undefined, { token: stranger.token });
      const links = [{ title: "Cousins", treeId: theirs._id, personId: theirPerson._id }];
      const response = await api.put<Person>(
        personPath(person._id),
        { links },
        { token: owner.token },
      );
      expect(response.status).toBe(200);
      expect(response.body.links).toEqual(links);
    });
  });

  it.each<[string, unknown, string]>([
    [
      "a first name that is not text",
      { firstName: 5 },
      "firstName: Invalid input: expected string, received number",
    ],
    [
      "a body that is not an object",
      ["links"],
      "The body must be an object: the person's fields, or {links}",
    ],
    [
      "an avatar nobody uploaded",
      { avatar: "avatar/deadbeef.png" },
      "That image was not found. Please upload it again.",
    ],
  ])("refuses %s with 400 and changes nothing", async (_name, body, detail) => {
    const person = await createPerson(owner.token, tree._id);
    const response = await api.put<Person>(personPath(person._id), body, { token: owner.token });
    expect(response.status).toBe(400);
    expect(detailOf(response)).toBe(detail);
    expect((await api.get<Person>(personPath(person._id), { token: owner.token })).body).toEqual(
      person,
    );
  });

  it("answers 404 for an unknown person", async () => {
    const response = await api.put<Person>(
      personPath(UNKNOWN_ID),
      { firstName: "x" },
      {
        token: owner.token,
      },
    );
    expect(response.status).toBe(404);
    expect(detailOf(response)).toBe("Person not found");
  });
});

describe("DELETE /api/people/{personId}", () => {
  it("removes the person and scrubs every reference from the tree data, bumping the version", async () => {
    const legacy = await createTree(owner.token);
    const [gone, spouse, ex, parent, adopter] = (await Promise.all(
      ["Gone", "Spouse", "Ex", "Parent", "Adopter"].map((firstName) =>
        createPerson(owner.token, legacy._id, { firstName }),
      ),
    )) as [Person, Person, Person, Person, Person];
    const ref = (p: Person) => ({ _id: p._id });
    const data: TreeNode = {
      ...emptyNode(),
      person: ref(gone),
      partners: [
        { type: "MARRIED", people: [ref(spouse), ref(gone)] },
        { type: "EX_PARTNER", people: [ref(gone)] },
        { type: "PARTNER", people: [] },
      ],
      children: [
        {
          ...emptyNode(),
          person: ref(ex),
          parentType: "ABDUCTION",
          parents: [ref(gone), ref(parent)],
          adoptiveParents: [ref(adopter), ref(gone)],
          children: [{ ...emptyNode(), person: ref(gone), hidden: true }],
        },
      ],
    };
    const saved = await api.patch<Partial<Tree>>(
      `/api/trees/${legacy._id}`,
      { data },
      { token: owner.token },
    );
    expect(saved.body.version).toBe(2);

    const response = await api.delete<{ message: string; tree: { _id: string; version: number } }>(
      personPath(gone._id),
      undefined,
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: "Person removed",
      tree: { _id: legacy._id, version: 3 },
    });

    const read = await api.get<Tree>(`/api/trees/${legacy._id}`, { token: owner.token });
    expect(read.body.version).toBe(3);
    // GET answers each reference with the person's names (issue 13)
    const named = (p: Person) => ({ _id: p._id, firstName: p.firstName, lastName: p.lastName });
    expect(read.body.data).toEqual({
      ...emptyNode(),
      person: null,
      partners: [
        { type: "MARRIED", people: [named(spouse)] },
        { type: "PARTNER", people: [] },
      ],
      children: [
        {
          ...emptyNode(),
          person: named(ex),
          parentType: "ABDUCTION",
          parents: [named(parent)],
          adoptiveParents: [named(adopter)],
          children: [{ ...emptyNode(), person: null, hidden: true }],
        },
      ],
    });
    expect(JSON.stringify(read.body.data)).not.toContain(gone._id);
    const gets = await api.get<Person>(personPath(gone._id), { token: owner.token });
    expect(gets.status).toBe(404);
    const list = await api.get<Person[]>(`/api/people?tree=${legacy._id}`, { token: owner.token });
    expect(list.body.map((p) => p.firstName).sort()).toEqual(["Adopter", "Ex", "Parent", "Spouse"]);

    // the deleted person can no longer be placed
    const stale = await api.patch<Partial<Tree>>(
      `/api/trees/${legacy._id}`,
      { data },
      { token: owner.token },
    );
    expect(stale.status).toBe(400);
    expect(detailOf(stale)).toBe(`The tree refers to people who are not in this tree: ${gone._id}`);
  });

  it("keeps the version when the person was not placed in the tree", async () => {
    const legacy = await createTree(owner.token);
    const unplaced = await createPerson(owner.token, legacy._id);
    const response = await api.delete<{ message: string; tree: { _id: string; version: number } }>(
      personPath(unplaced._id),
      undefined,
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: "Person removed",
      tree: { _id: legacy._id, version: 1 },
    });
  });

  it("answers 404 the second time", async () => {
    const person = await createPerson(owner.token, tree._id);
    await api.delete<{ message: string; tree: { _id: string; version: number } }>(
      personPath(person._id),
      undefined,
      { token: owner.token },
    );
    const again = await api.delete<{ message: string; tree: { _id: string; version: number } }>(
      personPath(person._id),
      undefined,
      { token: owner.token },
    );
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ errors: [{ detail: "Person not found" }] });
  });

  it("never leaves a dangling reference when a delete races a save", async () => {
    const legacy = await createTree(owner.token);
    const people = await Promise.all(
      Array.from({ length: 6 }, () => createPerson(owner.token, legacy._id)),
    );
    const data: TreeNode = {
      ...emptyNode(),
      children: people.map((p) => ({ ...emptyNode(), person: { _id: p._id } })),
    };
    const responses = await Promise.all([
      ...people
        .slice(0, 3)
        .map((p) =>
          api.delete<{ message: string; tree: { _id: string; version: number } }>(
            personPath(p._id),
            undefined,
            { token: owner.token },
          ),
        ),
      api.patch<Partial<Tree>>(`/api/trees/${legacy._id}`, { data }, { token: owner.token }),
    ]);
    expect(responses.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200]);
    const read = await api.get<Tree>(`/api/trees/${legacy._id}`, { token: owner.token });
    const remaining = new Set(people.slice(3).map((p) => p._id));
    const placed = read.body.data.children.flatMap((c) => (c.person ? [c.person._id] : []));
    for (const id of placed) expect(remaining).toContain(id);
  });
});
