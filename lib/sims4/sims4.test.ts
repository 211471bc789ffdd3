import fs from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ImportError, type ImportedTree } from "@/lib/import/types";
import { detectFormat } from "@/lib/import/detect";
import type { TreeNode } from "@/lib/schemas/tree";
import { CULLED_TEXT, IN_THE_GAME, PLACEHOLDER_TEXT } from "./build";
import { readDbpfIndex, readDbpfResource } from "./dbpf";
import { listSims4Households, parseSims4, readSims4 } from "./index";
import type { Sims4Save } from "./model";
import { ProtoReader } from "./protobuf";
import { inflateRefPack } from "./refpack";
import { SIMS4_LIMITS } from "./limits";
import {
  encodeSaveGameData,
  manyChildrenSave,
  manySteadiesSave,
  pb,
  refpackCompress,
  writeDbpf,
  writeSave,
  writeTrayItem,
  type FixtureSave,
  type FixtureSim,
} from "./testing";

const SAVES = path.resolve(__dirname, "../../../shared/data/sims4");
const realSave = (name: string) => new Uint8Array(fs.readFileSync(path.join(SAVES, name)));

/** Every node of a tree, depth first. */
function nodes(root: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  const stack = [root];
  for (let n = stack.pop(); n; n = stack.pop()) {
    out.push(n);
    stack.push(...n.children);
  }
  return out;
}

/** The family of `members` computed here from the decoded relations alone, by union-find. */
function independentFamily(save: Sims4Save, members: string[]): Set<string> {
  const known = new Set([...save.sims.map((s) => s.id), ...save.treeNodes.map((n) => n.id)]);
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  const union = (a: string, b: string) => {
    if (!known.has(a) || !known.has(b)) return;
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  for (const sim of save.sims) {
    for (const r of sim.relations) if (r.type === 0 || r.type === 1) union(sim.id, r.simId);
    for (const p of [sim.spouse, sim.fiance, ...sim.steadies]) if (p) union(sim.id, p);
  }
  const roots = new Set(members.map(find));
  return new Set([...known].filter((id) => roots.has(find(id))));
}

describe.each([
  { file: "ffrese-2024.save", sims: 70, households: 29, active: ["Schuchardt", 5, 5], largest: 7 },
  { file: "randomis-2019.save", sims: 148, households: 80, active: [null, 2, 2], largest: 6 },
])("the real save $file", ({ file, sims, households, active, largest }) => {
  const bytes = realSave(file);
  const save = readSims4(bytes);
  const list = listSims4Households(bytes);

  it("reads every Sim and household, and the active household first", () => {
    expect(detectFormat(bytes)).toBe("sims4");
    expect([save.sims.length, save.households.length, list.length]).toEqual([
      sims,
      households,
      households,
    ]);
    expect(list[0]!.id).toBe(save.activeHouseholdId);
    const [name, members, family] = active;
    if (name) expect(list[0]!.name).toBe(name);
    expect([list[0]!.members, list[0]!.family]).toEqual([members, family]);
  });

  it("counts every household's members", () => {
    for (const household of list) {
      const members = save.sims.filter((s) => s.householdId === household.id).length;
      expect({ id: household.id, members: household.members }).toEqual({
        id: household.id,
        members,
      });
    }
    expect(list.reduce((n, h) => n + h.members, 0)).toBeLessThanOrEqual(sims);
  });

  it("counts the family of the active and of the largest family as the relations say", () => {
    const largestHousehold = [...list].sort((a, b) => b.family - a.family)[0]!;
    expect(largestHousehold.family).toBe(largest);
    for (const household of [list[0]!, largestHousehold]) {
      const members = save.sims.filter((s) => s.householdId === household.id).map((s) => s.id);
      expect(household.family).toBe(independentFamily(save, members).size);
    }
  });

  it("imports exactly the family's Sims, with their names", () => {
    const largestHousehold = [...list].sort((a, b) => b.family - a.family)[0]!;
    for (const household of [list[0]!, largestHousehold]) {
      const members = save.sims.filter((s) => s.householdId === household.id).map((s) => s.id);
      const family = independentFamily(save, members);
      const tree = parseSims4(bytes, { household: household.id });
      expect(new Set(tree.people.map((p) => p.key))).toEqual(family);
      for (const person of tree.people) {
        const sim = save.sims.find((s) => s.id === person.key)!;
        expect([person.firstName, person.lastName, person.gameId]).toEqual([
          sim.firstName,
          sim.lastName,
          sim.id,
        ]);
      }
      const placed = new Set(
        nodes(tree.data).flatMap((n) => [
          n.person!._id,
          ...n.partners.flatMap((p) => p.people.map((r) => r._id)),
        ]),
      );
      expect(placed).toEqual(family);
    }
  });

  it("keeps names exactly as the game wrote them", () => {
    const names = save.sims.map((s) => `${s.firstName} ${s.lastName}`);
    if (file.startsWith("randomis")) expect(names.some((n) => /[А-Яа-я]/.test(n))).toBe(true);
    const tree = parseSims4(bytes);
    for (const p of tree.people) expect(names).toContain(`${p.firstName} ${p.lastName}`);
  });
});

// ---- generated saves ----

const BIG = 2n ** 60n; // above 2^53: BIG + 1n and BIG + 2n are the same JavaScript number
const id = (n: number) => BIG + BigInt(n);
const HH = id(1000);
const OTHER_HH = id(2000);
const ROMANTIC = 27454;
const GENIUS = 27917;
const HIDDEN = 258764;
const BODYBUILDER = 25114;
const UNKNOWN_ASPIRATION = 25148;

function family(): FixtureSave {
  return {
    activeHouseholdId: HH,
    account: { id: 987654321987654321n, persona: "SecretPersona42" },
    households: [
      { id: HH, name: "Kovač-Ørsted" },
      { id: OTHER_HH, name: "Strangers" },
    ],
    treeNodes: [{ id: id(90), firstName: "Ærwin", lastName: "Culled", gender: 4096, culled: true }],
    sims: [
      // Anna and Boris are married; Boris's father is culled, Anna's mother is gone with only
      // her own mother left (a grandparent-only link)
      {
        id: id(1),
        householdId: HH,
        firstName: "Анна",
        lastName: "Kovač",
        gender: 8192,
        age: 32,
        spouse: id(2),
        traits: [ROMANTIC, HIDDEN],
        occult: 1 | 32,
        relations: [[2, id(50)]],
      },
      {
        id: id(2),
        householdId: HH,
        firstName: "Boris",
        lastName: "Kovač",
        gender: 4096,
        age: 32,
        spouse: id(1),
        traits: [GENIUS],
        relations: [[1, id(90)]],
      },
      {
        id: id(3),
        householdId: HH,
        firstName: "Cléo",
        lastName: "Kovač",
        gender: 8192,
        age: 4,
        relations: [
          [0, id(1)],
          [1, id(2)],
        ],
      },
      // Boris's son with Dora, his fiancée before Anna: a half-sibling
      {
        id: id(4),
        householdId: OTHER_HH,
        firstName: "Emil",
        lastName: "Dorn",
        gender: 4096,
        age: 8,
        relations: [
          [0, id(5)],
          [1, id(2)],
        ],
      },
      {
        id: id(5),
        householdId: OTHER_HH,
        firstName: "Dora",
        lastName: "Dorn",
        gender: 8192,
        age: 32,
        fiance: id(2),
        steadies: [id(77)],
      },
      {
        id: id(50),
        householdId: OTHER_HH,
        firstName: "Greta",
        lastName: "Grand",
        gender: 8192,
        age: 64,
      },
      // a Sim nobody is related to, and a link to nobody known
      {
        id: id(60),
        householdId: OTHER_HH,
        firstName: "Lone",
        lastName: "Wolf",
        age: 16,
        relations: [[0, id(404)]],
      },
    ],
  };
}

function byName(tree: ImportedTree, first: string) {
  const person = tree.people.find((p) => p.firstName === first);
  if (!person) throw new Error(`${first} is not in the tree`);
  return person;
}

describe("generated saves", () => {
  it.each([
    ["refpack", 2],
    ["zlib", 2],
    ["none", 2],
    ["refpack", 0],
    ["zlib", 0],
    ["refpack", 15],
    ["zlib", 5],
  ] as const)("reads %s with index flags %i", (compression, flags) => {
    const bytes = writeSave(family(), { compression, flags });
    const index = readDbpfIndex(bytes);
    // with flag 1 every entry shares the first one's type
    expect(index.map((e) => e.type)).toEqual([0x0d, flags & 1 ? 0x0d : 0x3bd45407]);
    expect(index.map((e) => e.instance)).toEqual([0x1234n, flags & 8 ? 0x1234n : 0x99n]);
    const save = readSims4(bytes);
    expect(save.sims.map((s) => s.firstName)).toEqual([
      "Анна",
      "Boris",
      "Cléo",
      "Emil",
      "Dora",
      "Greta",
      "Lone",
    ]);
    const list = listSims4Households(bytes);
    expect(list.map(({ preview: _, memberNames: __, ...h }) => h)).toEqual([
      { id: HH.toString(), name: "Kovač-Ørsted", members: 3, family: 7 },
      { id: OTHER_HH.toString(), name: "Strangers", members: 4, family: 8 },
    ]);
    expect(list[0]!.preview.slice(0, 3)).toEqual(["Анна Kovač", "Boris Kovač", "Cléo Kovač"]);
    expect(list[0]!.preview).toHaveLength(7);
    expect(list[0]!.memberNames).toEqual(["Анна Kovač", "Boris Kovač", "Cléo Kovač"]);
  });

  it("round-trips RefPack, copies and literals alike, and refuses one that declares too much", () => {
    const data = new TextEncoder().encode("Kovač ".repeat(500) + "unique tail 123");
    const packed = refpackCompress(data);
    expect(packed.length).toBeLessThan(data.length / 5);
    expect(inflateRefPack(packed, 1 << 20)).toEqual(data);
    expect(() => inflateRefPack(packed, 100)).toThrow(ImportError);
  });

  it("keeps ids above 2^53 apart, as decimal strings", () => {
    expect(Number(id(1))).toBe(Number(id(2)));
    const save = readSims4(writeSave(family()));
    expect(save.sims.slice(0, 3).map((s) => s.id)).toEqual([id(1), id(2), id(3)].map(String));
    expect(save.sims[0]!.spouse).toBe(id(2).toString());
    const tree = parseSims4(writeSave(family()));
    const cleo = nodes(tree.data).find((n) => n.person?._id === id(3).toString())!;
    expect(cleo.parents.map((p) => p._id)).toEqual([id(1).toString(), id(2).toString()]);
    expect(byName(tree, "Boris").gameId).toBe("1152921504606846978");
  });

  it("brings culled ancestors in by name, saying they are no longer in the game", () => {
    const tree = parseSims4(writeSave(family()));
    const erwin = byName(tree, "Ærwin");
    expect(erwin.lastName).toBe("Culled");
    expect(erwin.custom).toContainEqual({ title: IN_THE_GAME, value: CULLED_TEXT });
    const boris = nodes(tree.data).find((n) => n.person?._id === id(2).toString())!;
    expect(boris.parents).toEqual([{ _id: id(90).toString() }]);
  });

  it("puts an unnamed placeholder between a Sim and a grandparent, and drops links to nobody", () => {
    const tree = parseSims4(writeSave(family()));
    const placeholder = tree.people.find((p) =>
      p.custom.some((r) => r.value === PLACEHOLDER_TEXT),
    )!;
    expect([placeholder.firstName, placeholder.lastName]).toEqual(["", ""]);
    const all = nodes(tree.data);
    const anna = all.find((n) => n.person?._id === id(1).toString())!;
    expect(anna.parents).toEqual([{ _id: placeholder.key }]);
    const placeholderNode = all.find((n) => n.person?._id === placeholder.key)!;
    expect(placeholderNode.parents).toEqual([{ _id: id(50).toString() }]);
    const greta = all.find((n) => n.person?._id === id(50).toString())!;
    expect(greta.children.filter((c) => !c.hidden).map((c) => c.person?._id)).toEqual([
      placeholder.key,
    ]);
    // Dora's steady (77) is nobody the save knows: the note names her, never the raw id
    expect(tree.notes).toContain(
      "Dora Dorn's partner is no longer in the save, so that link was left out.",
    );
    expect(tree.notes?.some((n) => n.includes(id(77).toString()))).toBe(false);
    expect(tree.people.some((p) => p.key === id(77).toString())).toBe(false);
    const lone = parseSims4(writeSave(family()), { household: OTHER_HH.toString() });
    expect(lone.notes?.some((n) => n.includes("Lone Wolf's mother"))).toBe(true);
  });

  it("lays out spouses, fiancés and half-siblings under the right couple", () => {
    const tree = parseSims4(writeSave(family()));
    const all = nodes(tree.data);
    const boris = all.find((n) => n.person?._id === id(2).toString())!;
    expect(boris.partners).toEqual([
      { type: "MARRIED", people: [{ _id: id(1).toString() }] },
      { type: "PARTNER", people: [{ _id: id(5).toString() }] },
    ]);
    // Cléo sits under Anna and Boris (at Anna's node, placed first), her half-brother Emil
    // under Boris and Dora
    const anna = all.find((n) => n.person?._id === id(1).toString())!;
    expect(anna.partners).toEqual([{ type: "MARRIED", people: [{ _id: id(2).toString() }] }]);
    const kids = (n: TreeNode) =>
      n.children.map((c) => [c.person?._id, c.parents.map((p) => p._id)]);
    expect(kids(anna)).toEqual([[id(3).toString(), [id(1).toString(), id(2).toString()]]]);
    expect(kids(boris)).toEqual([[id(4).toString(), [id(5).toString(), id(2).toString()]]]);
    expect(all.filter((n) => n.person?._id === id(3).toString())).toHaveLength(1);
    // the eldest known line is the root: Greta, the grandmother
    expect(tree.data.person?._id).toBe(id(50).toString());
  });

  it("shows personality traits by name and leaves hidden ones out; life states and rows", () => {
    const tree = parseSims4(writeSave(family()));
    const anna = byName(tree, "Анна");
    expect(anna.traits).toEqual(["Romantic"]);
    expect(anna.lifeStates).toEqual(["Werewolf"]);
    expect(anna.custom).toEqual([
      { title: "Age", value: "Adult" },
      { title: "Gender", value: "Female" },
    ]);
    expect(byName(tree, "Boris").traits).toEqual(["Genius"]);
  });

  it("never keeps the account block", () => {
    const bytes = writeSave(family());
    const text = JSON.stringify(readSims4(bytes), (_k, v: unknown) =>
      typeof v === "bigint" ? v.toString() : v,
    );
    expect(text).not.toContain("SecretPersona42");
    expect(text).not.toContain("987654321987654321");
    expect(JSON.stringify(parseSims4(bytes))).not.toContain("SecretPersona42");
  });

  it("imports a tray item's household", () => {
    const bytes = writeTrayItem({
      id: id(7000),
      name: "Gallery Family",
      sims: [
        {
          id: id(71),
          firstName: "Mum",
          lastName: "Gallery",
          gender: 8192,
          age: 32,
          traits: [ROMANTIC, HIDDEN],
          aspirationName: "Big Happy Family",
          occult: 4,
        },
        {
          id: id(72),
          firstName: "Kid",
          lastName: "Gallery",
          age: 4,
          relations: [[0, id(71)]],
          traitNames: ["Creative", "Some Hidden Thing"],
        },
      ],
    });
    expect(detectFormat(bytes)).toBe("sims4");
    expect(listSims4Households(bytes)).toEqual([
      {
        id: id(7000).toString(),
        name: "Gallery Family",
        members: 2,
        family: 2,
        preview: ["Mum Gallery", "Kid Gallery"],
        memberNames: ["Mum Gallery", "Kid Gallery"],
      },
    ]);
    const tree = parseSims4(bytes);
    expect(tree.people.map((p) => [p.firstName, p.traits, p.aspirations, p.lifeStates])).toEqual([
      ["Mum", ["Romantic"], ["Big Happy Family"], ["Vampire"]],
      ["Kid", ["Creative"], [], []],
    ]);
    expect(tree.data.children[0]!.parents).toEqual([{ _id: id(71).toString() }]);
  });

  it("gives a Sim the aspiration a known id names, and notes an unknown one without a row", () => {
    const save = family();
    save.sims[0]!.aspiration = BODYBUILDER;
    save.sims[1]!.aspiration = UNKNOWN_ASPIRATION;
    const tree = parseSims4(writeSave(save));
    expect(byName(tree, "Анна").aspirations).toEqual(["Bodybuilder"]);
    expect(byName(tree, "Boris").aspirations).toEqual([]);
    const notes = (tree.notes ?? []).filter((n) => n.includes("aspiration"));
    // the players' words: the Sim, and an aspiration the game did not name, not a raw id
    expect(notes).toEqual(["Boris Kovač has an aspiration the game did not name, so it was left out."]);
    // without aspirations there is no such note
    expect(parseSims4(writeSave(family())).notes?.some((n) => n.includes("aspiration"))).toBe(
      false,
    );
  });

  it("names Bodybuilder on the real saves' Sims that hold it, and notes the others", () => {
    for (const file of ["ffrese-2024.save", "randomis-2019.save"]) {
      const save = readSims4(realSave(file));
      const holders = save.sims.filter((s) => s.aspiration === String(BODYBUILDER));
      expect(holders.length).toBeGreaterThan(0);
      const household = holders[0]!.householdId;
      const tree = parseSims4(realSave(file), { household });
      const person = tree.people.find((p) => p.key === holders[0]!.id)!;
      expect(person.aspirations).toEqual(["Bodybuilder"]);
      // one note per Sim whose aspiration is unnamed, by name, without the id
      const unknown = tree.people.flatMap((p) => {
        const sim = save.sims.find((s) => s.id === p.key);
        return sim?.aspiration && sim.aspiration !== String(BODYBUILDER) ? [sim] : [];
      });
      const notes = (tree.notes ?? []).filter((n) => n.includes("aspiration"));
      expect(notes).toEqual(
        unknown.map(
          (sim) =>
            `${sim.firstName} ${sim.lastName} has an aspiration the game did not name, so it was left out.`,
        ),
      );
      for (const sim of unknown) expect(notes.join(" ")).not.toContain(sim.aspiration!);
    }
  });

  it("refuses a household the save does not have", () => {
    expect(() => parseSims4(writeSave(family()), { household: "123" })).toThrow(/no household 123/);
  });
});

describe("hostile saves", () => {
  const saveData = encodeSaveGameData(family());
  const setU32 = (bytes: Uint8Array, at: number, value: number) => {
    const copy = bytes.slice();
    new DataView(copy.buffer).setUint32(at, value, true);
    return copy;
  };

  it.each([
    [
      "a zlib bomb (inflates past its declared size)",
      () => {
        const bomb = deflateSync(new Uint8Array(20 * 1024 * 1024));
        const file = writeDbpf([{ type: 0x0d, data: bomb, compression: "none" }]);
        return markCompressed(file, 0x5a42, 4096);
      },
      /inflates past its declared size/,
    ],
    [
      "a RefPack bomb (declares 16 MB from a few bytes)",
      () => {
        const bomb = Uint8Array.from([0x10, 0xfb, 0xff, 0xff, 0xff, 0xfc]);
        const file = writeDbpf([{ type: 0x0d, data: bomb, compression: "none" }]);
        return markCompressed(file, 0xffff, 0xffffff);
      },
      /damaged/,
    ],
    [
      "a part declaring more than the cap",
      () => {
        const file = writeDbpf([{ type: 0x0d, data: saveData, compression: "zlib" }]);
        return markCompressed(file, 0x5a42, 0x7fffffff);
      },
      /more than we read/,
    ],
    ["an index past the end", () => setU32(writeSave(family()), 0x40, 50_000_000), /past the end/],
    ["an absurd resource count", () => setU32(writeSave(family()), 0x24, 0xffffffff), /resources/],
    [
      "a resource past the end",
      () => {
        const file = writeSave(family());
        const indexAt = new DataView(file.buffer).getUint32(0x40, true);
        return setU32(file, indexAt + 8 + 12, 0x7ffffff0);
      },
      /past the end/,
    ],
    ["a truncated save", () => writeSave(family()).subarray(0, 200), /truncated|damaged/],
    [
      "a length running past its message",
      () => {
        const broken = pb.concat([
          pb.message(6, [pb.fixed64(1, 1n)]),
          Uint8Array.from([0x32, 0xff, 0xff, 0x03]),
        ]);
        return writeDbpf([{ type: 0x0d, data: broken, compression: "zlib" }]);
      },
      /damaged/,
    ],
    ["a DBPF 1.0 package", () => setU32(writeSave(family()), 4, 1), /DBPF 1\.1/],
  ])("refuses %s with a sentence", (_name, make, message) => {
    const started = performance.now();
    expect(() => parseSims4(make())).toThrow(message);
    expect(() => listSims4Households(make())).toThrow(ImportError);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("skips deeply nested unknown fields without descending, and caps the depth it descends", () => {
    let nested: Uint8Array = pb.string(1, "x");
    for (let i = 0; i < 2_000; i += 1) nested = pb.message(77, [nested]);
    const data = pb.concat([
      saveData,
      pb.message(6, [pb.fixed64(1, 5n), pb.string(5, "Deep"), pb.bytes(500, nested)]),
    ]);
    const save = readSims4(writeDbpf([{ type: 0x0d, data, compression: "zlib" }]));
    expect(save.sims.at(-1)!.firstName).toBe("Deep");
    let reader = new ProtoReader(new Uint8Array(0));
    expect(() => {
      for (let i = 0; i < 100; i += 1) reader = reader.sub(new Uint8Array(0));
    }).toThrow(/levels deep/);
  });
});

// Issue 32, findings 2 and 6: every repeated field and every per-Sim list is capped, and past a cap
// the file is refused with a sentence that names the cap (nothing is dropped).
describe("the reader's caps (issue 32)", () => {
  const BASE = 2n ** 60n;
  const HH = BASE + 999n;
  const oneHousehold = (sims: FixtureSim[]): FixtureSave => ({
    activeHouseholdId: HH,
    households: [{ id: HH, name: "Caps" }],
    sims,
  });

  it("refuses finding 6's save (7.8 million steadies in a 99 KB file) at the per-Sim cap, before decoding them", () => {
    const bytes = manySteadiesSave();
    expect(bytes.length).toBeLessThan(120_000);
    // the cap is checked on the first field 72 (2,000 ids counted, not decoded); before, the
    // reader capped each field 72 alone and kept all 7.8 million
    expect(() => readSims4(bytes)).toThrow(
      "A Sim in the save has more than 100 steady partners: Heirloom reads at most 100 steady partners per Sim.",
    );
    // spread over fields of 50 ids each, the Sim's steadies are still counted together
    expect(() => readSims4(manySteadiesSave(3, 50))).toThrow(/more than 100 steady partners/);
    expect(readSims4(manySteadiesSave(2, 50)).sims[0]!.steadies).toHaveLength(1);
  });

  it("refuses a Sim with more traits or family relations than the caps, whatever their packing", () => {
    const traits = Array.from({ length: SIMS4_LIMITS.maxTraitsPerSim + 1 }, (_, i) => 1000 + i);
    const tooManyTraits = oneHousehold([
      { id: BASE + 1n, householdId: HH, firstName: "T", lastName: "T", traits },
    ]);
    expect(() => readSims4(writeSave(tooManyTraits))).toThrow(/more than 1,000 traits/);
    const relations = Array.from(
      { length: SIMS4_LIMITS.maxRelationsPerSim + 1 },
      (_, i): [number, bigint] => [0, BASE + 10n + BigInt(i)],
    );
    const tooManyRelations = oneHousehold([
      { id: BASE + 1n, householdId: HH, firstName: "R", lastName: "R", relations },
    ]);
    expect(() => readSims4(writeSave(tooManyRelations))).toThrow(/more than 100 family relations/);
    const tray = writeTrayItem({
      id: BASE,
      name: "Tray",
      sims: [{ id: BASE + 1n, firstName: "T", lastName: "T", traitNames: traits.map(String) }],
    });
    expect(() => readSims4(tray)).toThrow(/more than 1,000 traits/);
  });

  it("refuses a save naming more ids in all than the per-save cap", () => {
    // 1,100 Sims of 1,000 traits each: every Sim within its cap, 1.1 million ids in all
    const traits = Array.from({ length: 1_000 }, (_, i) => 1000 + i);
    const sims = Array.from({ length: 1_100 }, (_, i): FixtureSim => ({
      id: BASE + 1n + BigInt(i),
      householdId: HH,
      firstName: "T",
      lastName: "T",
      traits,
    }));
    expect(() => readSims4(writeSave(oneHousehold(sims), { compression: "zlib" }))).toThrow(
      /more than 1,000,000 traits, family relations and partners in all/,
    );
  });

  it("refuses finding 2's save (one mother of 99,990 children) at the Sims cap, in well under its 30-49 s", () => {
    const bytes = manyChildrenSave();
    const started = performance.now();
    expect(() => listSims4Households(bytes)).toThrow(
      "The save holds more than 30,000 Sims: Heirloom reads at most 30,000 Sims per save.",
    );
    expect(() => parseSims4(bytes)).toThrow(/more than 30,000 Sims/);
    // a generous bound: the refusal costs well under a second, the old walk 30 s and more
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("refuses a Sim with more children or partners than the caps", () => {
    expect(() => listSims4Households(manyChildrenSave(SIMS4_LIMITS.maxChildrenPerSim + 1))).toThrow(
      "A Sim in the save has more than 1,000 children: Heirloom reads at most 1,000 children per Sim.",
    );
    expect(listSims4Households(manyChildrenSave(SIMS4_LIMITS.maxChildrenPerSim))[0]!.family).toBe(
      1_001,
    );
    // 1,001 Sims each naming the same steady partner: each within its own cap
    const star = BASE + 1n;
    const sims: FixtureSim[] = [{ id: star, householdId: HH, firstName: "Star", lastName: "S" }];
    for (let i = 0; i <= SIMS4_LIMITS.maxPartnersPerSim; i += 1) {
      sims.push({
        id: BASE + 10n + BigInt(i),
        householdId: HH,
        firstName: "Fan",
        lastName: "S",
        steadies: [star],
      });
    }
    expect(() => parseSims4(writeSave(oneHousehold(sims), { compression: "zlib" }))).toThrow(
      /more than 1,000 partners: Heirloom reads at most 1,000 partners per Sim/,
    );
  });
});

/** Marks the first resource of a package compressed with `code`, declaring `memSize` bytes. */
function markCompressed(file: Uint8Array, code: number, memSize: number): Uint8Array {
  const copy = file.slice();
  const view = new DataView(copy.buffer);
  const indexAt = view.getUint32(0x40, true);
  // flags 2: flags, group, then type, inst-high, inst-low, offset, size, memsize, compression
  const entry = indexAt + 8;
  view.setUint32(entry + 20, memSize, true);
  view.setUint16(entry + 24, code, true);
  const index = readDbpfIndex(copy);
  expect(index[0]!.compression).toBe(code);
  void readDbpfResource;
  return copy;
}
