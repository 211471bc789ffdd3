import { describe, expect, it } from "vitest";
import { person } from "@/lib/tree/test-trees";
import { matchPeople } from "./match-people";

const people = [
  person("1", "Bella", "Goth"),
  person("2", "Mortimer", "Goth"),
  person("3", "Nina", "Caliente"),
  person("4", "", ""),
];

describe("matchPeople", () => {
  it("matches the typed text anywhere in the full name, ignoring case", () => {
    expect(matchPeople(people, "goth").map((p) => p._id)).toEqual(["1", "2"]);
    expect(matchPeople(people, "A G").map((p) => p._id)).toEqual(["1"]);
    expect(matchPeople(people, "  nina ").map((p) => p._id)).toEqual(["3"]);
    expect(matchPeople(people, "zzz")).toEqual([]);
  });

  it("offers everyone for an empty text, up to the limit", () => {
    expect(matchPeople(people, "")).toHaveLength(4);
    expect(matchPeople(people, "", 2).map((p) => p._id)).toEqual(["1", "2"]);
    expect(matchPeople(people, "goth", 1).map((p) => p._id)).toEqual(["1"]);
  });

  it("stays within the limit for a legacy of 10,000 Sims", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => person(`p${i}`, "Sim", `${i}`));
    expect(matchPeople(many, "")).toHaveLength(100);
    // "Sim 99", "Sim 990"–"Sim 999" and "Sim 9900"–"Sim 9999" match: 111, cut to 100.
    const matched = matchPeople(many, "sim 99").map((p) => p.lastName);
    expect(matched).toHaveLength(100);
    expect(matched.slice(0, 12)).toEqual([
      "99",
      ...Array.from({ length: 10 }, (_, i) => `99${i}`),
      "9900",
    ]);
  });
});
