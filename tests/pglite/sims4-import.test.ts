import { describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { writeSave, type FixtureSave } from "@/lib/sims4/testing";
import { api, call } from "../helpers/api";
import { createUser } from "../helpers/factories";
import { sims4HostileSuite } from "../helpers/sims4-hostile-suite";

// The Sims 4 import and sync write people with their game ids in bulk (raw SQL): prove them on
// embedded PGlite, the default engine.
const BIG = 2n ** 60n;
const id = (n: number) => BIG + BigInt(n);
const HH = id(100);

function save(withBaby: boolean): FixtureSave {
  return {
    activeHouseholdId: HH,
    households: [{ id: HH, name: "Pglite Kovač" }],
    sims: [
      { id: id(1), householdId: HH, firstName: "Анна", lastName: "Kovač", spouse: id(2), age: 32 },
      { id: id(2), householdId: HH, firstName: "Boris", lastName: "Kovač", spouse: id(1), age: 32 },
      ...(withBaby
        ? [
            {
              id: id(3),
              householdId: HH,
              firstName: "Baby",
              lastName: "Kovač",
              age: 1,
              relations: [
                [0, id(1)],
                [1, id(2)],
              ] as [number, bigint][],
            },
          ]
        : []),
    ],
  };
}

const upload = (
  token: string,
  url: string,
  bytes: Uint8Array,
  headers: Record<string, string> = {},
) =>
  call("POST", url, {
    token,
    rawBody: new Uint8Array(bytes),
    headers: { "content-type": "application/octet-stream", ...headers },
  });

describe("Sims 4 import on embedded PGlite", () => {
  it(
    "lists households, imports with game ids and syncs a newer save",
    { timeout: 300_000 },
    async () => {
      const { token } = await createUser();
      const listed = await upload(token, "/api/trees/import/households", writeSave(save(false)));
      expect(listed.status).toBe(200);
      expect((listed.body as { households: { id: string }[] }).households.map((h) => h.id)).toEqual(
        [HH.toString()],
      );

      const imported = await upload(token, "/api/trees/import", writeSave(save(false)));
      expect(imported.status).toBe(201);
      const tree = (imported.body as { tree: Tree }).tree;
      const people = await api.get<Person[]>(`/api/people?tree=${tree._id}`, { token });
      expect(people.body.map((p) => [p.firstName, p.gameId])).toEqual([
        ["Анна", id(1).toString()],
        ["Boris", id(2).toString()],
      ]);

      // a save from elsewhere makes the first ETag stale: the sync with it is refused and adds nobody
      const opened = await call<Tree>("GET", `/api/trees/${tree._id}`, { token });
      const staleEtag = opened.headers.get("etag")!;
      const elsewhere = await call("PATCH", `/api/trees/${tree._id}`, {
        token,
        body: { data: { ...opened.body.data, hidden: !opened.body.data.hidden } },
        headers: { "If-Match": staleEtag },
      });
      expect(elsewhere.status).toBe(200);
      const stale = await upload(token, `/api/trees/${tree._id}/import`, writeSave(save(true)), {
        "if-match": staleEtag,
      });
      expect(stale.status).toBe(409);
      expect(
        (await api.get<Person[]>(`/api/people?tree=${tree._id}`, { token })).body,
      ).toHaveLength(2);

      const synced = await upload(token, `/api/trees/${tree._id}/import`, writeSave(save(true)), {
        "if-match": elsewhere.headers.get("etag")!,
      });
      expect(synced.status).toBe(200);
      expect(
        (synced.body as { changes: { added: { firstName: string }[] } }).changes.added.map(
          (p) => p.firstName,
        ),
      ).toEqual(["Baby"]);
      const after = await api.get<Person[]>(`/api/people?tree=${tree._id}`, { token });
      expect(after.body.map((p) => p.gameId)).toEqual([id(1), id(2), id(3)].map(String));
    },
  );
});

// issue 32, findings 2, 6 and 14 and the worker-time budget (shared with tests/api)
sims4HostileSuite();
