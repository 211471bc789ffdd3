import { describe, expect, it } from "vitest";
import { filterPeople, fullName, NO_NAME } from "./person-name";

const bella = { firstName: "Bella", lastName: "Goth" };
const mortimer = { firstName: "Mortimer", lastName: "Goth" };
const cassandra = { firstName: "Cassandra", lastName: "" };
const nameless = { firstName: "", lastName: "" };
const people = [bella, mortimer, cassandra, nameless];

describe("fullName", () => {
  it.each([
    [bella, "Bella Goth"],
    [cassandra, "Cassandra"],
    [{ firstName: "", lastName: "Goth" }, "Goth"],
    [nameless, NO_NAME],
  ])("%o → %s", (person, expected) => {
    expect(fullName(person)).toBe(expected);
  });

  it("uses the spec's text for no name", () => {
    expect(NO_NAME).toBe("~ No Name ~");
  });
});

describe("filterPeople", () => {
  it.each([
    ["", [bella, mortimer, cassandra, nameless]],
    ["goth", [bella, mortimer]],
    ["GOTH", [bella, mortimer]],
    ["bElLa", [bella]],
    ["bella goth", [bella]],
    ["a g", [bella]],
    ["r g", [mortimer]],
    ["cassandra ", [cassandra]],
    ["th", [bella, mortimer]],
    ["xyz", []],
    ["  ", []],
  ])("%j keeps the right people", (query, expected) => {
    expect(filterPeople(people, query)).toEqual(expected);
  });

  it("never changes the list it was given", () => {
    const list = [bella, mortimer];
    filterPeople(list, "bella");
    expect(list).toEqual([bella, mortimer]);
  });
});
