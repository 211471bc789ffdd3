// The legacy (issue 33) on both engines: tests/api/legacy.test.ts (PostgreSQL) and
// tests/pglite/legacy.test.ts (the embedded default). Heirs stored under other generation numbers
// never lock the player out; the legacy's settings (founder, succession laws) live beside the tree,
// with If-Match like the tree's; the next heir is suggested by the laws, never applied.
import { beforeAll, describe, expect, it } from "vitest";
import type { TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { api, detailOf } from "./api";
import { type TestUser, createPerson, createTree, createUser } from "./factories";

const n = (id: string, children: TreeNode[] = [], extra: Partial<TreeNode> = {}): TreeNode => ({
  ...emptyNode(),
  person: { _id: id },
  children,
  ...extra,
});

export const heirsPath = (treeId: string) => `/api/trees/${treeId}/heirs`;
export const legacyPath = (treeId: string) => `/api/trees/${treeId}/legacy`;

export function describeLegacy(engine: string): void {
  describe(`the legacy on ${engine} (issue 33)`, { timeout: 120_000 }, () => {
    let owner: TestUser;
    let stranger: TestUser;
    beforeAll(async () => {
      [owner, stranger] = await Promise.all([createUser(), createUser()]);
    });

    /** Ada (generation 1) with children Cora and Dev (2), and Dev's child Eli (3). */
    async function family(names = ["Ada", "Cora", "Dev", "Eli"]) {
      const tree = await createTree(owner.token, { title: "Legacy" });
      const [ada, cora, dev, eli] = await Promise.all(
        names.map((firstName) => createPerson(owner.token, tree._id, { firstName })),
      );
      const ids = { ada: ada!._id, cora: cora!._id, dev: dev!._id, eli: eli!._id };
      const data = n(ids.ada, [n(ids.cora), n(ids.dev, [n(ids.eli)])]);
      const saved = await api.patch(`/api/trees/${tree._id}`, { data }, { token: owner.token });
      expect(saved.status).toBe(200);
      return { tree, data, ...ids };
    }
    const putHeirs = (treeId: string, heirs: string[]) =>
      api.put<{ heirs: string[] }>(heirsPath(treeId), { heirs }, { token: owner.token });

    describe("heirs stored under other generation numbers", () => {
      it("never lock the player out: a stored pair that now shares a generation is kept, a new one is not", async () => {
        const { tree, ada, cora, dev, eli } = await family();
        expect((await putHeirs(tree._id, [ada, dev, eli])).status).toBe(200);
        // the owner moves Eli up beside his father: Dev and Eli, both heirs, now share generation 2
        const moved = n(ada, [n(cora), n(dev), n(eli)]);
        const save = await api.patch(
          `/api/trees/${tree._id}`,
          { data: moved },
          { token: owner.token },
        );
        expect(save.status).toBe(200);
        // un-marking Ada sends the two others: before the fix, "Generation 2 can have only one heir"
        const unmark = await putHeirs(tree._id, [dev, eli]);
        expect(detailOf(unmark)).toBeUndefined();
        expect(unmark.status).toBe(200);
        expect(unmark.body).toEqual({ heirs: [dev, eli] });
        const again = await putHeirs(tree._id, [eli, ada, dev]);
        expect(again.status).toBe(200);
        expect(again.body).toEqual({ heirs: [ada, eli, dev] });
        // a new heir beside them is still refused: one heir per generation for what is marked now
        const third = await putHeirs(tree._id, [ada, dev, eli, cora]);
        expect(third.status).toBe(422);
        expect(detailOf(third)).toBe("Generation 2 can have only one heir");
        // marking Cora as the editor does (un-marking her generation's heirs) is accepted
        const cora2 = await putHeirs(tree._id, [ada, cora]);
        expect(cora2.status).toBe(200);
        expect(cora2.body).toEqual({ heirs: [ada, cora] });
        // and a pair that was never stored is refused, as before
        const pair = await putHeirs(tree._id, [dev, eli]);
        expect(pair.status).toBe(422);
        expect(detailOf(pair)).toBe("Generation 2 can have only one heir");
      });
    });

    it("is 404 for someone else's tree", async () => {
      const { tree, dev } = await family();
      const theirs = await api.put(
        heirsPath(tree._id),
        { heirs: [dev] },
        { token: stranger.token },
      );
      expect(theirs.status).toBe(404);
    });
  });
}
