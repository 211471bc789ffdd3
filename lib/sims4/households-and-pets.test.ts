// Issue 34: nothing invented (siblings, unrelated members, pets), and several households into one
// tree. The real saves are read from ../shared/data/sims4 (SOURCES.txt), never copied here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ImportError, type ImportedTree } from "@/lib/import/types";
import type { TreeNode } from "@/lib/schemas/tree";
import { buildKinship } from "@/lib/tree/placements";
import { PLACEHOLDER_TEXT } from "./build";
import { TOO_MANY_CHILDREN } from "./family";
import { SIMS4_LIMITS } from "./limits";
import { listSims4Households, parseSims4, readSims4 } from "./index";
import { writeSave, type FixtureSave } from "./testing";

const SAVES = path.resolve(__dirname, "../../../shared/data/sims4");
const realSave = (name: string) => new Uint8Array(fs.readFileSync(path.join(SAVES, name)));
const randomis = realSave("randomis-2019.save");

/** Every node of a tree with the node it hangs under, breadth first. */
function placed(root: TreeNode): { node: TreeNode; under: TreeNode | null }[] {
  const out: { node: TreeNode; under: TreeNode | null }[] = [{ node: root, under: null }];
  for (let i = 0; i < out.length; i += 1) {
    for (const child of out[i]!.node.children) out.push({ node: child, under: out[i]!.node });
  }
  return out;
}

/** A Sim by first name, or by first and last name. */
const byName = (tree: ImportedTree, first: string) => {
  const person = tree.people.find(
    (p) => p.firstName === first || `${p.firstName} ${p.lastName}` === first,
  );
  if (!person) throw new Error(`${first} is not in the tree`);
  return person;
};

/** The ids of the Sims a Sim's nodes hang under, through a drawn (not hidden) link. */
function drawnUnder(tree: ImportedTree, key: string): string[] {
  return placed(tree.data)
    .filter(({ node, under }) => node.person?._id === key && under && !node.hidden)
    .map(({ under }) => under!.person!._id);
}

const householdId = (bytes: Uint8Array, name: string) => {
  const found = listSims4Households(bytes).filter((h) => h.name === name);
  expect(found).toHaveLength(1);
  return found[0]!.id;
};

describe("pets are pets (SimData field 60, extended_species)", () => {
  it("reads the species of every Sim of the 2019 save: 138 humans, 3 large dogs, 6 cats, 1 small dog", () => {
    const counts = new Map<number | null, number>();
    for (const sim of readSims4(randomis).sims)
      counts.set(sim.species, (counts.get(sim.species) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ 1: 138, 2: 3, 3: 6, 4: 1 });
  });

  it("gives the Delgatos' Blue the Dog life state and Bartholomew the Cat one, and makes neither a child", () => {
    const tree = parseSims4(randomis, { household: householdId(randomis, "Дельгато") });
    const blue = byName(tree, "Блу");
    const bartholomew = byName(tree, "Бартоломью Б. Биттлбан-старший");
    expect(blue.lifeStates).toEqual(["Dog"]);
    expect(bartholomew.lifeStates).toEqual(["Cat"]);
    for (const human of ["Суприя", "Джастин", "Эви", "Пирс"])
      expect(byName(tree, human).lifeStates).toEqual([]);
    // drawn with their household, without a line and without parents
    const kin = buildKinship(tree.data);
    for (const pet of [blue, bartholomew]) {
      expect(kin.placements.get(pet.key)?.length).toBe(1);
      expect(drawnUnder(tree, pet.key)).toEqual([]);
      expect(kin.parents.get(pet.key)).toBeUndefined();
    }
    // the couple's children are their two children, not their pets
    const supriya = byName(tree, "Суприя").key;
    expect([...(kin.children.get(supriya) ?? [])].sort()).toEqual(
      [byName(tree, "Эви").key, byName(tree, "Пирс").key].sort(),
    );
  });

  it("makes a pet a child where the save names its parents, and never the root over a Sim", () => {
    const tree = parseSims4(randomis, { household: householdId(randomis, "Линкс") });
    const josie = byName(tree, "Джози");
    const junior = byName(tree, "Бартоломью Б. Биттлбан-младший");
    expect([josie.lifeStates, junior.lifeStates]).toEqual([["Cat"], ["Cat"]]);
    expect(buildKinship(tree.data).parents.get(junior.key)?.has(josie.key)).toBe(true);
    // Katarina Linx, the household's one human, leads its tree; the cats sit beside her
    expect(tree.data.person?._id).toBe(byName(tree, "Катарина").key);
  });

  it("maps every species the game has: dogs large and small, cat, fox and horse", () => {
    const hh = 2n ** 62n + 7n;
    const sims = [1, 2, 3, 4, 5, 6, 9].map((species, i) => ({
      id: hh + BigInt(i + 1),
      householdId: hh,
      firstName: `Species ${species}`,
      lastName: "Zoo",
      species,
    }));
    const tree = parseSims4(
      writeSave({ activeHouseholdId: hh, households: [{ id: hh, name: "Zoo" }], sims }),
    );
    expect(tree.people.map((p) => [p.firstName, p.lifeStates])).toEqual([
      ["Species 1", []],
      ["Species 2", ["Dog"]],
      ["Species 3", ["Cat"]],
      ["Species 4", ["Dog"]],
      ["Species 5", ["Fox"]],
      ["Species 6", ["Horse"]],
      ["Species 9", []],
    ]);
  });
});

describe("nothing invented", () => {
  it.each([
    ["Ваторе", "Лилит", "Калеб"],
    ["Бер", "Юки", "Кенди"],
  ])(
    "draws the %s siblings, who name one mother the save no longer holds, as her children: neither is the other's child",
    (household, elder, younger) => {
      const tree = parseSims4(randomis, { household: householdId(randomis, household) });
      const a = byName(tree, elder).key;
      const b = byName(tree, younger).key;
      const kin = buildKinship(tree.data);
      expect(kin.parents.get(b)?.has(a) ?? false).toBe(false);
      expect(kin.parents.get(a)?.has(b) ?? false).toBe(false);
      const mothers = [...(kin.parents.get(a)?.keys() ?? [])];
      expect(mothers).toHaveLength(1);
      expect([...(kin.parents.get(b)?.keys() ?? [])]).toEqual(mothers);
      const mother = tree.people.find((p) => p.key === mothers[0])!;
      expect([mother.firstName, mother.custom]).toEqual([
        "",
        [{ title: "In the game", value: PLACEHOLDER_TEXT }],
      ]);
      expect(kin.generation.get(a)).toBe(kin.generation.get(b));
      // the link is kept, so no note says it was left out
      expect((tree.notes ?? []).filter((n) => n.includes("mother"))).toEqual([]);
    },
  );

  const BIG = 2n ** 60n;
  const HH = BIG + 100n;
  const OTHER = BIG + 200n;
  const sim = (n: number, first: string, more: Partial<FixtureSave["sims"][number]> = {}) => ({
    id: BIG + BigInt(n),
    householdId: HH,
    firstName: first,
    lastName: "Roomies",
    age: 32,
    ...more,
  });

  it("places household members with no family link apart, each as their own root, and partners as partners", () => {
    const bytes = writeSave({
      activeHouseholdId: HH,
      households: [{ id: HH, name: "Roomies" }],
      sims: [
        sim(1, "Zoe"),
        sim(2, "Mitchell", { spouse: BIG + 3n }),
        sim(3, "Gavin", { spouse: BIG + 2n }),
        sim(4, "Whiskers", { species: 3 }),
        sim(5, "Kid", {
          age: 4,
          relations: [
            [0, BIG + 3n],
            [1, BIG + 2n],
          ],
        }),
      ],
    });
    const tree = parseSims4(bytes);
    const kin = buildKinship(tree.data);
    const key = (first: string) => byName(tree, first).key;
    // the couple are partners, married; their child is theirs alone
    expect(kin.partners.get(key("Mitchell"))?.get(key("Gavin"))).toEqual(["MARRIED"]);
    expect([...(kin.parents.get(key("Kid"))?.keys() ?? [])].sort()).toEqual(
      [key("Mitchell"), key("Gavin")].sort(),
    );
    // Zoe and the cat are nobody's children, and hang under nobody through a drawn line
    for (const loner of ["Zoe", "Whiskers"]) {
      expect(kin.parents.get(key(loner))).toBeUndefined();
      expect(drawnUnder(tree, key(loner))).toEqual([]);
      expect(kin.placements.get(key(loner))).toHaveLength(1);
    }
    expect(byName(tree, "Whiskers").lifeStates).toEqual(["Cat"]);
    // everyone comes in once as their own node's Sim
    const mains = placed(tree.data).map(({ node }) => node.person!._id);
    expect(new Set(mains).size).toBe(mains.length);
  });

  it("keeps a lone parent the save no longer holds out, with a note, when only one child names them", () => {
    const bytes = writeSave({
      activeHouseholdId: HH,
      households: [{ id: HH, name: "Roomies" }],
      sims: [sim(1, "Only", { relations: [[0, BIG + 99n]] })],
    });
    const tree = parseSims4(bytes);
    expect(tree.people.map((p) => p.firstName)).toEqual(["Only"]);
    expect(tree.notes?.[0]).toContain("mother");
  });

  describe("several households into one tree", () => {
    // a legacy whose daughter moved out: she founded her own household with her husband
    const save: FixtureSave = {
      activeHouseholdId: HH,
      households: [
        { id: HH, name: "Legacy" },
        { id: OTHER, name: "Moved Out" },
        { id: BIG + 300n, name: "Strangers" },
      ],
      sims: [
        sim(1, "Mum", { spouse: BIG + 2n, lastName: "Legacy" }),
        sim(2, "Dad", { spouse: BIG + 1n, lastName: "Legacy" }),
        sim(3, "Daughter", {
          householdId: OTHER,
          spouse: BIG + 4n,
          relations: [
            [0, BIG + 1n],
            [1, BIG + 2n],
          ],
        }),
        sim(4, "Husband", { householdId: OTHER, spouse: BIG + 3n }),
        sim(5, "Grandchild", {
          householdId: OTHER,
          age: 4,
          relations: [
            [0, BIG + 3n],
            [1, BIG + 4n],
          ],
        }),
        sim(6, "Stranger", { householdId: BIG + 300n }),
        sim(7, "Lodger", { householdId: OTHER }),
      ],
    };
    const bytes = writeSave(save);

    it("merges the families by game id: a Sim in both families comes in once", () => {
      const tree = parseSims4(bytes, { households: [HH.toString(), OTHER.toString()] });
      const names = tree.people.map((p) => p.firstName).sort();
      expect(names).toEqual(["Dad", "Daughter", "Grandchild", "Husband", "Lodger", "Mum"]);
      expect(new Set(tree.people.map((p) => p.gameId)).size).toBe(tree.people.length);
      expect(tree.people.find((p) => p.firstName === "Mum")!.gameId).toBe((BIG + 1n).toString());
      expect(tree.title).toBe("Legacy, Moved Out");
      const kin = buildKinship(tree.data);
      const key = (first: string) => byName(tree, first).key;
      expect(kin.parents.get(key("Grandchild"))?.has(key("Daughter"))).toBe(true);
      expect(kin.parents.get(key("Daughter"))?.has(key("Mum"))).toBe(true);
      // the lodger of the second household is drawn beside the family, not under it
      expect(kin.parents.get(key("Lodger"))).toBeUndefined();
      expect(drawnUnder(tree, key("Lodger"))).toEqual([]);
    });

    it("draws a household's pet and lodger in its own row, not in the root's children's row", () => {
      // the grandchild moved out with a dog and a lodger; the legacy's root is her grandmother
      const bytes = writeSave({
        activeHouseholdId: HH,
        households: [
          { id: HH, name: "Legacy" },
          { id: OTHER, name: "Moved Out" },
        ],
        sims: [
          sim(1, "Gran", { spouse: BIG + 2n }),
          sim(2, "Grandpa", { spouse: BIG + 1n }),
          sim(3, "Daughter", {
            relations: [
              [0, BIG + 1n],
              [1, BIG + 2n],
            ],
          }),
          sim(4, "Grandchild", { householdId: OTHER, relations: [[0, BIG + 3n]] }),
          sim(5, "Dog", { householdId: OTHER, species: 2 }),
          sim(6, "Lodger", { householdId: OTHER }),
        ],
      });
      const tree = parseSims4(bytes, { households: [HH.toString(), OTHER.toString()] });
      const kin = buildKinship(tree.data);
      const key = (first: string) => byName(tree, first).key;
      expect(tree.data.person?._id).toBe(key("Gran"));
      const row = (first: string) => kin.placements.get(key(first))!.map((p) => p.depth);
      expect(row("Grandchild")).toEqual([2]);
      for (const apart of ["Dog", "Lodger"]) {
        expect(row(apart)).toEqual([2]);
        expect(kin.generation.get(key(apart))).toBe(kin.generation.get(key("Grandchild")));
        expect(kin.parents.get(key(apart))).toBeUndefined();
        expect(drawnUnder(tree, key(apart))).toEqual([]);
      }
    });

    it("imports the same as one household when both households are one family's", () => {
      const one = parseSims4(bytes, { household: HH.toString() });
      const two = parseSims4(bytes, { households: [HH.toString(), OTHER.toString()] });
      // the legacy's family already holds the daughter's; only the lodger is new
      expect(two.people.length - one.people.length).toBe(1);
    });

    it("takes one household as before, and the active one without any", () => {
      expect(parseSims4(bytes, { households: [] }).title).toBe("Legacy");
      expect(parseSims4(bytes, { households: [OTHER.toString()] }).title).toBe("Moved Out");
      expect(parseSims4(bytes, { households: [HH.toString(), HH.toString()] }).title).toBe(
        "Legacy",
      );
    });

    it("refuses a household the save does not have, among others", () => {
      expect(() =>
        parseSims4(bytes, { households: [HH.toString(), "12345678901234567890"] }),
      ).toThrow(
        new ImportError(
          "The save has no household 12345678901234567890. Choose one of the households it lists.",
        ),
      );
    });
  });
});

describe("the household list (issue 34)", () => {
  it("names each household's members, so two of one name are told apart", () => {
    const list = listSims4Households(realSave("ffrese-2024.save"));
    const wolf = list.find((h) => h.name === "Wolf")!;
    expect(wolf.memberNames).toEqual(["Malik Wolf", "Malik Wolf"]);
    const delgato = listSims4Households(randomis).find((h) => h.name === "Дельгато")!;
    expect(delgato.memberNames).toEqual([
      "Суприя Дельгато",
      "Джастин Дельгато",
      "Эви Дельгато",
      "Пирс Дельгато",
      "Блу",
      "Бартоломью Б. Биттлбан-старший",
    ]);
    for (const household of list) expect(household.memberNames).toHaveLength(household.members);
  });
});

describe("a parent the save no longer holds, named by many Sims (bounded, issue 32's caps)", () => {
  const HH = 2n ** 61n;
  const missing = 2n ** 61n + 999_999n;
  const save = (children: number) =>
    writeSave(
      {
        activeHouseholdId: HH,
        households: [{ id: HH, name: "Orphans" }],
        sims: Array.from({ length: children }, (_, i) => ({
          id: HH + BigInt(i + 1),
          householdId: HH,
          firstName: `Child ${i}`,
          lastName: "Orphan",
          relations: [[0, missing]] as [number, bigint][],
        })),
      },
      { compression: "zlib" },
    );

  it("makes them one family of siblings under one placeholder, up to the children cap", () => {
    const tree = parseSims4(save(SIMS4_LIMITS.maxChildrenPerSim));
    expect(tree.people).toHaveLength(SIMS4_LIMITS.maxChildrenPerSim + 1);
    expect(tree.data.children).toHaveLength(SIMS4_LIMITS.maxChildrenPerSim);
    expect(tree.people.find((p) => p.key === tree.data.person?._id)?.firstName).toBe("");
  });

  it("refuses one more child than the cap, as for a parent the save holds", () => {
    expect(() => parseSims4(save(SIMS4_LIMITS.maxChildrenPerSim + 1))).toThrow(
      new ImportError(TOO_MANY_CHILDREN),
    );
  });
});
