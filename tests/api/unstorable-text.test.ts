import { beforeAll, describe, expect, it } from "vitest";
import { api, detailOf } from "../helpers/api";
import { createPerson, createTree, createUser, type TestUser } from "../helpers/factories";

// PostgreSQL stores neither NUL nor unpaired surrogates; such text must be a clear 400, not a 500.
const DETAIL = "Text cannot contain NUL characters or unpaired surrogates";
const NUL = "Bella\u0000Goth";
const LONE_SURROGATE = "Bella\ud800Goth";

let owner: TestUser;
let treeId: string;
let personId: string;

beforeAll(async () => {
  owner = await createUser();
  treeId = (await createTree(owner.token, { title: "Unchanged" }))._id;
  personId = (await createPerson(owner.token, treeId, { firstName: "Unchanged" }))._id;
});

describe("text PostgreSQL cannot store", () => {
  const cases = [
    ["a tree title with NUL", () => api.post("/api/trees", { title: NUL }, { token: owner.token })],
    [
      "a tree title with a lone surrogate",
      () => api.post("/api/trees", { title: LONE_SURROGATE }, { token: owner.token }),
    ],
    [
      "a details update with NUL",
      () => api.patch(`/api/trees/${treeId}`, { title: NUL }, { token: owner.token }),
    ],
    [
      "a person name with NUL",
      () =>
        api.put(
          `/api/people/${personId}`,
          { tree: treeId, firstName: NUL },
          { token: owner.token },
        ),
    ],
    [
      "a custom row with a lone surrogate",
      () =>
        api.post(
          "/api/people",
          { tree: treeId, custom: [{ title: LONE_SURROGATE, value: "x" }] },
          { token: owner.token },
        ),
    ],
    [
      "a link title with NUL",
      () =>
        api.put(
          `/api/people/${personId}`,
          { links: [{ title: NUL, treeId, personId }] },
          { token: owner.token },
        ),
    ],
    [
      "an object key with NUL",
      () => api.post("/api/trees", { [NUL]: "x", title: "ok" }, { token: owner.token }),
    ],
    [
      "a signup username with NUL",
      () =>
        api.post("/api/account/signup", {
          username: NUL,
          email: "a@b.co",
          password: "long enough",
        }),
    ],
  ] as const;

  it.each(cases)("refuses %s with 400", async (_name, send) => {
    const response = await send();
    expect(response.status).toBe(400);
    expect(detailOf(response)).toBe(DETAIL);
  });

  it("changed nothing while refusing", async () => {
    const trees = await api.get<{ _id: string; title: string }[]>("/api/trees", {
      token: owner.token,
    });
    expect(trees.body).toEqual([{ _id: treeId, title: "Unchanged" }]);
    const person = await api.get<{ firstName: string; links: unknown[] }>(
      `/api/people/${personId}`,
      { token: owner.token },
    );
    expect(person.body.firstName).toBe("Unchanged");
    expect(person.body.links).toEqual([]);
  });
});

describe("path parameters PostgreSQL cannot store", () => {
  it.each([
    "/api/trees/%00",
    "/api/people/%00",
    "/api/published/%00",
    "/api/upload/orig/avatar/a%00.png",
  ])("GET %s is a 404", async (path) => {
    const response = await api.get(path, { token: owner.token });
    expect(response.status).toBe(404);
    expect(detailOf(response)).toBeTruthy();
  });
});
