// The legacy (issue 33) on both engines: tests/api/legacy.test.ts (PostgreSQL) and
// tests/pglite/legacy.test.ts (the embedded default). Heirs stored under other generation numbers
// never lock the player out; the legacy's settings (founder, succession laws) live beside the tree,
// with If-Match like the tree's; the next heir is suggested by the laws, never applied.
import { beforeAll, describe, expect, it } from "vitest";
import type { TreeNode } from "@/lib/schemas/tree";
import { LEGACY_PER_ACCOUNT, SUGGESTIONS_PER_ACCOUNT } from "@/lib/server/legacy/legacy";
import { hitRateLimit } from "@/lib/server/rate-limit";
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

    describe("GET and PUT /api/trees/{id}/legacy", () => {
      const laws = { gender: "patriarchy", bloodline: "strictTraditional", heir: "firstBorn" };

      it("stores the founder and laws beside the structure, with their own ETag and If-Match", async () => {
        const { tree, data, dev } = await family();
        const first = await api.get(legacyPath(tree._id), { token: owner.token });
        expect(first.status).toBe(200);
        expect(first.body).toEqual({ founder: null, laws: null });
        expect(first.headers.get("etag")).toBe('"1"');
        const before = await api.get<{ version: number }>(`/api/trees/${tree._id}`, {
          token: owner.token,
        });

        const put = await api.put(
          legacyPath(tree._id),
          { laws },
          { token: owner.token, headers: { "if-match": '"1"' } },
        );
        expect(put.status).toBe(200);
        expect(put.body).toEqual({ founder: null, laws });
        expect(put.headers.get("etag")).toBe('"2"');
        // only what is sent changes
        const founder = await api.put(
          legacyPath(tree._id),
          { founder: dev },
          { token: owner.token, headers: { "if-match": '"2"' } },
        );
        expect(founder.body).toEqual({ founder: dev, laws });
        // a write from an older ETag is refused, and says where the settings are now
        const stale = await api.put(
          legacyPath(tree._id),
          { founder: null },
          { token: owner.token, headers: { "if-match": '"2"' } },
        );
        expect(stale.status).toBe(409);
        expect(detailOf(stale)).toBe(
          "This legacy's settings were changed somewhere else (another tab or device) since you opened them. Reload to see those changes, or save over them.",
        );
        expect(stale.headers.get("etag")).toBe('"3"');
        const bad = await api.put(
          legacyPath(tree._id),
          { founder: null },
          { token: owner.token, headers: { "if-match": "yesterday" } },
        );
        expect(bad.status).toBe(400);

        // the structure is untouched: same version, no legacy inside it; a full save keeps them
        const after = await api.get<{ version: number; data: TreeNode }>(`/api/trees/${tree._id}`, {
          token: owner.token,
        });
        expect(after.body.version).toBe(before.body.version);
        expect(JSON.stringify(after.body.data)).not.toContain("patriarchy");
        const resave = await api.patch(`/api/trees/${tree._id}`, { data }, { token: owner.token });
        expect(resave.status).toBe(200);
        const read = await api.get(legacyPath(tree._id), { token: owner.token });
        expect(read.body).toEqual({ founder: dev, laws });
        expect(read.headers.get("etag")).toBe('"3"');
      });

      it.each([
        ["an unknown law", { laws: { ...laws, gender: "monarchy" } }, /gender must be one of/],
        ["a field it does not know", { laws, motto: "x" }, /motto/],
        [
          "an Exemplar trait longer than 60 characters",
          { laws: { ...laws, heir: "exemplar", exemplarTrait: "x".repeat(61) } },
          /at most 60 characters/,
        ],
        ["a founder that is not an id", { founder: "../x" }, /^founder must be a Sim's id$/],
      ])("refuses %s with 400", async (_what, body, detail) => {
        const { tree } = await family();
        const response = await api.put(legacyPath(tree._id), body, { token: owner.token });
        expect(response.status).toBe(400);
        expect(detailOf(response)).toMatch(detail);
      });

      it("refuses a founder who is not a Sim of the tree, and is 404 for someone else's tree", async () => {
        const { tree, dev } = await family();
        const other = await family();
        const outsider = await api.put(
          legacyPath(tree._id),
          { founder: other.ada },
          { token: owner.token },
        );
        expect(outsider.status).toBe(422);
        expect(detailOf(outsider)).toBe(`The founder ${other.ada} is not a Sim of this tree`);
        for (const response of [
          await api.get(legacyPath(tree._id), { token: stranger.token }),
          await api.put(legacyPath(tree._id), { founder: dev }, { token: stranger.token }),
          await api.get(`${legacyPath(tree._id)}/suggestion`, { token: stranger.token }),
          await api.get(legacyPath("no-such-tree"), { token: owner.token }),
        ]) {
          expect(response.status).toBe(404);
          expect(response.body).toEqual({ errors: [{ detail: "Tree not found" }] });
        }
        expect((await api.get(legacyPath(tree._id), { token: owner.token })).body).toEqual({
          founder: null,
          laws: null,
        });
      });

      it("counts the heirs' generations from the founder", async () => {
        const { tree, cora, dev } = await family();
        const root = await putHeirs(tree._id, [cora, dev]);
        expect(detailOf(root)).toBe("Generation 2 can have only one heir");
        await api.put(legacyPath(tree._id), { founder: dev }, { token: owner.token });
        const founded = await putHeirs(tree._id, [cora, dev]);
        expect(detailOf(founded)).toBe("Generation 1 can have only one heir");
      });
    });

    describe("GET /api/trees/{id}/legacy/suggestion", () => {
      it("suggests the next heir by the laws with the reasons, and applies nothing", async () => {
        const tree = await createTree(owner.token, { title: "Succession" });
        const sim = (firstName: string, gender: string) =>
          createPerson(owner.token, tree._id, {
            firstName,
            lastName: "Pleasant",
            custom: [{ title: "Gender", value: gender }],
          });
        const [ada, bea, cora, dev, eli] = await Promise.all([
          sim("Ada", "Female"),
          sim("Bea", "Female"),
          sim("Cora", "Female"),
          sim("Dev", "Male"),
          sim("Eli", "Male"),
        ]);
        const data = n(ada._id, [
          n(bea._id, [], { adoptiveParents: [{ _id: ada._id }] }),
          n(cora._id),
          n(dev._id, [n(eli._id)]),
        ]);
        expect(
          (await api.patch(`/api/trees/${tree._id}`, { data }, { token: owner.token })).status,
        ).toBe(200);
        const path = `${legacyPath(tree._id)}/suggestion`;

        // no laws yet: the children, and no suggestion
        const free = await api.get(path, { token: owner.token });
        expect(free.status).toBe(200);
        expect(free.body).toMatchObject({
          founder: ada._id,
          current: ada._id,
          generation: 2,
          result: null,
        });

        await api.put(
          legacyPath(tree._id),
          { laws: { gender: "patriarchy", bloodline: "strictTraditional", heir: "firstBorn" } },
          { token: owner.token },
        );
        const suggested = await api.get<{
          generation: number;
          candidates: { id: string; adopted: boolean }[];
          result: { suggested: string; eligible: string[]; reasons: { text: string }[] };
        }>(path, { token: owner.token });
        expect(suggested.status).toBe(200);
        expect(suggested.body.generation).toBe(2);
        expect(suggested.body.candidates.map((c) => [c.id, c.adopted])).toEqual([
          [bea._id, true],
          [cora._id, false],
          [dev._id, false],
        ]);
        expect(suggested.body.result.suggested).toBe(dev._id);
        expect(suggested.body.result.reasons.map((r) => r.text)).toEqual([
          "Strict Traditional: Bea Pleasant was adopted.",
          "Patriarchy: Cora Pleasant is not a boy.",
          "Dev Pleasant is the only child who may inherit.",
        ]);
        // never applied: the owner confirms with PUT /heirs
        expect((await api.get(heirsPath(tree._id), { token: owner.token })).body).toEqual({
          heirs: [],
        });
        await putHeirs(tree._id, [dev._id]);
        const next = await api.get(path, { token: owner.token });
        expect(next.body).toMatchObject({ current: dev._id, generation: 3 });
        expect((next.body as { result: { suggested: string } }).result.suggested).toBe(eli._id);
      });
    });

    it("limits settings writes and suggestions per account, counted before any work", async () => {
      const player = await createUser();
      const tree = await createTree(player.token);
      await hitRateLimit(LEGACY_PER_ACCOUNT, player.username, LEGACY_PER_ACCOUNT.limit);
      const write = await api.put(legacyPath(tree._id), { founder: null }, { token: player.token });
      expect(write.status).toBe(429);
      expect(detailOf(write)).toMatch(
        /^You've changed the legacy's settings a lot in the last hour\./,
      );
      expect(write.headers.get("retry-after")).toMatch(/^\d+$/);
      await hitRateLimit(SUGGESTIONS_PER_ACCOUNT, player.username, SUGGESTIONS_PER_ACCOUNT.limit);
      const suggest = await api.get(`${legacyPath(tree._id)}/suggestion`, { token: player.token });
      expect(suggest.status).toBe(429);
      expect(detailOf(suggest)).toMatch(/^You've asked for the next heir a lot in the last hour\./);
      // another account is not held
      const { tree: mine } = await family();
      expect(
        (await api.get(`${legacyPath(mine._id)}/suggestion`, { token: owner.token })).status,
      ).toBe(200);
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
