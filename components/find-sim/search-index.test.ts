import { describe, expect, it } from "vitest";
import { person } from "@/lib/tree/test-trees";
import { buildSearchIndex, foldName, searchSims } from "./search-index";

describe("searchSims", () => {
  const index = buildSearchIndex([
    person("1", "Jünö", "Calloway"),
    person("2", "Junior", "Park"),
    person("3", "Kit", "Park-Calloway"),
    person("4", "Eli", "Calloway"),
    person("5", "Bejuno", "Sims"),
    person("6", "Juno", "Åberg"),
  ]);
  const names = (query: string) => searchSims(index, query).map((e) => e.id);

  it("folds case and accents", () => {
    expect(foldName("Jünö ÅBERG")).toBe("juno aberg");
    expect(names("juno")).toEqual(["6", "1", "5"]);
    expect(names("JUNO")).toEqual(["6", "1", "5"]);
  });

  it("ranks exact, then starts-with, then contains, over first, last and full names", () => {
    expect(names("jun")).toEqual(["2", "6", "1", "5"]);
    expect(names("calloway")).toEqual(["4", "1", "3"]);
    expect(names("park")).toEqual(["2", "3"]);
    expect(names("eli calloway")).toEqual(["4"]);
    expect(names("aberg")).toEqual(["6"]);
    expect(names("  ")).toEqual([]);
  });

  it("stops at the limit", () => {
    expect(searchSims(index, "a", 2)).toHaveLength(2);
  });
});
