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
