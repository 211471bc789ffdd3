import { describe, expect, it } from "vitest";
import suggestions from "@/lib/data/suggestions.json";
import { rankMatches } from "./rank-matches";

const same = (text: string) => text;

describe("rankMatches", () => {
  it('puts the exact life state first: "Sim" ranks Sim above PlantSim', () => {
    expect(rankMatches(suggestions.lifeStates, "Sim", same)).toEqual(["Sim", "PlantSim"]);
    expect(rankMatches(suggestions.lifeStates, "  sim ", same)[0]).toBe("Sim");
  });

  it('puts prefix matches before matches inside words: "Rom" ranks Romantic first', () => {
    const ranked = rankMatches(suggestions.traits, "Rom", same);
    expect(ranked[0]).toBe("Romantic");
    expect(ranked).toContain("Death by Falling from Heights");
    expect(ranked.indexOf("Romantic")).toBeLessThan(
      ranked.indexOf("Death by Falling from Heights"),
    );
  });

  it("ranks exact, then prefix, then word start, then inside a word, keeping order within a rank", () => {
    const items = ["Academic", "Big Cat", "Cat", "Catnip", "Cat Lover", "Scatterbrain", "Wildcat"];
    expect(rankMatches(items, "cat", same)).toEqual([
      "Cat",
      "Catnip",
      "Cat Lover",
      "Big Cat",
      "Scatterbrain",
      "Wildcat",
    ]);
  });

  it('picks the whole word first: "Crea" ranks Creative before Creative Visionary (issue 36)', () => {
    // the game's list has Creative Visionary before Creative
    expect(suggestions.traits.indexOf("Creative Visionary")).toBeLessThan(
      suggestions.traits.indexOf("Creative"),
    );
    expect(rankMatches(suggestions.traits, "Crea", same).slice(0, 3)).toEqual([
      "Creative",
      "Creatively Gifted",
      "Creative Visionary",
    ]);
    expect(rankMatches(suggestions.traits, "creative", same)[0]).toBe("Creative");
    // a later word's start: the shorter name first too
    expect(rankMatches(["Big Cat Lover", "Big Cat"], "cat", same)).toEqual([
      "Big Cat",
      "Big Cat Lover",
    ]);
  });

  it('ignores accents, as Find a Sim does: "zoe" finds Zoë, "Zoë" finds Zoe (issue 36)', () => {
    const people = [{ name: "Zoë Landgraab" }, { name: "Chloé Zoe" }, { name: "Ñoño Ortiz" }];
    expect(rankMatches(people, "zoe", (p) => p.name).map((p) => p.name)).toEqual([
      "Zoë Landgraab",
      "Chloé Zoe",
    ]);
    expect(rankMatches(people, "ZOË", (p) => p.name)).toHaveLength(2);
    expect(rankMatches(people, "chloe", (p) => p.name).map((p) => p.name)).toEqual(["Chloé Zoe"]);
    expect(rankMatches(people, "nono", (p) => p.name).map((p) => p.name)).toEqual(["Ñoño Ortiz"]);
  });

  it("keeps everything in order for an empty text, and drops what does not match", () => {
    expect(rankMatches(["b", "a"], "   ", same)).toEqual(["b", "a"]);
    expect(rankMatches(["Ghost", "Servo"], "zzz", same)).toEqual([]);
  });

  it("stops at the limit after ranking, so the best matches are never cut", () => {
    const many = [...Array.from({ length: 500 }, (_, i) => `Simmer ${i}`), "Sim"];
    expect(rankMatches(many, "sim", same, 3)).toEqual(["Sim", "Simmer 0", "Simmer 1"]);
  });

  it("ranks objects by the text it is given", () => {
    const people = [{ name: "Bella Goth" }, { name: "Gothic Gus" }, { name: "Goth" }];
    expect(rankMatches(people, "goth", (p) => p.name).map((p) => p.name)).toEqual([
      "Goth",
      "Gothic Gus",
      "Bella Goth",
    ]);
  });
});
