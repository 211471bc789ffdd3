import { describe, expect, it } from "vitest";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { api } from "../helpers/api";
import { createPerson, createTree, createUser } from "../helpers/factories";

// The structure save, person delete and publish paths use raw SQL; prove them on embedded PGlite.
const node = (personId: string | null, children: TreeNode[] = []): TreeNode => ({
  person: personId ? { _id: personId } : null,
  partners: [],
  children,
  parentType: "NONE",
  parents: [],
  adoptiveParents: [],
  hidden: false,
});

describe("trees on embedded PGlite", () => {
  it("saves a structure with If-Match, scrubs a deleted person and publishes a snapshot", async () => {
    const { token } = await createUser();
    const tree = await createTree(token, { title: "PGlite Legacy" });
    const founder = await createPerson(token, tree._id, { firstName: "Founder" });
    const child = await createPerson(token, tree._id, { firstName: "Child" });

    const data = node(founder._id, [node(child._id)]);
    const saved = await api.patch<{ version: number }>(
      `/api/trees/${tree._id}`,
      { data },
      {
        token,
        headers: { "if-match": `"${tree.version}"` },
      },
    );
    expect(saved.status).toBe(200);
    const stale = await api.patch(
      `/api/trees/${tree._id}`,
      { data: node(null) },
      {
        token,
        headers: { "if-match": `"${tree.version}"` },
      },
    );
    expect(stale.status).toBe(409);

    expect((await api.delete(`/api/people/${child._id}`, undefined, { token })).status).toBe(200);
    const after = await api.get<Tree>(`/api/trees/${tree._id}`, { token });
    expect(after.body.data.children[0]!.person).toBeNull();
    // with the person's names, as the original client reads them (issue 13), on PGlite too
    expect(after.body.data.person).toEqual({
      _id: founder._id,
      firstName: founder.firstName,
      lastName: founder.lastName,
    });

    expect((await api.put(`/api/published/${tree._id}`, undefined, { token })).status).toBe(200);
    const published = await api.get<{ title: string; people: { firstName: string }[] }>(
      `/api/published/${tree._id}`,
    );
    expect(published.status).toBe(200);
    expect(published.body.title).toBe("PGlite Legacy");
    expect(published.body.people.map((p) => p.firstName)).toEqual(["Founder"]);
  });
});
