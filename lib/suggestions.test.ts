import { describe, expect, it } from "vitest";
import { SUGGESTIONS } from "./suggestions";

describe("SUGGESTIONS", () => {
  it.each(Object.entries(SUGGESTIONS))("%s are distinct, non-empty names", (_, values) => {
    expect(values.length).toBeGreaterThan(0);
    expect(new Set(values).size).toBe(values.length);
    for (const value of values) {
      expect(value.trim()).toBe(value);
      expect(value.length).toBeGreaterThan(0);
      expect(value.length).toBeLessThanOrEqual(100);
    }
  });

  it("hold the spec's life states and sample aspirations", () => {
    expect(SUGGESTIONS.lifeStates).toEqual([
      "Alien",
      "Cat",
      "Dog",
      "Ghost",
      "Mermaid",
      "PlantSim",
      "Servo",
      "Sim",
      "Skeleton",
      "Spellcaster",
      "Vampire",
    ]);
    for (const aspiration of ["Academic", "Athlete", "Chef", "Soulmate", "Zen Guru"]) {
      expect(SUGGESTIONS.aspirations).toContain(aspiration);
    }
    expect(SUGGESTIONS.traits.length).toBeGreaterThan(300);
  });
});
