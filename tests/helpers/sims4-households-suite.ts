// Issue 34 on each engine (tests/api and tests/pglite run this suite): several households of a
// save into one tree (POST /api/trees/import?household=A&household=B, families merged by game id),
// pets with their species, and the household list naming each household's members.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { writeSave, type FixtureSave } from "@/lib/sims4/testing";
import { api, call, detailOf } from "./api";
import { createUser } from "./factories";

const SAVES = path.resolve("../shared/data/sims4");
const realSave = (name: string) => new Uint8Array(fs.readFileSync(path.join(SAVES, name)));

const upload = (token: string, url: string, bytes: Uint8Array) =>
  call("POST", url, {
    token,
    rawBody: new Uint8Array(bytes),
    headers: { "content-type": "application/octet-stream" },
  });

// ids above 2^53, where two of them can be the same JavaScript number
const BIG = 2n ** 62n;
const id = (n: number) => BIG + BigInt(n);
const LEGACY = id(100);
const MOVED = id(200);
const STRANGERS = id(300);

/** A legacy whose daughter moved out and founded her own household with her husband. */
const legacySave = (active: bigint = LEGACY): FixtureSave => ({
  activeHouseholdId: active,
  households: [
    { id: LEGACY, name: "Legacy" },
    { id: MOVED, name: "Moved Out" },
    { id: STRANGERS, name: "Strangers" },
  ],
  sims: [
    { id: id(1), householdId: LEGACY, firstName: "Mum", lastName: "Legacy", spouse: id(2) },
    { id: id(2), householdId: LEGACY, firstName: "Dad", lastName: "Legacy", spouse: id(1) },
    { id: id(8), householdId: LEGACY, firstName: "Rex", lastName: "Legacy", species: 2 },
    {
      id: id(3),
      householdId: MOVED,
      firstName: "Daughter",
      lastName: "Legacy",
      spouse: id(4),
      relations: [
        [0, id(1)],
        [1, id(2)],
      ],
    },
    { id: id(4), householdId: MOVED, firstName: "Husband", lastName: "Wed", spouse: id(3) },
    {
      id: id(5),
      householdId: MOVED,
      firstName: "Grandchild",
      lastName: "Wed",
      relations: [
        [0, id(3)],
        [1, id(4)],
      ],
    },
    { id: id(6), householdId: STRANGERS, firstName: "Stranger", lastName: "Other" },
  ],
});

export function sims4HouseholdsSuite(): void {
  describe("several households into one tree (issue 34)", () => {
    it(
      "merges the households asked for by game id, each Sim once, with exact 64-bit ids",
      { timeout: 120_000 },
      async () => {
        const { token } = await createUser();
        const bytes = writeSave(legacySave());
        const answer = await upload(
          token,
          `/api/trees/import?household=${LEGACY}&household=${MOVED}`,
          bytes,
        );
        expect(answer.status).toBe(201);
        const tree = (answer.body as { tree: Tree }).tree;
        expect(tree.title).toBe("Legacy, Moved Out");
        const people = await api.get<Person[]>(`/api/people?tree=${tree._id}`, { token });
        expect(people.body.map((p) => [p.firstName, p.gameId]).sort()).toEqual(
          [
            ["Dad", id(2)],
            ["Daughter", id(3)],
            ["Grandchild", id(5)],
            ["Husband", id(4)],
            ["Mum", id(1)],
            ["Rex", id(8)],
          ].map(([name, gameId]) => [name, String(gameId)]),
        );
        // the dog is a dog, and nobody's child
        const rex = people.body.find((p) => p.firstName === "Rex")!;
        expect(rex.lifeStates).toEqual(["Dog"]);

        // one household, as before: the daughter's family holds her parents, not the dog
        const one = await upload(token, `/api/trees/import?household=${MOVED}`, bytes);
        expect(one.status).toBe(201);
        const oneTree = (one.body as { tree: Tree }).tree;
        expect(oneTree.title).toBe("Moved Out");
        const onePeople = await api.get<Person[]>(`/api/people?tree=${oneTree._id}`, { token });
        expect(onePeople.body.map((p) => p.firstName).sort()).toEqual([
          "Dad",
          "Daughter",
          "Grandchild",
          "Husband",
          "Mum",
        ]);
      },
    );

    it(
      "takes the active household without any, and refuses a missing one or an absent active one",
      { timeout: 120_000 },
      async () => {
        const { token } = await createUser();
        const active = await upload(token, "/api/trees/import", writeSave(legacySave()));
        expect(active.status).toBe(201);
        expect((active.body as { tree: Tree }).tree.title).toBe("Legacy");

        const missing = await upload(
          token,
          `/api/trees/import?household=${LEGACY}&household=12345`,
          writeSave(legacySave()),
        );
        expect(missing.status).toBe(400);
        expect(detailOf(missing)).toBe(
          "The save has no household 12345. Choose one of the households it lists.",
        );

        // a save whose active household is not among its households: pick one, as before
        const orphan = await upload(token, "/api/trees/import", writeSave(legacySave(id(999))));
        expect(orphan.status).toBe(400);
        expect(detailOf(orphan)).toBe(
          `The save has no household ${id(999)}. Choose one of the households it lists.`,
        );
        const notAnId = await upload(
          token,
          `/api/trees/import?household=${LEGACY}&household=Legacy`,
          writeSave(legacySave()),
        );
        expect(notAnId.status).toBe(400);
        expect(detailOf(notAnId)).toContain("household must be a household id");
      },
    );

    it(
      "imports the Delgatos of the 2019 save with their dog and cat as pets, and lists each household's members",
      { timeout: 120_000 },
      async () => {
        const { token } = await createUser();
        const bytes = realSave("randomis-2019.save");
        const listed = await upload(token, "/api/trees/import/households", bytes);
        expect(listed.status).toBe(200);
        const households = (
          listed.body as { households: { id: string; name: string; memberNames: string[] }[] }
        ).households;
        const delgato = households.find((h) => h.name === "Дельгато")!;
        const linx = households.find((h) => h.name === "Линкс")!;
        expect(delgato.memberNames).toContain("Блу");
        const answer = await upload(
          token,
          `/api/trees/import?household=${delgato.id}&household=${linx.id}`,
          bytes,
        );
        expect(answer.status).toBe(201);
        const tree = (answer.body as { tree: Tree }).tree;
        const people = await api.get<Person[]>(`/api/people?tree=${tree._id}`, { token });
        const states = Object.fromEntries(
          people.body.map((p) => [`${p.firstName} ${p.lastName}`.trim(), p.lifeStates]),
        );
        expect(states["Блу"]).toEqual(["Dog"]);
        expect(states["Бартоломью Б. Биттлбан-старший"]).toEqual(["Cat"]);
        expect(states["Суприя Дельгато"]).toEqual([]);
        expect(people.body).toHaveLength(10);
        // the tree is led by a Sim, never a pet
        const root = tree.data.person!._id;
        expect(people.body.find((p) => p._id === root)!.lifeStates).toEqual([]);
      },
    );
  });
}
