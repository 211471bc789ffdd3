import { describe, expect, it } from "vitest";
import { buildKinship } from "@/lib/tree/placements";
import { node, peopleMap } from "@/lib/tree/test-trees";
import {
  candidatesOf,
  formatReason,
  suggestHeir,
  type SuccessionCandidate,
  type SuccessionInput,
  type SuccessionLaws,
} from "./succession";

let order = 0;
/** A living, natural-born, human child; each made later than the one before. */
const kid = (name: string, extra: Partial<SuccessionCandidate> = {}): SuccessionCandidate => ({
  id: name.toLowerCase(),
  name,
  birthOrder: order++,
  adopted: false,
  alive: true,
  gender: "female",
  ...extra,
});
const laws = (extra: Partial<SuccessionLaws> = {}): SuccessionLaws => ({
  gender: "equality",
  bloodline: "modern",
  heir: "firstBorn",
  ...extra,
});
const run = (input: SuccessionInput) => {
  const result = suggestHeir(input);
  return { ...result, text: result.reasons.map(formatReason) };
};

describe("succession: the tricky cases", () => {
  it("twins: First Born follows the children's order and says the order decides", () => {
    const result = run({
      candidates: [
        kid("Ana", { birthGroup: "t1", gender: "female" }),
        kid("Ari", { birthGroup: "t1", gender: "male" }),
        kid("Cy", { gender: "male" }),
      ],
      laws: laws(),
    });
    expect(result.suggested).toBe("ana");
    expect(result.eligible).toEqual(["ana", "ari", "cy"]);
    expect(result.text).toEqual([
      "First Born: Ana is the eldest who may inherit.",
      "Ana was born together with Ari: the order of the children decides. Check it.",
    ]);
    // the owner swaps the twins: the other one is the eldest
    const swapped = run({
      candidates: [
        kid("Ana", { birthGroup: "t1", birthOrder: 1 }),
        kid("Ari", { birthGroup: "t1", birthOrder: 0, gender: "male" }),
      ],
      laws: laws(),
    });
    expect(swapped.suggested).toBe("ari");
  });

  it("adopted children only: Traditional lets them inherit, Strict Traditional does not", () => {
    const adopted = [kid("Bea", { adopted: true }), kid("Bo", { adopted: true, gender: "male" })];
    const traditional = run({ candidates: adopted, laws: laws({ bloodline: "traditional" }) });
    expect(traditional.suggested).toBe("bea");
    expect(traditional.text[0]).toBe(
      "Traditional: there is no natural-born child, so an adopted child may inherit.",
    );
    const strict = run({ candidates: adopted, laws: laws({ bloodline: "strictTraditional" }) });
    expect(strict).toMatchObject({ suggested: null, eligible: [], askOwner: false });
    expect(strict.text).toEqual([
      "Strict Traditional: Bea was adopted.",
      "Strict Traditional: Bo was adopted.",
      "No child can inherit under these laws.",
    ]);
    // and among natural-born children, Strict Traditional passes over an adopted elder sister
    const mixed = run({
      candidates: [kid("Bea", { adopted: true }), kid("Cal", { gender: "male" })],
      laws: laws({ bloodline: "strictTraditional" }),
    });
    expect(mixed.suggested).toBe("cal");
    expect(mixed.text[0]).toBe("Strict Traditional: Bea was adopted.");
  });

  it("Foster and Strict Foster put adopted children first, or only them", () => {
    const kids = [kid("Nat", { gender: "male" }), kid("Ada", { adopted: true })];
    expect(suggestHeir({ candidates: kids, laws: laws({ bloodline: "foster" }) }).suggested).toBe(
      "ada",
    );
    const natural = [kid("Nat", { gender: "male" })];
    expect(
      suggestHeir({ candidates: natural, laws: laws({ bloodline: "foster" }) }).suggested,
    ).toBe("nat");
    expect(
      suggestHeir({ candidates: natural, laws: laws({ bloodline: "strictFoster" }) }).suggested,
    ).toBeNull();
  });

  it("no girl under Matriarchy: a boy inherits; under Strict Matriarchy keep trying", () => {
    const boys = [kid("Al", { gender: "male" }), kid("Bo", { gender: "male" })];
    const soft = run({ candidates: boys, laws: laws({ gender: "matriarchy" }) });
    expect(soft.suggested).toBe("al");
    expect(soft.text[0]).toBe("Matriarchy: there is no girl, so any child may inherit.");
    const strict = run({ candidates: boys, laws: laws({ gender: "strictMatriarchy" }) });
    expect(strict).toMatchObject({ suggested: null, eligible: [], askOwner: false });
    expect(strict.text).toEqual([
      "Strict Matriarchy: there is no girl yet. The law says to keep trying for one.",
    ]);
    // with a younger girl, Matriarchy passes over the elder boys
    const withGirl = run({
      candidates: [...boys, kid("Cleo")],
      laws: laws({ gender: "matriarchy" }),
    });
    expect(withGirl.suggested).toBe("cleo");
    expect(withGirl.eligible).toEqual(["cleo"]);
  });

  it("Patriarchy mirrors it", () => {
    const girls = [kid("Di"), kid("Em")];
    expect(suggestHeir({ candidates: girls, laws: laws({ gender: "patriarchy" }) }).suggested).toBe(
      "di",
    );
    expect(
      suggestHeir({ candidates: girls, laws: laws({ gender: "strictPatriarchy" }) }).suggested,
    ).toBeNull();
  });

  it("Strict Equality after a male heir: the heir is a girl, the elder boy passed over", () => {
    const kids = [kid("Finn", { gender: "male" }), kid("Gia")];
    const result = run({
      candidates: kids,
      laws: laws({ gender: "strictEquality" }),
      previousHeirGender: "male",
    });
    expect(result.suggested).toBe("gia");
    expect(result.text[0]).toBe("Strict Equality: after a boy heir comes a girl, so not Finn.");
    // after a female heir, the boy; for the founder's children (no previous heir), the eldest
    expect(
      suggestHeir({
        candidates: kids,
        laws: laws({ gender: "strictEquality" }),
        previousHeirGender: "female",
      }).suggested,
    ).toBe("finn");
    expect(
      suggestHeir({ candidates: kids, laws: laws({ gender: "strictEquality" }) }).suggested,
    ).toBe("finn");
    // only boys after a male heir: keep trying
    expect(
      suggestHeir({
        candidates: [kid("Hal", { gender: "male" })],
        laws: laws({ gender: "strictEquality" }),
        previousHeirGender: "male",
      }),
    ).toMatchObject({ suggested: null, eligible: [] });
  });

  it("Exemplar with no holder and with two: the owner decides; with one, that child", () => {
    const trait = "Creative";
    const none = run({
      candidates: [kid("Io", { traits: ["Genius"] }), kid("Jo", { traits: [] })],
      laws: laws({ heir: "exemplar", exemplarTrait: trait }),
    });
    expect(none).toMatchObject({ suggested: null, askOwner: true, eligible: ["io", "jo"] });
    expect(none.text).toEqual([
      "Exemplar: no child who may inherit has the trait Creative. Choose the heir.",
    ]);
    const two = run({
      candidates: [
        kid("Io", { traits: ["creative"] }),
        kid("Jo", { traits: ["Genius"] }),
        kid("Ky", { traits: ["Creative", "Loner"] }),
      ],
      laws: laws({ heir: "exemplar", exemplarTrait: trait }),
    });
    expect(two).toMatchObject({ suggested: null, askOwner: true, shortlist: ["io", "ky"] });
    expect(two.text).toEqual([
      "Exemplar: Io and Ky both have the trait Creative. Choose among them.",
    ]);
    const one = suggestHeir({
      candidates: [kid("Io"), kid("Ky", { traits: ["Creative"] })],
      laws: laws({ heir: "exemplar", exemplarTrait: trait }),
    });
    expect(one.suggested).toBe("ky");
  });

  it("a dead eldest: First Born passes to the next living child, Last Born ignores the dead youngest", () => {
    const kids = [
      kid("Lea", { alive: false }),
      kid("Max", { gender: "male" }),
      kid("Ned", { alive: false, gender: "male" }),
    ];
    const first = run({ candidates: kids, laws: laws() });
    expect(first.suggested).toBe("max");
    expect(first.eligible).toEqual(["max"]);
    expect(first.text).toEqual([
      "Lea has died and cannot inherit.",
      "Ned has died and cannot inherit.",
      "Max is the only child who may inherit.",
    ]);
    expect(suggestHeir({ candidates: kids, laws: laws({ heir: "lastBorn" }) }).suggested).toBe(
      "max",
    );
  });

  it("asks the owner, quoting the rule, where the tree cannot know (Living Will, Merit, Strength, Democracy)", () => {
    for (const heir of ["livingWill", "merit", "strength", "democracy"] as const) {
      const result = run({ candidates: [kid("Oz"), kid("Pia")], laws: laws({ heir }) });
      expect(result).toMatchObject({ suggested: null, askOwner: true, eligible: ["oz", "pia"] });
      expect(result.text[0]).toMatch(/The tree cannot know this: choose the heir\.$/);
    }
    expect(formatReason({ code: "heir.askOwner", law: "livingWill" })).toBe(
      "Living Will: The previous heir chooses the heir, as their will says. The tree cannot know this: choose the heir.",
    );
  });

  it("Random suggests nobody but offers the same seeded pick for the same seed", () => {
    const kids = [kid("Q1"), kid("Q2"), kid("Q3"), kid("Q4")];
    const a = suggestHeir({ candidates: kids, laws: laws({ heir: "random" }), seed: "tree:3" });
    const b = suggestHeir({ candidates: kids, laws: laws({ heir: "random" }), seed: "tree:3" });
    expect(a.suggested).toBeNull();
    expect(a.askOwner).toBe(true);
    expect(a.offer).toBe(b.offer);
    expect(kids.map((k) => k.id)).toContain(a.offer);
    const offers = new Set(
      Array.from(
        { length: 40 },
        (_, i) =>
          suggestHeir({ candidates: kids, laws: laws({ heir: "random" }), seed: `s${i}` }).offer,
      ),
    );
    expect(offers.size).toBeGreaterThan(1);
    expect(suggestHeir({ candidates: kids, laws: laws({ heir: "random" }) }).offer).toBeNull();
  });

  it("a gender law with a child of unknown gender says so and asks", () => {
    const result = run({
      candidates: [kid("Rue", { gender: null }), kid("Sam", { gender: "male" })],
      laws: laws({ gender: "patriarchy" }),
    });
    expect(result).toMatchObject({ suggested: null, askOwner: true, eligible: ["rue", "sam"] });
    expect(result.text).toEqual([
      "Patriarchy: the tree does not know whether Rue is a girl or a boy. Set their Gender, or choose the heir yourself.",
    ]);
    // Equality does not need to know
    expect(
      suggestHeir({ candidates: [kid("Rue", { gender: null })], laws: laws() }).suggested,
    ).toBe("rue");
  });

  it("the species law: prefer, require and exclude", () => {
    const kids = [kid("Tia"), kid("Uma", { species: ["Alien"] })];
    const species = (mode: "prefer" | "require" | "exclude") =>
      suggestHeir({ candidates: kids, laws: laws({ species: { mode, species: "alien" } }) });
    expect(species("prefer").suggested).toBe("uma");
    expect(species("require").suggested).toBe("uma");
    expect(species("exclude").suggested).toBe("tia");
    expect(
      suggestHeir({
        candidates: [kid("Tia")],
        laws: laws({ species: { mode: "prefer", species: "Alien" } }),
      }).suggested,
    ).toBe("tia");
    expect(
      suggestHeir({
        candidates: [kid("Tia")],
        laws: laws({ species: { mode: "require", species: "Alien" } }),
      }),
    ).toMatchObject({ suggested: null, eligible: [] });
  });

  it("no children: nothing to suggest", () => {
    expect(run({ candidates: [], laws: laws() })).toMatchObject({
      suggested: null,
      eligible: [],
      text: ["The heir has no children yet."],
    });
  });
});

describe("candidatesOf", () => {
  it("reads the heir's children from the tree: order, adoption, gender, traits", () => {
    const tree = node("h", [
      node("a", [], { parents: [{ _id: "h" }] }),
      node("b", [], { adoptiveParents: [{ _id: "h" }] }),
    ]);
    const people = peopleMap("h", "a", "b");
    people.get("a")!.custom = [{ title: "Gender", value: "Female" }];
    people.get("b")!.traits = ["Creative"];
    const candidates = candidatesOf(buildKinship(tree), "h", people);
    expect(candidates).toEqual([
      {
        id: "a",
        name: "a",
        birthOrder: 0,
        adopted: false,
        alive: true,
        gender: "female",
        species: [],
        traits: [],
      },
      {
        id: "b",
        name: "b",
        birthOrder: 1,
        adopted: true,
        alive: true,
        gender: null,
        species: [],
        traits: ["Creative"],
      },
    ]);
    const result = suggestHeir({ candidates, laws: laws({ bloodline: "strictTraditional" }) });
    expect(result.suggested).toBe("a");
  });
});
