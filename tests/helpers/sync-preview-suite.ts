// Issue 34, "An update you can preview", on both engines (tests/api/sync-preview.test.ts for
// PostgreSQL, tests/pglite/sync-preview.test.ts for the embedded default): POST
// /api/trees/{id}/import?preview=1 writes nothing and answers what the sync would do, and a save
// that shares no Sim with the tree is refused with 409 unless force=1 (the finding: syncing the
// Schuchardt tree with randomis-2019.save added two strangers without a word).
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeSave, type FixtureSave } from "@/lib/sims4/testing";
import { db } from "@/lib/server/db";
import { SAVE_SHARES_NO_SIM } from "@/lib/server/import/sync-household";
import { api, detailOf, postBytes } from "./api";
import { type TestUser, createUser } from "./factories";

const SAVES = path.resolve("../shared/data/sims4");
const realSave = (name: string) => new Uint8Array(fs.readFileSync(path.join(SAVES, name)));

const BIG = 2n ** 60n;
const id = (n: number) => BIG + BigInt(n);
const HH = id(100);

type Sim = FixtureSave["sims"][number];
const ada: Sim = {
  id: id(1),
  householdId: HH,
  firstName: "Ada",
  lastName: "Preview",
  spouse: id(2),
  age: 32,
};
const bram: Sim = {
  id: id(2),
  householdId: HH,
  firstName: "Bram",
  lastName: "Preview",
  spouse: id(1),
  age: 32,
};
const child = (n: number, firstName: string, age: number): Sim => ({
  id: id(n),
  householdId: HH,
  firstName,
  lastName: "Preview",
  age,
  relations: [
    [0, id(1)],
    [1, id(2)],
  ],
});
const household = (sims: Sim[], householdId = HH) =>
  writeSave({
    activeHouseholdId: householdId,
    households: [{ id: householdId, name: "Preview" }],
    sims,
  });

interface PreviewAnswer {
  tree: { _id: string; version: number };
  preview: {
    sharesNoSim: boolean;
    added: { gameId: string; firstName: string; lastName: string }[];
    addedCount: number;
    updated: {
      _id: string;
      gameId: string;
      firstName: string;
      fields: string[];
      changes: { field: string; from: unknown; to: unknown }[];
    }[];
    updatedCount: number;
    unchanged: number;
    missing: { _id: string; gameId: string; firstName: string }[];
    missingCount: number;
  };
}
interface SyncAnswer {
  changes: {
    added: { firstName: string }[];
    updated: { gameId: string; fields: string[] }[];
    unchanged: number;
  };
}

export function describeSyncPreview(engine: string): void {
  describe(`a sync you can preview on ${engine} (issue 34)`, { timeout: 180_000 }, () => {
    let owner: TestUser;
    beforeAll(async () => {
      owner = await createUser();
    });

    const post = <T>(url: string, bytes: Uint8Array, headers: Record<string, string> = {}) =>
      postBytes<T>(owner.token, url, bytes, headers);
    const imported = async (bytes: Uint8Array, query = "") => {
      const answer = await post<{ tree: { _id: string } }>(`/api/trees/import${query}`, bytes);
      expect(answer.status, detailOf(answer)).toBe(201);
      return answer.body.tree._id;
    };
    const etagOf = async (treeId: string) =>
      (await api.get(`/api/trees/${treeId}`, { token: owner.token })).headers.get("etag")!;
    const namesOf = async (treeId: string) =>
      (await db.person.findMany({ where: { treeId }, select: { firstName: true } }))
        .map((p) => p.firstName)
        .sort();

    it("answers the Sims to add, to update with what changes, unchanged and gone, and writes nothing", async () => {
      const treeId = await imported(
        household([ada, bram, child(3, "Cora", 8), child(5, "Dora", 4)]),
      );
      const etag = await etagOf(treeId);
      const before = await namesOf(treeId);
      // the newer save: Cora renamed and grown up, a baby, and Dora no longer in it
      const newer = household([ada, bram, child(3, "Corinna", 16), child(4, "Baby", 1)]);
      const previewed = await post<PreviewAnswer>(`/api/trees/${treeId}/import?preview=1`, newer);
      expect(previewed.status, detailOf(previewed)).toBe(200);
      expect(previewed.headers.get("etag")).toBe(etag);
      const { preview } = previewed.body;
      expect(preview.sharesNoSim).toBe(false);
      expect(preview.added).toEqual([
        { gameId: String(id(4)), firstName: "Baby", lastName: "Preview" },
      ]);
      expect(preview.addedCount).toBe(1);
      expect(preview.updated.map((p) => [p.gameId, p.fields])).toEqual([
        [String(id(3)), ["firstName", "age"]],
      ]);
      expect(preview.updated[0]!.changes).toEqual([
        { field: "firstName", from: "Cora", to: "Corinna" },
        { field: "age", from: "Teen", to: "Young Adult" },
      ]);
      expect(preview.updatedCount).toBe(1);
      expect(preview.unchanged).toBe(2);
      expect(preview.missing.map((p) => [p.gameId, p.firstName])).toEqual([
        [String(id(5)), "Dora"],
      ]);
      expect(preview.missingCount).toBe(1);
      // nothing was written
      expect(await etagOf(treeId)).toBe(etag);
      expect(await namesOf(treeId)).toEqual(before);
      // applied with the preview's ETag, the sync does what the preview said
      const synced = await post<SyncAnswer>(`/api/trees/${treeId}/import`, newer, {
        "if-match": previewed.headers.get("etag")!,
      });
      expect(synced.status, detailOf(synced)).toBe(200);
      expect(synced.body.changes.added.map((p) => p.firstName)).toEqual(["Baby"]);
      expect(synced.body.changes.updated.map((p) => [p.gameId, p.fields])).toEqual([
        [String(id(3)), ["firstName", "age"]],
      ]);
      expect(synced.body.changes.unchanged).toBe(2);
      // Dora stays: a sync removes no one
      expect(await namesOf(treeId)).toEqual(["Ada", "Baby", "Bram", "Corinna", "Dora"]);
    });

    it("refuses a save that shares no Sim with the tree with 409 unless force=1, and the preview says so", async () => {
      const treeId = await imported(household([ada, bram, child(3, "Cora", 16)]));
      const etag = await etagOf(treeId);
      const OTHER = id(900);
      const strangers = household(
        [
          { id: id(901), householdId: OTHER, firstName: "Stranger", lastName: "One", age: 40 },
          { id: id(902), householdId: OTHER, firstName: "Stranger", lastName: "Two", age: 40 },
        ],
        OTHER,
      );
      const previewed = await post<PreviewAnswer>(
        `/api/trees/${treeId}/import?preview=1`,
        strangers,
      );
      expect(previewed.status).toBe(200);
      expect(previewed.body.preview.sharesNoSim).toBe(true);
      expect(previewed.body.preview.addedCount).toBe(2);
      expect(previewed.body.preview.missingCount).toBe(3);
      const refused = await post(`/api/trees/${treeId}/import`, strangers, { "if-match": etag });
      expect(refused.status).toBe(409);
      expect(detailOf(refused)).toBe(SAVE_SHARES_NO_SIM);
      expect(await etagOf(treeId)).toBe(etag);
      expect(await namesOf(treeId)).toEqual(["Ada", "Bram", "Cora"]);
      const forced = await post<SyncAnswer>(`/api/trees/${treeId}/import?force=1`, strangers, {
        "if-match": etag,
      });
      expect(forced.status, detailOf(forced)).toBe(200);
      expect(forced.body.changes.added).toHaveLength(2);
      expect(await namesOf(treeId)).toEqual(["Ada", "Bram", "Cora", "Stranger", "Stranger"]);
    });

    it("the finding: the Schuchardt tree is not updated from randomis-2019.save without force", async () => {
      const treeId = await imported(realSave("ffrese-2024.save"), "?fileName=ffrese-2024.save");
      const etag = await etagOf(treeId);
      const before = await namesOf(treeId);
      const other = realSave("randomis-2019.save");
      const previewed = await post<PreviewAnswer>(`/api/trees/${treeId}/import?preview=1`, other);
      expect(previewed.status, detailOf(previewed)).toBe(200);
      expect(previewed.body.preview.sharesNoSim).toBe(true);
      expect(previewed.body.preview.addedCount).toBe(2);
      expect(previewed.body.preview.unchanged).toBe(0);
      const refused = await post(`/api/trees/${treeId}/import`, other, { "if-match": etag });
      expect(refused.status).toBe(409);
      expect(detailOf(refused)).toBe(SAVE_SHARES_NO_SIM);
      expect(await namesOf(treeId)).toEqual(before);
      expect(await etagOf(treeId)).toBe(etag);
    });

    it("previews and syncs a tree of two households with both (?household=A&household=B)", async () => {
      const MOVED = id(200);
      // Cora moved out and founded her own household with Dex; the newer save has their baby, and
      // a lodger in the founders' household
      const twoHouseholds = (withBaby: boolean) =>
        writeSave({
          activeHouseholdId: HH,
          households: [
            { id: HH, name: "Preview" },
            { id: MOVED, name: "Preview Junior" },
          ],
          sims: [
            ada,
            bram,
            { ...child(3, "Cora", 16), householdId: MOVED, spouse: id(6) },
            {
              id: id(6),
              householdId: MOVED,
              firstName: "Dex",
              lastName: "Junior",
              age: 16,
              spouse: id(3),
            },
            ...(withBaby
              ? [
                  // a lodger at home, kin to no one: only the founders' household brings him
                  { id: id(8), householdId: HH, firstName: "Ezra", lastName: "Lodger", age: 32 },
                  {
                    id: id(7),
                    householdId: MOVED,
                    firstName: "Baby",
                    lastName: "Junior",
                    age: 1,
                    relations: [
                      [0, id(3)],
                      [1, id(6)],
                    ] as [number, bigint][],
                  },
                ]
              : []),
          ],
        });
      const both = `household=${HH}&household=${MOVED}`;
      const treeId = await imported(twoHouseholds(false), `?${both}`);
      expect(await namesOf(treeId)).toEqual(["Ada", "Bram", "Cora", "Dex"]);
      const previewed = await post<PreviewAnswer>(
        `/api/trees/${treeId}/import?preview=1&${both}`,
        twoHouseholds(true),
      );
      expect(previewed.status, detailOf(previewed)).toBe(200);
      expect(previewed.body.preview.added.map((p) => p.firstName).sort()).toEqual(["Baby", "Ezra"]);
      expect(previewed.body.preview.unchanged).toBe(4);
      expect(previewed.body.preview.missingCount).toBe(0);
      const synced = await post<SyncAnswer>(
        `/api/trees/${treeId}/import?${both}`,
        twoHouseholds(true),
        {
          "if-match": previewed.headers.get("etag")!,
        },
      );
      expect(synced.status, detailOf(synced)).toBe(200);
      expect(synced.body.changes.added.map((p) => p.firstName).sort()).toEqual(["Baby", "Ezra"]);
      expect(await namesOf(treeId)).toEqual(["Ada", "Baby", "Bram", "Cora", "Dex", "Ezra"]);
    });

    it("refuses a preview with a stale If-Match, and bad flags, before reading the save", async () => {
      const treeId = await imported(household([ada, bram]));
      const stale = await post(`/api/trees/${treeId}/import?preview=1`, household([ada]), {
        "if-match": '"99-0"',
      });
      expect(stale.status).toBe(409);
      expect(stale.headers.get("etag")).toBe(await etagOf(treeId));
      const bad = await post(`/api/trees/${treeId}/import?preview=yes`, household([ada]));
      expect(bad.status).toBe(400);
      expect(detailOf(bad)).toContain("preview must be 1 or 0");
    });
  });
}
