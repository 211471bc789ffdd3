import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { readSims4 } from "@/lib/sims4";
import {
  writeDbpf,
  writeSave,
  writeTrayItem,
  type FixtureSave,
  type FixtureSim,
} from "@/lib/sims4/testing";
import { db } from "@/lib/server/db";
import { call, detailOf } from "../helpers/api";
import { createUser, type TestUser } from "../helpers/factories";
import { sims4HostileSuite } from "../helpers/sims4-hostile-suite";

const SAVES = path.resolve("../shared/data/sims4");

interface ImportAnswer {
  tree: Tree;
  imported: { people: number; notes: string[]; families: number };
}
interface HouseholdsAnswer {
  households: { id: string; name: string; members: number; family: number; preview: string[] }[];
}
interface SyncAnswer {
  tree: { _id: string; version: number };
  changes: {
    added: { _id: string; gameId: string; firstName: string; lastName: string }[];
    updated: { _id: string; gameId: string; fields: string[] }[];
    unchanged: number;
  };
}

const users: TestUser[] = [];
async function newUser(): Promise<TestUser> {
  const user = await createUser();
  users.push(user);
  return user;
}
afterAll(async () => {
  await db.user.deleteMany({ where: { id: { in: users.map((u) => u.username) } } });
});

const post = <T>(
  token: string,
  url: string,
  bytes: Uint8Array,
  headers: Record<string, string> = {},
) =>
  call<T>("POST", url, {
    token,
    rawBody: new Uint8Array(bytes),
    headers: { "content-type": "application/octet-stream", ...headers },
  });

async function peopleOf(token: string, treeId: string): Promise<Person[]> {
  const response = await call<Person[]>("GET", `/api/people?tree=${treeId}`, { token });
  expect(response.status).toBe(200);
  return response.body;
}

const treeCount = (ownerId: string) => db.tree.count({ where: { ownerId } });

const BIG = 2n ** 60n;
const id = (n: number) => BIG + BigInt(n);
const HH = id(500);

function legacy(extra: FixtureSim[] = [], spouseOfCleo?: bigint): FixtureSave {
  return {
    activeHouseholdId: HH,
    households: [
      { id: HH, name: "Kovač" },
      { id: id(600), name: "Neighbours" },
    ],
    sims: [
      {
        id: id(1),
        householdId: HH,
        firstName: "Анна",
        lastName: "Kovač",
        gender: 8192,
        age: 32,
        spouse: id(2),
        traits: [27454],
      },
      {
        id: id(2),
        householdId: HH,
        firstName: "Boris",
        lastName: "Kovač",
        gender: 4096,
        age: 32,
        spouse: id(1),
      },
      {
        id: id(3),
        householdId: HH,
        firstName: "Cléo",
        lastName: "Kovač",
        gender: 8192,
        age: 16,
        relations: [
          [0, id(1)],
          [1, id(2)],
        ],
        ...(spouseOfCleo ? { spouse: spouseOfCleo } : {}),
      },
      { id: id(9), householdId: id(600), firstName: "Nina", lastName: "Next", age: 32 },
      ...extra,
    ],
  };
}

describe("POST /api/trees/import/households", () => {
  it.each([
    ["ffrese-2024.save", "Schuchardt", 29],
    ["randomis-2019.save", "Неформал", 80],
  ])("lists the households of %s, the active one first", async (file, first, count) => {
    const user = await newUser();
    const bytes = new Uint8Array(fs.readFileSync(path.join(SAVES, file)));
    const response = await post<HouseholdsAnswer>(
      user.token,
      "/api/trees/import/households",
      bytes,
    );
    expect(response.status).toBe(200);
    const { households } = response.body;
    expect(households).toHaveLength(count);
    expect(households[0]!.name).toBe(first);
    const save = readSims4(bytes);
    for (const h of households) {
      expect(h.id).toMatch(/^\d+$/);
      expect(h.members).toBe(save.sims.filter((s) => s.householdId === h.id).length);
    }
    expect(await treeCount(user.username)).toBe(0);
  });

  it("answers ids above 2^53 as exact decimal strings", async () => {
    const user = await newUser();
    const response = await post<HouseholdsAnswer>(
      user.token,
      "/api/trees/import/households",
      writeSave(legacy()),
    );
    expect(response.body).toEqual({
      households: [
        {
          id: HH.toString(),
          name: "Kovač",
          members: 3,
          family: 3,
          preview: ["Анна Kovač", "Boris Kovač", "Cléo Kovač"],
          memberNames: ["Анна Kovač", "Boris Kovač", "Cléo Kovač"],
        },
        {
          id: id(600).toString(),
          name: "Neighbours",
          members: 1,
          family: 1,
          preview: ["Nina Next"],
          memberNames: ["Nina Next"],
        },
      ],
    });
    expect(response.bytes.toString()).toContain(`"${HH.toString()}"`);
  });

  it("refuses a file that is no save, and needs a session", async () => {
    const user = await newUser();
    const text = await post(
      user.token,
      "/api/trees/import/households",
      new TextEncoder().encode("hello"),
    );
    expect(text.status).toBe(400);
    expect(detailOf(text)).toMatch(/not a Sims 4 save/);
    const anonymous = await call("POST", "/api/trees/import/households", {
      rawBody: new Uint8Array(writeSave(legacy())),
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("POST /api/trees/import with a Sims 4 save", () => {
  it("imports the active household's family of a real save, with the Sims' names", async () => {
    const user = await newUser();
    const bytes = new Uint8Array(fs.readFileSync(path.join(SAVES, "ffrese-2024.save")));
    const response = await post<ImportAnswer>(user.token, "/api/trees/import", bytes);
    expect(response.status).toBe(201);
    const people = await peopleOf(user.token, response.body.tree._id);
    const save = readSims4(bytes);
    const members = save.sims.filter((s) => s.householdId === save.activeHouseholdId);
    expect(people.map((p) => `${p.firstName} ${p.lastName}`).sort()).toEqual(
      members.map((s) => `${s.firstName} ${s.lastName}`).sort(),
    );
    expect(people.map((p) => p.gameId).sort()).toEqual(members.map((s) => s.id).sort());
    expect(response.body.tree.title).toBe("Schuchardt");
  });

  it("imports the household asked for, and refuses one the save does not have", async () => {
    const user = await newUser();
    const ok = await post<ImportAnswer>(
      user.token,
      `/api/trees/import?household=${id(600)}`,
      writeSave(legacy()),
    );
    expect(ok.status).toBe(201);
    expect((await peopleOf(user.token, ok.body.tree._id)).map((p) => p.firstName)).toEqual([
      "Nina",
    ]);
    const missing = await post(user.token, "/api/trees/import?household=42", writeSave(legacy()));
    expect(missing.status).toBe(400);
    expect(detailOf(missing)).toMatch(/no household 42/);
    const badId = await post(user.token, "/api/trees/import?household=abc", writeSave(legacy()));
    expect(badId.status).toBe(400);
    expect(await treeCount(user.username)).toBe(1);
  });

  it("imports a tray item's household", async () => {
    const user = await newUser();
    const tray = writeTrayItem({
      id: id(7000),
      name: "Gallery",
      sims: [
        { id: id(71), firstName: "Mum", lastName: "Gallery", age: 32 },
        { id: id(72), firstName: "Kid", lastName: "Gallery", age: 4, relations: [[0, id(71)]] },
      ],
    });
    const response = await post<ImportAnswer>(user.token, "/api/trees/import", tray);
    expect(response.status).toBe(201);
    expect(response.body.tree.data.children.map((c) => c.person?._id)).toHaveLength(1);
    expect((await peopleOf(user.token, response.body.tree._id)).map((p) => p.gameId)).toEqual([
      id(71).toString(),
      id(72).toString(),
    ]);
  });

  it("refuses hostile saves with a sentence and stores nothing", async () => {
    const user = await newUser();
    const good = writeSave(legacy());
    const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
    const pastEnd = good.slice();
    view(pastEnd).setUint32(0x40, 90_000_000, true);
    const absurd = good.slice();
    view(absurd).setUint32(0x24, 0xffffffff, true);
    const bomb = writeDbpf([
      { type: 0x0d, data: Uint8Array.from([0x10, 0xfb, 0xff, 0xff, 0xff, 0xfc]) },
    ]);
    const bombView = view(bomb);
    const entry = bombView.getUint32(0x40, true) + 8;
    bombView.setUint32(entry + 20, 0xffffff, true);
    bombView.setUint16(entry + 24, 0xffff, true);
    for (const [bytes, detail] of [
      [pastEnd, /past the end/],
      [absurd, /resources/],
      [bomb, /damaged/],
      [good.subarray(0, 300), /truncated|damaged/],
    ] as const) {
      for (const url of ["/api/trees/import", "/api/trees/import/households"]) {
        const response = await post(user.token, url, bytes);
        expect(response.status).toBe(400);
        expect(detailOf(response)).toMatch(detail);
      }
    }
    expect(await treeCount(user.username)).toBe(0);
  });
});

describe("Person.gameId", () => {
  it("is kept when a client (the original one) saves a person without it", async () => {
    const user = await newUser();
    const imported = await post<ImportAnswer>(user.token, "/api/trees/import", writeSave(legacy()));
    const [anna] = await peopleOf(user.token, imported.body.tree._id);
    expect(anna!.gameId).toBe(id(1).toString());
    const { gameId: _omitted, ...withoutGameId } = anna!;
    const saved = await call<Person>("PUT", `/api/people/${anna!._id}`, {
      token: user.token,
      body: { ...withoutGameId, firstName: "Anna" },
    });
    expect(saved.status).toBe(200);
    expect([saved.body.firstName, saved.body.gameId]).toEqual(["Anna", id(1).toString()]);
    const bad = await call("PUT", `/api/people/${anna!._id}`, {
      token: user.token,
      body: { ...withoutGameId, gameId: 12 },
    });
    expect(bad.status).toBe(400);
  });
});

describe("POST /api/trees/{id}/import (sync with a newer save)", () => {
  it("adds a baby and a spouse in place, keeps the player's bio, and answers what changed", async () => {
    const user = await newUser();
    const first = await post<ImportAnswer>(user.token, "/api/trees/import", writeSave(legacy()));
    expect(first.status).toBe(201);
    const treeId = first.body.tree._id;
    const people = await peopleOf(user.token, treeId);
    const anna = people.find((p) => p.firstName === "Анна")!;
    const written = await call("PUT", `/api/people/${anna._id}`, {
      token: user.token,
      body: {
        ...anna,
        bio: "<p>Hand-written bio</p>",
        custom: [...anna.custom, { title: "Notes", value: "mine" }],
      },
    });
    expect(written.status).toBe(200);
    const tree = await call<Tree>("GET", `/api/trees/${treeId}`, { token: user.token });
    const etag = tree.headers.get("etag")!;

    // a newer save: Cléo married Dan and had a baby, Anna renamed and grew a trait
    const newer = legacy(
      [
        {
          id: id(4),
          householdId: HH,
          firstName: "Dan",
          lastName: "Kovač",
          gender: 4096,
          age: 16,
          spouse: id(3),
        },
        {
          id: id(5),
          householdId: HH,
          firstName: "Baby",
          lastName: "Kovač",
          age: 1,
          relations: [
            [0, id(3)],
            [1, id(4)],
          ],
        },
      ],
      id(4),
    );
    newer.sims[0]!.traits = [27454, 27917];
    newer.sims[2]!.age = 32;
    const stale = await post(user.token, `/api/trees/${treeId}/import`, writeSave(newer), {
      "if-match": '"999"',
    });
    expect(stale.status).toBe(409);
    const synced = await post<SyncAnswer>(
      user.token,
      `/api/trees/${treeId}/import`,
      writeSave(newer),
      { "if-match": etag },
    );
    expect(synced.status).toBe(200);
    expect(synced.body.changes.added.map((p) => p.firstName)).toEqual(["Dan", "Baby"]);
    expect(synced.body.changes.updated.map((p) => [p.gameId, p.fields])).toEqual([
      [id(1).toString(), ["traits"]],
      [id(3).toString(), ["age"]],
    ]);
    expect(synced.body.tree.version).toBe(first.body.tree.version + 1);

    const after = await peopleOf(user.token, treeId);
    expect(after).toHaveLength(5);
    const annaAfter = after.find((p) => p._id === anna._id)!;
    expect(annaAfter.bio).toBe("<p>Hand-written bio</p>");
    expect(annaAfter.custom).toContainEqual({ title: "Notes", value: "mine" });
    expect(annaAfter.traits).toEqual(["Romantic", "Genius"]);
    const byGame = new Map(after.map((p) => [p.gameId, p._id]));
    const data = (await call<Tree>("GET", `/api/trees/${treeId}`, { token: user.token })).body.data;
    const all: TreeNode[] = [];
    const stack = [data];
    for (let n = stack.pop(); n; n = stack.pop()) {
      all.push(n);
      stack.push(...n.children);
    }
    const cleo = all.find((n) => n.person?._id === byGame.get(id(3).toString()))!;
    expect(cleo.partners.map((e) => [e.type, e.people.map((p) => p._id)])).toEqual([
      ["MARRIED", [byGame.get(id(4).toString())]],
    ]);
    expect(cleo.children.map((c) => [c.person?._id, c.parents.map((p) => p._id)])).toEqual([
      [byGame.get(id(5).toString()), [byGame.get(id(3).toString()), byGame.get(id(4).toString())]],
    ]);

    // the same save again changes nothing and adds nobody
    const again = await post<SyncAnswer>(
      user.token,
      `/api/trees/${treeId}/import`,
      writeSave(newer),
    );
    expect([
      again.body.changes.added,
      again.body.changes.updated,
      again.body.changes.unchanged,
    ]).toEqual([[], [], 5]);
    expect(await peopleOf(user.token, treeId)).toHaveLength(5);
  });

  it("is refused with 409 when the tree changed since the client's version (If-Match), and changes nothing", async () => {
    const user = await newUser();
    const first = await post<ImportAnswer>(user.token, "/api/trees/import", writeSave(legacy()));
    expect(first.status).toBe(201);
    const treeId = first.body.tree._id;
    const opened = await call<Tree>("GET", `/api/trees/${treeId}`, { token: user.token });
    const editorEtag = opened.headers.get("etag")!;
    // another tab saves a structure edit: the first editor's version is now stale
    const elsewhere = { ...opened.body.data, hidden: !opened.body.data.hidden };
    const saved = await call<{ version: number }>("PATCH", `/api/trees/${treeId}`, {
      token: user.token,
      body: { data: elsewhere },
      headers: { "If-Match": editorEtag },
    });
    expect(saved.status).toBe(200);

    const newer = legacy([
      {
        id: id(6),
        householdId: HH,
        firstName: "Late",
        lastName: "Kovač",
        age: 1,
        relations: [
          [0, id(1)],
          [1, id(2)],
        ],
      },
    ]);
    const stale = await post(user.token, `/api/trees/${treeId}/import`, writeSave(newer), {
      "if-match": editorEtag,
    });
    expect(stale.status).toBe(409);
    expect(detailOf(stale)).toMatch(/changed/i);
    const current = await call<Tree>("GET", `/api/trees/${treeId}`, { token: user.token });
    expect(stale.headers.get("etag")).toBe(current.headers.get("etag"));
    // nothing was added and the other tab's save stands
    expect((await peopleOf(user.token, treeId)).map((p) => p.firstName).sort()).toEqual([
      "Boris",
      "Cléo",
      "Анна",
    ]);
    expect(current.body.version).toBe(saved.body.version);
    expect(current.body.data.hidden).toBe(elsewhere.hidden);

    // with the current version the same save goes through
    const synced = await post<SyncAnswer>(
      user.token,
      `/api/trees/${treeId}/import`,
      writeSave(newer),
      {
        "if-match": current.headers.get("etag")!,
      },
    );
    expect(synced.status).toBe(200);
    expect(synced.body.changes.added.map((p) => p.firstName)).toEqual(["Late"]);
  });

  it("gives a Sim a known aspiration and notes an unknown one in the import's answer", async () => {
    const user = await newUser();
    const save = legacy();
    save.sims[0]!.aspiration = 25114;
    save.sims[1]!.aspiration = 25148;
    const response = await post<ImportAnswer>(user.token, "/api/trees/import", writeSave(save));
    expect(response.status).toBe(201);
    expect(response.body.imported.notes).toContain(
      "Boris Kovač has an aspiration the game did not name, so it was left out.",
    );
    expect(response.body.imported.notes.join(" ")).not.toContain("25148");
    const people = await peopleOf(user.token, response.body.tree._id);
    expect(people.find((p) => p.firstName === "Анна")!.aspirations).toEqual(["Bodybuilder"]);
    expect(people.find((p) => p.firstName === "Boris")!.aspirations).toEqual([]);
  });

  it("is 404 for someone else's tree", async () => {
    const owner = await newUser();
    const other = await newUser();
    const first = await post<ImportAnswer>(owner.token, "/api/trees/import", writeSave(legacy()));
    const response = await post(
      other.token,
      `/api/trees/${first.body.tree._id}/import`,
      writeSave(legacy()),
    );
    expect(response.status).toBe(404);
  });
});

// issue 32, findings 2, 6 and 14 and the worker-time budget (shared with tests/pglite)
sims4HostileSuite();
