// Heirs (issue 26): kept on the tree outside its structure, one per generation, read with the
// tree, kept through the original client's full-body save and carried into the published copy.
import { beforeAll, describe, expect, it } from "vitest";
import type { PublishedTreeView } from "@/lib/schemas/published";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { api, call } from "../helpers/api";
import { type TestUser, createPerson, createTree, createUser } from "../helpers/factories";

let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  owner = await createUser();
  stranger = await createUser();
});

const n = (id: string, children: TreeNode[] = [], extra: Partial<TreeNode> = {}): TreeNode => ({
  ...emptyNode(),
  person: { _id: id },
  children,
  ...extra,
});

/** Ada (generation 1) with children Cora and Dev (2), and Dev's child Eli (3). */
async function legacy() {
  const tree = await createTree(owner.token, { title: "Heirs" });
  const [ada, cora, dev, eli, outsider] = await Promise.all(
    ["Ada", "Cora", "Dev", "Eli", "Olga"].map((firstName) =>
      createPerson(owner.token, tree._id, { firstName }),
    ),
  );
  const data = n(ada!._id, [n(cora!._id), n(dev!._id, [n(eli!._id)])]);
  const saved = await api.patch(`/api/trees/${tree._id}`, { data }, { token: owner.token });
  expect(saved.status).toBe(200);
  return { tree, data, ada: ada!, cora: cora!, dev: dev!, eli: eli!, outsider: outsider! };
}

const heirsPath = (treeId: string) => `/api/trees/${treeId}/heirs`;

// publishing and a ZIP round trip take a while on a busy machine
describe("PUT /api/trees/{treeId}/heirs", { timeout: 180_000 }, () => {
  it("stores the heirs oldest generation first and the tree answers them", async () => {
    const { tree, ada, dev, eli } = await legacy();
    expect((await api.get(heirsPath(tree._id), { token: owner.token })).body).toEqual({
      heirs: [],
    });
    const put = await api.put(
      heirsPath(tree._id),
      { heirs: [eli._id, ada._id, dev._id] },
      { token: owner.token },
    );
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ heirs: [ada._id, dev._id, eli._id] });
    const read = await api.get<Tree>(`/api/trees/${tree._id}`, { token: owner.token });
    expect(read.body.heirs).toEqual([ada._id, dev._id, eli._id]);
  });

  it("keeps the heirs through a full-body save of the structure, as the original client sends", async () => {
    const { tree, data, dev } = await legacy();
    await api.put(heirsPath(tree._id), { heirs: [dev._id] }, { token: owner.token });
    const resave = await api.patch(`/api/trees/${tree._id}`, { data }, { token: owner.token });
    expect(resave.status).toBe(200);
    const details = await api.patch(
      `/api/trees/${tree._id}`,
      { title: "Renamed" },
      { token: owner.token },
    );
    expect(details.status).toBe(200);
    expect((await api.get(heirsPath(tree._id), { token: owner.token })).body).toEqual({
      heirs: [dev._id],
    });
  });

  it("carries the heirs into the published copy", async () => {
    const { tree, cora } = await legacy();
    await api.put(heirsPath(tree._id), { heirs: [cora._id] }, { token: owner.token });
    expect(
      (await api.put(`/api/published/${tree._id}`, undefined, { token: owner.token })).status,
    ).toBe(200);
    const published = await api.get<PublishedTreeView>(`/api/published/${tree._id}`);
    expect(published.body.heirs).toEqual([cora._id]);
  });

  it.each([
    [
      "two heirs of one generation",
      (p: Awaited<ReturnType<typeof legacy>>) => [p.cora._id, p.dev._id],
      422,
      "Generation 2 can have only one heir",
    ],
    [
      "a Sim not placed in the tree",
      (p: Awaited<ReturnType<typeof legacy>>) => [p.outsider._id],
      422,
      `The heir ${"OUTSIDER"} is not placed in this tree`,
    ],
    [
      "the same Sim twice",
      (p: Awaited<ReturnType<typeof legacy>>) => [p.ada._id, p.ada._id],
      400,
      "A Sim can be an heir only once",
    ],
  ])("refuses %s", async (_what, heirsOf, status, detail) => {
    const people = await legacy();
    const response = await api.put(
      heirsPath(people.tree._id),
      { heirs: heirsOf(people) },
      { token: owner.token },
    );
    expect(response.status).toBe(status);
    expect(response.body).toEqual({
      errors: [{ detail: detail.replace("OUTSIDER", people.outsider._id) }],
    });
    expect((await api.get(heirsPath(people.tree._id), { token: owner.token })).body).toEqual({
      heirs: [],
    });
  });

  it("refuses a body that is not a list of ids, and is 404 for someone else's tree", async () => {
    const { tree, ada } = await legacy();
    const bad = await api.put<{ errors: { detail: string }[] }>(
      heirsPath(tree._id),
      { heirs: "ada" },
      { token: owner.token },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]?.detail).toMatch(/heirs/);
    const theirs = await api.put(
      heirsPath(tree._id),
      { heirs: [ada._id] },
      { token: stranger.token },
    );
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ errors: [{ detail: "Tree not found" }] });
    expect((await api.get(heirsPath(tree._id), { token: stranger.token })).status).toBe(404);
  });

  it("travel through the backup ZIP: export, then import as a new tree with the new ids", async () => {
    const { tree, ada, dev, eli } = await legacy();
    await api.put(
      heirsPath(tree._id),
      { heirs: [ada._id, dev._id, eli._id] },
      { token: owner.token },
    );
    const exported = await call("GET", `/api/trees/${tree._id}/export`, { token: owner.token });
    expect(exported.status).toBe(200);
    const imported = await call<{ tree: Tree }>("POST", "/api/trees/import", {
      token: owner.token,
      rawBody: new Uint8Array(exported.bytes),
      headers: { "content-type": "application/zip" },
    });
    expect(imported.status).toBe(201);
    const copy = imported.body.tree;
    const read = await api.get<Tree>(`/api/trees/${copy._id}`, { token: owner.token });
    // the copy's heirs are its own Sims, in the same places: founder, then down Dev's line
    const root = read.body.data;
    const devNode = root.children[1]!;
    expect(read.body.heirs).toEqual([
      root.person!._id,
      devNode.person!._id,
      devNode.children[0]!.person!._id,
    ]);
    expect(read.body.heirs).not.toContain(ada._id);
  });
});
