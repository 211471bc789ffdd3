// #13: one test per call of SPEC.md §7, written from the spec's own words (quoted above each), that
// asserts the shape of the answer a client reads. The Plum Tree's own client was written against
// these words; an answer that drifts from them breaks it. Three shapes are being changed in other
// branches and are asserted there: GET /api/published/{id} answering the tree itself, PUT
// /api/user/password keeping the calling token, and GET /api/trees/{id} filling node references
// with names.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { api, call, detailOf } from "../helpers/api";
import { type MailCatcher, findLink, startMailCatcher } from "../helpers/mail";
import { makePng } from "../helpers/upload-fixtures";

const PASSWORD = "correct horse battery";
const unique = (prefix: string) => `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
// Matchers typed as unknown: inside object literals, `any` would defeat the type checks.
const anId: unknown = expect.stringMatching(/^\S+$/);
const aString: unknown = expect.any(String);
const anArray: unknown = expect.any(Array);
/** §8: "Server errors are read from the first entry of an errors list, its detail text". */
const errorShape = { errors: [{ detail: aString }] };
const keysOf = (value: unknown) => Object.keys(value as object).sort();

/** §3 Person: the fields a person answer carries. */
const PERSON_KEYS = [
  "_id",
  "aspirations",
  "avatar",
  "bio",
  "custom",
  "firstName",
  "lastName",
  "lifeStates",
  "links",
  "traits",
  "tree",
].sort();
const personShape = {
  _id: anId,
  tree: anId,
  avatar: null,
  firstName: aString,
  lastName: aString,
  bio: aString,
  traits: anArray,
  aspirations: anArray,
  lifeStates: anArray,
  custom: anArray,
  links: anArray,
};
/** §3 Node: person, partners, children, parentType, parents, adoptiveParents, hidden. */
const nodeShape: unknown = expect.objectContaining({
  person: null,
  partners: [],
  children: anArray,
  parentType: "NONE",
  parents: [],
  adoptiveParents: [],
  hidden: false,
});

let mail: MailCatcher;

beforeAll(async () => {
  mail = await startMailCatcher();
  vi.stubEnv("SMTP_URL", mail.url);
  resetEnvForTests();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  resetEnvForTests();
  await mail.close();
});

async function signUp() {
  const account = {
    username: unique("Contract"),
    email: `${unique("player")}@example.com`,
    password: PASSWORD,
  };
  const response = await api.post<{ token: string }>("/api/account/signup", account);
  expect(response.status).toBe(200);
  return { ...account, token: response.body.token };
}

const treeBody = { title: "The Contract Legacy", description: "<p>One</p>", cover: null };
const personBody = (tree: string) => ({
  tree,
  avatar: null,
  firstName: "Bella",
  lastName: "Goth",
  bio: "<p>Vanished.</p>",
  traits: ["Romantic"],
  aspirations: ["Soulmate"],
  lifeStates: ["Sim"],
  custom: [{ title: "Colour", value: "Black" }],
});

describe("§7 accounts", () => {
  it("POST /api/account/signup {username, email, password} answers {token}", async () => {
    const response = await api.post("/api/account/signup", {
      username: unique("Signup"),
      email: `${unique("s")}@example.com`,
      password: PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ token: aString });
  });

  it("POST /api/account/signin {username, password} answers {token}, which loads GET /api/trees", async () => {
    const account = await signUp();
    const response = await api.post<{ token: string }>("/api/account/signin", {
      username: account.username,
      password: PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ token: aString });
    const trees = await api.get("/api/trees", { token: response.body.token });
    expect(trees.status).toBe(200);
    expect(trees.body).toEqual([]);
  });

  it("POST /api/account/forgotpassword {username} answers a message and sends the reset e-mail", async () => {
    const account = await signUp();
    const since = mail.messages.length;
    const response = await api.post("/api/account/forgotpassword", { username: account.username });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: aString });
    await mail.waitForMail(account.email, { since });
  });

  it("POST /api/account/forgotusername {email} answers a message", async () => {
    const account = await signUp();
    const since = mail.messages.length;
    const response = await api.post("/api/account/forgotusername", { email: account.email });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: aString });
    expect((await mail.waitForMail(account.email, { since })).text).toContain(account.username);
  });

  it('POST /api/account/resetpassword {username, password, token} answers "Password has been saved"', async () => {
    const account = await signUp();
    const since = mail.messages.length;
    await api.post("/api/account/forgotpassword", { username: account.username });
    const link = findLink(
      (await mail.waitForMail(account.email, { since })).text,
      "/reset-password?",
    );
    const response = await api.post("/api/account/resetpassword", {
      username: link.searchParams.get("u"),
      password: "a brand new password",
      token: link.searchParams.get("t"),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: "Password has been saved" });
  });

  it("GET /api/user answers {email, _id}, the _id being the username", async () => {
    const account = await signUp();
    const response = await api.get("/api/user", { token: account.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ email: account.email, _id: account.username });
  });

  it("PUT /api/user/email {email} succeeds (its body is not read)", async () => {
    const account = await signUp();
    const email = `${unique("new")}@example.com`;
    const response = await api.put("/api/user/email", { email }, { token: account.token });
    expect(response.status).toBe(200);
    expect((await api.get("/api/user", { token: account.token })).body).toMatchObject({ email });
  });

  it("DELETE /api/account with body {password} succeeds; the token is then refused with 403", async () => {
    const account = await signUp();
    const response = await call("DELETE", "/api/account", {
      token: account.token,
      body: { password: PASSWORD },
    });
    expect(response.status).toBe(200);
    const after = await api.get("/api/user", { token: account.token });
    expect(after.status).toBe(403);
    expect(detailOf(after)).toBe("You're session expired. Please login again.");
  });
});

describe("§7 trees", () => {
  it("GET /api/trees answers an array of the user's trees (_id, title)", async () => {
    const account = await signUp();
    const created = await api.post<{ _id: string }>("/api/trees", treeBody, {
      token: account.token,
    });
    const response = await api.get("/api/trees", { token: account.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ _id: created.body._id, title: treeBody.title }]);
  });

  it("POST /api/trees {title, description, cover} answers the tree with _id", async () => {
    const account = await signUp();
    const response = await api.post("/api/trees", treeBody, { token: account.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ _id: anId, ...treeBody, data: nodeShape });
  });

  it("GET /api/trees/{treeId} answers the tree {title, description, cover, data}", async () => {
    const account = await signUp();
    const created = await api.post<{ _id: string }>("/api/trees", treeBody, {
      token: account.token,
    });
    const response = await api.get(`/api/trees/${created.body._id}`, { token: account.token });
    expect(response.status).toBe(200);
    // (How node references are filled in is #13.3's, asserted in its own branch.)
    expect(response.body).toMatchObject({ _id: created.body._id, ...treeBody, data: nodeShape });
  });

  it("PATCH /api/trees/{treeId} takes {title, description, cover} for details and {data} for structure", async () => {
    const account = await signUp();
    const { body: tree } = await api.post<{ _id: string }>("/api/trees", treeBody, {
      token: account.token,
    });
    const details = { title: "Renamed", description: "<p>Two</p>", cover: null };
    const patched = await api.patch(`/api/trees/${tree._id}`, details, { token: account.token });
    expect(patched.status).toBe(200);
    const data = {
      person: null,
      partners: [],
      children: [
        {
          person: null,
          partners: [],
          children: [],
          parentType: "NONE",
          parents: [],
          adoptiveParents: [],
          hidden: false,
        },
      ],
      parentType: "NONE",
      parents: [],
      adoptiveParents: [],
      hidden: false,
    };
    const saved = await api.patch(`/api/trees/${tree._id}`, { data }, { token: account.token });
    expect(saved.status).toBe(200);
    const read = await api.get(`/api/trees/${tree._id}`, { token: account.token });
    expect(read.body).toMatchObject({ ...details, data: { children: [nodeShape] } });
  });

  it("DELETE /api/trees/{treeId} succeeds, and the tree is gone", async () => {
    const account = await signUp();
    const { body: tree } = await api.post<{ _id: string }>("/api/trees", treeBody, {
      token: account.token,
    });
    const response = await api.delete(`/api/trees/${tree._id}`, undefined, {
      token: account.token,
    });
    expect(response.status).toBe(200);
    expect((await api.get("/api/trees", { token: account.token })).body).toEqual([]);
    const gone = await api.get(`/api/trees/${tree._id}`, { token: account.token });
    expect({ status: gone.status, body: gone.body as unknown }).toEqual({
      status: 404,
      body: errorShape,
    });
  });
});

describe("§7 publishing", () => {
  it("PUT /api/published/{treeId} with an empty body publishes; GET then answers 200, and 404 before", async () => {
    const account = await signUp();
    const { body: tree } = await api.post<{ _id: string }>("/api/trees", treeBody, {
      token: account.token,
    });
    const before = await api.get(`/api/published/${tree._id}`);
    expect({ status: before.status, body: before.body as unknown }).toEqual({
      status: 404,
      body: errorShape,
    });
    const published = await call("PUT", `/api/published/${tree._id}`, { token: account.token });
    expect(published.status).toBe(200);
    // (The 200 answer's shape is #13.1's, asserted in its own branch.)
    expect((await api.get(`/api/published/${tree._id}`)).status).toBe(200);
  });

  it("DELETE /api/published/{treeId} unpublishes; again, it is 404 (which the client counts as success)", async () => {
    const account = await signUp();
    const { body: tree } = await api.post<{ _id: string }>("/api/trees", treeBody, {
      token: account.token,
    });
    await call("PUT", `/api/published/${tree._id}`, { token: account.token });
    const response = await api.delete(`/api/published/${tree._id}`, undefined, {
      token: account.token,
    });
    expect(response.status).toBe(200);
    expect((await api.get(`/api/published/${tree._id}`)).status).toBe(404);
    const again = await api.delete(`/api/published/${tree._id}`, undefined, {
      token: account.token,
    });
    expect({ status: again.status, body: again.body as unknown }).toEqual({
      status: 404,
      body: errorShape,
    });
  });
});

describe("§7 people", () => {
  async function treeWithPerson() {
    const account = await signUp();
    const { body: tree } = await api.post<{ _id: string }>("/api/trees", treeBody, {
      token: account.token,
    });
    const { body: person } = await api.post<{ _id: string }>("/api/people", personBody(tree._id), {
      token: account.token,
    });
    return { account, tree, person };
  }

  it("GET /api/people?tree={treeId} answers the list of people", async () => {
    const { account, tree, person } = await treeWithPerson();
    const response = await api.get(`/api/people?tree=${tree._id}`, { token: account.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ ...personShape, _id: person._id, tree: tree._id }]);
    expect(keysOf((response.body as unknown[])[0])).toEqual(PERSON_KEYS);
  });

  it("GET /api/people/{personId} answers avatar, firstName, lastName, bio, traits, aspirations, lifeStates, custom, links", async () => {
    const { account, tree, person } = await treeWithPerson();
    const response = await api.get(`/api/people/${person._id}`, { token: account.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...personShape,
      ...personBody(tree._id),
      _id: person._id,
      links: [],
    });
  });

  it("POST /api/people {tree, avatar, firstName, lastName, bio, traits, aspirations, lifeStates, custom} creates the person", async () => {
    const account = await signUp();
    const { body: tree } = await api.post<{ _id: string }>("/api/trees", treeBody, {
      token: account.token,
    });
    const response = await api.post("/api/people", personBody(tree._id), { token: account.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...personShape, ...personBody(tree._id), links: [] });
  });

  it("PUT /api/people/{personId} takes the same body for edits, and {links} whose answer's links refresh the list", async () => {
    const { account, tree, person } = await treeWithPerson();
    const edited = { ...personBody(tree._id), firstName: "Cassandra", traits: ["Geek"] };
    const edit = await api.put(`/api/people/${person._id}`, edited, { token: account.token });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ firstName: "Cassandra", traits: ["Geek"] });

    // "Links may only target public trees": link to a published tree's person.
    const other = await treeWithPerson();
    await call("PUT", `/api/published/${other.tree._id}`, { token: other.account.token });
    const links = [{ title: "My Other Tree", treeId: other.tree._id, personId: other.person._id }];
    const linked = await api.put(`/api/people/${person._id}`, { links }, { token: account.token });
    expect(linked.status).toBe(200);
    expect((linked.body as { links: unknown }).links).toEqual(links);
  });

  it("DELETE /api/people/{personId} succeeds, with the PATCH of tree {data} sent beside it", async () => {
    const { account, tree, person } = await treeWithPerson();
    const response = await api.delete(`/api/people/${person._id}`, undefined, {
      token: account.token,
    });
    expect(response.status).toBe(200);
    expect((await api.get(`/api/people?tree=${tree._id}`, { token: account.token })).body).toEqual(
      [],
    );
  });
});

describe("§7 uploads and version", () => {
  it("GET /api/upload/url?type=&dir= answers {filename, uploadURL}; PUT to uploadURL stores the file", async () => {
    const account = await signUp();
    const response = await api.get<{ filename: string; uploadURL: string }>(
      "/api/upload/url?type=image/png&dir=avatar",
      { token: account.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ filename: aString, uploadURL: aString });
    const target = new URL(response.body.uploadURL);
    const put = await call("PUT", target.pathname + target.search, {
      rawBody: new Uint8Array(await makePng(300, 300)),
      headers: {
        "content-type": "image/png",
        "x-amz-acl": "public-read",
        "x-amz-tagging": "temp=true",
      },
    });
    expect(put.status).toBe(200);
    // "resized /api/upload/{dimensions}/{image} … avatars 200x200"
    const resized = await call("GET", `/api/upload/200x200/${response.body.filename}`);
    expect(resized.status).toBe(200);
    expect(resized.headers.get("content-type")).toMatch(/^image\//);
  });

  it("PUT /api/upload/crop {cropData{x,y,width,height}, image} answers {filename}", async () => {
    const account = await signUp();
    const url = await api.get<{ filename: string; uploadURL: string }>(
      "/api/upload/url?type=image/png&dir=avatar",
      { token: account.token },
    );
    const target = new URL(url.body.uploadURL);
    await call("PUT", target.pathname + target.search, {
      rawBody: new Uint8Array(await makePng(300, 300)),
      headers: { "content-type": "image/png" },
    });
    const response = await api.put(
      "/api/upload/crop",
      { cropData: { x: 10, y: 10, width: 200, height: 200 }, image: url.body.filename },
      { token: account.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ filename: aString });
  });

  it("GET /api/version answers {version, color}", async () => {
    const response = await api.get("/api/version");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ version: aString, color: aString });
  });
});

describe("§6 and §8: how every authenticated call fails", () => {
  it.each([
    ["GET", "/api/user"],
    ["GET", "/api/trees"],
    ["POST", "/api/trees"],
    ["GET", "/api/people?tree=x"],
    ["GET", "/api/upload/url?type=image/png&dir=avatar"],
  ])(
    "%s %s: 403 with the session-expired text for a bad token, the errors list without one",
    async (method, path) => {
      const expired = await call(method, path, {
        token: "not-a-token",
        body: method === "GET" ? undefined : {},
      });
      expect({ status: expired.status, body: expired.body as unknown }).toEqual({
        status: 403,
        body: { errors: [{ detail: "You're session expired. Please login again." }] },
      });
      const anonymous = await call(method, path, { body: method === "GET" ? undefined : {} });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ errors: [{ detail: "Looks like you're not logged in" }] });
    },
  );
});
