// Issue 12, finding 4: people and tree details are not silently overwritten. A write sent with a
// stale If-Match gets 409 in the error shape and changes nothing; a write without If-Match keeps
// the behaviour SPEC.md clients rely on.
import { beforeAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { api, detailOf } from "../helpers/api";
import { type TestUser, createPerson, createTree, createUser } from "../helpers/factories";

const PERSON_CONFLICT =
  "This Sim was changed somewhere else (another tab or device) since you opened it. Reload to see those changes, or save over them.";
const DETAILS_CONFLICT =
  "This tree's details were changed somewhere else (another tab or device) since you opened them. Reload to see those changes, or save over them.";

const personPath = (id: string) => `/api/people/${id}`;
const treePath = (id: string) => `/api/trees/${id}`;

let owner: TestUser;
let treeId: string;

beforeAll(async () => {
  owner = await createUser();
  treeId = (await createTree(owner.token, { title: "Two Tabs" }))._id;
});

/** The full edit body the person editor sends, from a person as GET answered it. */
const editBody = (person: Person, changes: Partial<Person>) => {
  const { _id, links, ...fields } = { ...person, ...changes };
  void _id;
  void links;
  return fields;
};

describe("PUT /api/people/{id} with If-Match", () => {
  it("answers the person's ETag on GET, POST and PUT, bumped by each edit", async () => {
    const created = await api.post<Person>(
      "/api/people",
      { tree: treeId, firstName: "Bella" },
      { token: owner.token },
    );
    expect(created.headers.get("etag")).toBe('"1"');
    const read = await api.get<Person>(personPath(created.body._id), { token: owner.token });
    expect(read.headers.get("etag")).toBe('"1"');
    expect(read.body).not.toHaveProperty("version");
    const edited = await api.put<Person>(
      personPath(created.body._id),
      editBody(read.body, { bio: "<p>One</p>" }),
      { token: owner.token, headers: { "if-match": '"1"' } },
    );
    expect(edited.status).toBe(200);
    expect(edited.headers.get("etag")).toBe('"2"');
    const links = await api.put<Person>(
      personPath(created.body._id),
      { links: [] },
      { token: owner.token, headers: { "if-match": '"2"' } },
    );
    expect(links.status).toBe(200);
    expect(links.headers.get("etag")).toBe('"3"');
  });

  it("two tabs: the second writer's stale ETag gets 409 and the first one's bio survives", async () => {
    const person = await createPerson(owner.token, treeId, { bio: "<p>Before</p>" });
    // both tabs open the editor
    const tabA = await api.get<Person>(personPath(person._id), { token: owner.token });
    const tabB = await api.get<Person>(personPath(person._id), { token: owner.token });
    const etag = tabA.headers.get("etag")!;
    expect(tabB.headers.get("etag")).toBe(etag);

    const first = await api.put<Person>(
      personPath(person._id),
      editBody(tabA.body, { bio: "<p>Tab A wrote this chapter.</p>" }),
      { token: owner.token, headers: { "if-match": etag } },
    );
    expect(first.status).toBe(200);

    const second = await api.put(
      personPath(person._id),
      editBody(tabB.body, { bio: "<p>Tab B, unaware.</p>" }),
      { token: owner.token, headers: { "if-match": etag } },
    );
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ errors: [{ detail: PERSON_CONFLICT }] });
    // the 409 names the current version, so "save over" can overwrite exactly what was reported
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));

    const after = await api.get<Person>(personPath(person._id), { token: owner.token });
    expect(after.body.bio).toBe("<p>Tab A wrote this chapter.</p>");

    const over = await api.put<Person>(
      personPath(person._id),
      editBody(tabB.body, { bio: "<p>Tab B, saved over.</p>" }),
      { token: owner.token, headers: { "if-match": second.headers.get("etag")! } },
    );
    expect(over.status).toBe(200);
    expect(over.body.bio).toBe("<p>Tab B, saved over.</p>");
  });

  it("lets exactly one of two concurrent edits with the same If-Match win", async () => {
    const person = await createPerson(owner.token, treeId);
    const responses = await Promise.all(
      ["A", "B"].map((tab) =>
        api.put(
          personPath(person._id),
          { firstName: tab },
          { token: owner.token, headers: { "if-match": '"1"' } },
        ),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("refuses a stale links update too", async () => {
    const person = await createPerson(owner.token, treeId);
    await api.put(personPath(person._id), { firstName: "Moved on" }, { token: owner.token });
    const stale = await api.put(
      personPath(person._id),
      { links: [] },
      { token: owner.token, headers: { "if-match": '"1"' } },
    );
    expect(stale.status).toBe(409);
    expect(detailOf(stale)).toBe(PERSON_CONFLICT);
  });

  it("keeps today's behaviour without If-Match (SPEC.md clients): the last write wins", async () => {
    const person = await createPerson(owner.token, treeId);
    for (const bio of ["<p>One</p>", "<p>Two</p>"]) {
      const response = await api.put<Person>(personPath(person._id), editBody(person, { bio }), {
        token: owner.token,
      });
      expect(response.status).toBe(200);
    }
    const read = await api.get<Person>(personPath(person._id), { token: owner.token });
    expect(read.body.bio).toBe("<p>Two</p>");
    expect(read.headers.get("etag")).toBe('"3"');
  });

  it.each([
    ['"abc"', 400, 'If-Match must be a person version, e.g. "3" (the ETag of the person)'],
    ['"1-1"', 400, 'If-Match must be a person version, e.g. "3" (the ETag of the person)'],
  ])("refuses If-Match %s with %i", async (ifMatch, status, detail) => {
    const person = await createPerson(owner.token, treeId);
    const response = await api.put(
      personPath(person._id),
      { firstName: "X" },
      { token: owner.token, headers: { "if-match": ifMatch } },
    );
    expect(response.status).toBe(status);
    expect(detailOf(response)).toBe(detail);
  });

  it("answers 404, not 409, for someone else's person whatever the If-Match", async () => {
    const stranger = await createUser();
    const person = await createPerson(owner.token, treeId);
    const response = await api.put(
      personPath(person._id),
      { firstName: "Thief" },
      { token: stranger.token, headers: { "if-match": '"9"' } },
    );
    expect(response.status).toBe(404);
    expect(detailOf(response)).toBe("Person not found");
  });
});

describe("PATCH /api/trees/{id} details with If-Match", () => {
  it("refuses a stale details ETag with 409 and keeps the newer title", async () => {
    const tree = await createTree(owner.token, { title: "Original" });
    const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
    const etag = read.headers.get("etag")!;
    expect(etag).toBe('"1-1"');

    const first = await api.patch(
      treePath(tree._id),
      { title: "Tab A's title", description: "<p>A</p>" },
      { token: owner.token, headers: { "if-match": etag } },
    );
    expect(first.status).toBe(200);
    expect(first.headers.get("etag")).toBe('"1-2"');

    const stale = await api.patch(
      treePath(tree._id),
      { title: "Tab B's title", description: "<p>B</p>" },
      { token: owner.token, headers: { "if-match": etag } },
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ errors: [{ detail: DETAILS_CONFLICT }] });
    expect(stale.headers.get("etag")).toBe('"1-2"');
    const after = await api.get<Tree>(treePath(tree._id), { token: owner.token });
    expect(after.body).toMatchObject({ title: "Tab A's title", description: "<p>A</p>" });
  });

  it("keeps today's behaviour without If-Match: 200, last write wins", async () => {
    const tree = await createTree(owner.token, { title: "Original" });
    for (const title of ["One", "Two"]) {
      const response = await api.patch(treePath(tree._id), { title }, { token: owner.token });
      expect(response.status).toBe(200);
    }
    const read = await api.get<Tree>(treePath(tree._id), { token: owner.token });
    expect(read.body.title).toBe("Two");
    expect(read.headers.get("etag")).toBe('"1-3"');
  });

  it("does not mix details and structure: each write compares only its own part", async () => {
    const tree = await createTree(owner.token);
    const opened = (await api.get(treePath(tree._id), { token: owner.token })).headers.get("etag")!;
    // an autosave in the editor's tab moves the structure on…
    const saved = await api.patch(
      treePath(tree._id),
      { data: { ...emptyNode(), children: [emptyNode()] } },
      { token: owner.token, headers: { "if-match": opened } },
    );
    expect(saved.status).toBe(200);
    expect(saved.headers.get("etag")).toBe('"2-1"');
    // …which does not make the details form's ETag stale
    const details = await api.patch(
      treePath(tree._id),
      { title: "Still fine" },
      { token: owner.token, headers: { "if-match": opened } },
    );
    expect(details.status).toBe(200);
    expect(details.headers.get("etag")).toBe('"2-2"');
    // and a title change does not make the editor's structure version stale
    const next = await api.patch(
      treePath(tree._id),
      { data: emptyNode() },
      { token: owner.token, headers: { "if-match": '"2"' } },
    );
    expect(next.status).toBe(200);
  });

  it("refuses a bare structure version on a details update with 400 rather than ignore it", async () => {
    const tree = await createTree(owner.token);
    const response = await api.patch(
      treePath(tree._id),
      { title: "X" },
      { token: owner.token, headers: { "if-match": '"1"' } },
    );
    expect(response.status).toBe(400);
    expect(detailOf(response)).toBe(
      'If-Match of a details update must be the ETag of the tree, e.g. "3-1" (a bare "3" is only the structure\'s version)',
    );
  });

  it("answers 404 for someone else's tree whatever the If-Match", async () => {
    const stranger = await createUser();
    const tree = await createTree(owner.token);
    const response = await api.patch(
      treePath(tree._id),
      { title: "Thief" },
      { token: stranger.token, headers: { "if-match": '"1-9"' } },
    );
    expect(response.status).toBe(404);
    expect(detailOf(response)).toBe("Tree not found");
  });
});
