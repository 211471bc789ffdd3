import { describe, expect, it } from "vitest";
import { person } from "@/lib/tree/test-trees";
import { nameChars, publicPersonUrl, simName, sortPeople, truncate } from "./labels";

describe("simName", () => {
  it("joins the names, and falls back for a Sim without any", () => {
    expect(simName(person("1", "Bella", "Goth"))).toBe("Bella Goth");
    expect(simName(person("1", "Bella", ""))).toBe("Bella");
    expect(simName(person("1", "", "Goth"))).toBe("Goth");
    expect(simName(person("1", "", ""))).toBe("~ No Name ~");
    expect(simName(undefined)).toBe("~ No Name ~");
  });
});

describe("publicPersonUrl", () => {
  it("points at the public tree with the Sim to open", () => {
    expect(publicPersonUrl("tree1", "p2")).toBe("/public/tree1?p=p2");
    expect(publicPersonUrl("a b", "c&d")).toBe("/public/a%20b?p=c%26d");
  });
});

describe("truncate and nameChars", () => {
  it("cuts long names with an ellipsis", () => {
    expect(truncate("Cassandra", 20)).toBe("Cassandra");
    expect(truncate("Crumplebottom", 8)).toBe("Crumple…");
    expect(truncate("Crumplebottom", 8)).toHaveLength(8);
  });

  it("fits fewer characters under a small avatar", () => {
    expect(nameChars(30)).toBe(11);
    expect(nameChars(20)).toBe(8);
  });
});

describe("sortPeople", () => {
  it("sorts by name, ignoring case", () => {
    const sorted = sortPeople([
      person("1", "zoe", "x"),
      person("2", "Bella", "Goth"),
      person("3", "", ""),
      person("4", "alex", ""),
    ]);
    expect(sorted.map((p) => p._id)).toEqual(["3", "4", "2", "1"]);
  });
});
