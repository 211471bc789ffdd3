// Every authenticated route × {no token, forged tokens, another user's token} against one owner's
// tree, person and publication: exact status and body (so nothing leaks) and no change after.
import { SignJWT, decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { db } from "@/lib/server/db";
import { api, call } from "../helpers/api";
import {
  DEFAULT_PASSWORD,
  type TestUser,
  createPerson,
  createTree,
  createUser,
} from "../helpers/factories";

const SECRET_TITLE = "Owner's secret legacy";
const SECRET_NAME = "Secretina";
const NOT_LOGGED_IN = "Looks like you're not logged in";
const SESSION_EXPIRED = "You're session expired. Please login again.";

interface Fixture {
  user: TestUser;
  tree: Tree;
  person: Person;
}

async function ownerFixture(): Promise<Fixture> {
  const user = await createUser();
  const tree = await createTree(user.token, { title: SECRET_TITLE, description: "<p>Private</p>" });
  const person = await createPerson(user.token, tree._id, { firstName: SECRET_NAME });
  const data = { ...emptyNode(), person: { _id: person._id } };
  expect((await api.patch(`/api/trees/${tree._id}`, { data }, { token: user.token })).status).toBe(
    200,
  );
  expect(
    (await api.put(`/api/published/${tree._id}`, undefined, { token: user.token })).status,
  ).toBe(200);
  return { user, tree: { ...tree, data, version: 2 }, person };
}

/** Everything the owner can see, to prove that a refused call changed nothing. */
async function ownerState({ user, tree, person }: Fixture) {
  const token = user.token;
  const read = async (path: string) => {
    const response = await api.get(path, { token });
    return { status: response.status, body: response.body as unknown };
  };
  return {
    trees: await read("/api/trees"),
    tree: await read(`/api/trees/${tree._id}`),
    people: await read(`/api/people?tree=${tree._id}`),
    person: await read(`/api/people/${person._id}`),
    published: await read(`/api/published/${tree._id}`),
    account: await db.user.findUnique({
      where: { id: user.username },
      select: { email: true, passwordHash: true, accountId: true },
    }),
    treeRows: await db.tree.count({ where: { ownerId: user.username } }),
  };
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
interface RouteCase {
  name: string;
  method: Method;
  path: (f: Fixture) => string;
  /** A body that the owner's own token would get accepted. */
  body?: (f: Fixture) => unknown;
  /** For a route on the owner's resource: the 404 detail another user gets. */
  otherUserDetail?: string;
}

const routes: RouteCase[] = [
  { name: "GET /api/trees", method: "GET", path: () => "/api/trees" },
  {
    name: "POST /api/trees",
    method: "POST",
    path: () => "/api/trees",
    body: () => ({ title: "New" }),
  },
  {
    name: "GET /api/trees/{id}",
    method: "GET",
    path: (f) => `/api/trees/${f.tree._id}`,
    otherUserDetail: "Tree not found",
  },
  {
    name: "PATCH /api/trees/{id} details",
    method: "PATCH",
    path: (f) => `/api/trees/${f.tree._id}`,
    body: () => ({ title: "Hacked", description: "<p>Hacked</p>" }),
    otherUserDetail: "Tree not found",
  },
  {
    name: "PATCH /api/trees/{id} data",
    method: "PATCH",
    path: (f) => `/api/trees/${f.tree._id}`,
    body: () => ({ data: emptyNode() }),
    otherUserDetail: "Tree not found",
  },
  {
    name: "DELETE /api/trees/{id}",
    method: "DELETE",
    path: (f) => `/api/trees/${f.tree._id}`,
    otherUserDetail: "Tree not found",
  },
  {
    name: "GET /api/people?tree=",
    method: "GET",
    path: (f) => `/api/people?tree=${f.tree._id}`,
    otherUserDetail: "Tree not found",
  },
  {
    name: "POST /api/people",
    method: "POST",
    path: () => "/api/people",
    body: (f) => ({ tree: f.tree._id, firstName: "Intruder" }),
    otherUserDetail: "Tree not found",
  },
  {
    name: "GET /api/people/{id}",
    method: "GET",
    path: (f) => `/api/people/${f.person._id}`,
    otherUserDetail: "Person not found",
  },
  {
    name: "PUT /api/people/{id} fields",
    method: "PUT",
    path: (f) => `/api/people/${f.person._id}`,
    body: () => ({ firstName: "Hacked", bio: "<p>Hacked</p>" }),
    otherUserDetail: "Person not found",
  },
  {
    name: "PUT /api/people/{id} links",
    method: "PUT",
    path: (f) => `/api/people/${f.person._id}`,
    body: (f) => ({ links: [{ title: "Self", treeId: f.tree._id, personId: f.person._id }] }),
    otherUserDetail: "Person not found",
  },
  {
    name: "DELETE /api/people/{id}",
    method: "DELETE",
    path: (f) => `/api/people/${f.person._id}`,
    otherUserDetail: "Person not found",
  },
  {
    name: "PUT /api/published/{id}",
    method: "PUT",
    path: (f) => `/api/published/${f.tree._id}`,
    otherUserDetail: "Tree not found",
  },
  {
    name: "DELETE /api/published/{id}",
    method: "DELETE",
    path: (f) => `/api/published/${f.tree._id}`,
    otherUserDetail: "This tree is not published",
  },
  { name: "GET /api/user", method: "GET", path: () => "/api/user" },
  {
    name: "PUT /api/user/email",
    method: "PUT",
    path: () => "/api/user/email",
    body: () => ({ email: "hacked@example.test" }),
  },
  {
    name: "PUT /api/user/password",
    method: "PUT",
    path: () => "/api/user/password",
    body: () => ({
      oldPassword: DEFAULT_PASSWORD,
      newPassword: "hacked-password",
      confirmPassword: "hacked-password",
    }),
  },
  {
    name: "DELETE /api/account",
    method: "DELETE",
    path: () => "/api/account",
    body: () => ({ password: DEFAULT_PASSWORD }),
  },
];

const testSecret = () => new TextEncoder().encode(process.env.JWT_SECRET);
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

interface Credential {
  name: string;
  headers: (f: Fixture) => Promise<Record<string, string>>;
  status: number;
  detail: string;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Credentials that must never reach the owner's data (the owner's username in each claim). */
const badCredentials: Credential[] = [
  { name: "no token", headers: async () => ({}), status: 401, detail: NOT_LOGGED_IN },
  {
    name: "an empty bearer",
    headers: async () => ({ authorization: "Bearer " }),
    status: 401,
    detail: NOT_LOGGED_IN,
  },
  {
    name: "a Basic header",
    headers: async (f) => ({
      authorization: `Basic ${Buffer.from(`${f.user.username}:${DEFAULT_PASSWORD}`).toString("base64")}`,
    }),
    status: 401,
    detail: NOT_LOGGED_IN,
  },
  {
    name: "a token that is not a JWT",
    headers: async () => bearer("not-a-jwt"),
    status: 403,
    detail: SESSION_EXPIRED,
  },
  {
    name: "a token signed with another key",
    headers: async (f) =>
      bearer(
        await new SignJWT(decodeJwt(f.user.token))
          .setProtectedHeader({ alg: "HS256" })
          .setExpirationTime("1h")
          .sign(new TextEncoder().encode("an-attacker-key-that-is-32-characters-long!")),
      ),
    status: 403,
    detail: SESSION_EXPIRED,
  },
  {
    name: 'an unsigned token (alg "none")',
    headers: async (f) =>
      bearer(`${base64url({ alg: "none", typ: "JWT" })}.${base64url(decodeJwt(f.user.token))}.`),
    status: 403,
    detail: SESSION_EXPIRED,
  },
  {
    name: "an expired token",
    headers: async (f) =>
      bearer(
        await new SignJWT({ ...decodeJwt(f.user.token), exp: undefined })
          .setProtectedHeader({ alg: "HS256" })
          .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
          .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
          .sign(testSecret()),
      ),
    status: 403,
    detail: SESSION_EXPIRED,
  },
  {
    name: "a token of a revoked session (no such session)",
    headers: async (f) =>
      bearer(
        await new SignJWT({ ...decodeJwt(f.user.token), sid: crypto.randomUUID() })
          .setProtectedHeader({ alg: "HS256" })
          .setExpirationTime("1h")
          .sign(testSecret()),
      ),
    status: 403,
    detail: SESSION_EXPIRED,
  },
];

describe("authorization matrix", () => {
  let fixture: Fixture;
  let other: TestUser;
  let initial: Awaited<ReturnType<typeof ownerState>>;

  beforeAll(async () => {
    fixture = await ownerFixture();
    other = await createUser();
    initial = await ownerState(fixture);
  });

  const send = async (route: RouteCase, headers: Record<string, string>) =>
    call(route.method, route.path(fixture), { headers, body: route.body?.(fixture) });

  describe.each(routes)("$name", (route) => {
    it.each(badCredentials)("with $name → $status", async (credential) => {
      const response = await send(route, await credential.headers(fixture));
      expect(response.status).toBe(credential.status);
      expect(response.body).toEqual({ errors: [{ detail: credential.detail }] });
      expect(await ownerState(fixture)).toEqual(initial);
    });

    if (route.otherUserDetail) {
      const detail = route.otherUserDetail;
      it("with another user's token → 404, nothing leaked", async () => {
        const response = await send(route, bearer(other.token));
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ errors: [{ detail }] });
        const text = response.bytes.toString("utf8");
        for (const secret of [SECRET_TITLE, SECRET_NAME, fixture.person._id]) {
          expect(text).not.toContain(secret);
        }
        expect(await ownerState(fixture)).toEqual(initial);
      });
    }
  });

  it("another user's list and new trees never include the owner's", async () => {
    const list = await api.get<{ _id: string }[]>("/api/trees", { token: other.token });
    expect(list.status).toBe(200);
    expect(list.body.map((t) => t._id)).not.toContain(fixture.tree._id);
    const created = await api.post("/api/trees", { title: "Mine" }, { token: other.token });
    expect(created.status).toBe(200);
    expect(await ownerState(fixture)).toEqual(initial);
  });

  it("another user may read the public copy, like anyone (read-only)", async () => {
    const response = await api.get(`/api/published/${fixture.tree._id}`, { token: other.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(initial.published.body);
  });
});

describe("control: the owner's own token is accepted on every route", () => {
  it.each(routes)("$name", async (route) => {
    const fixture = await ownerFixture();
    const response = await call(route.method, route.path(fixture), {
      token: fixture.user.token,
      body: route.body?.(fixture),
    });
    expect(response.status).toBe(200);
  });
});
