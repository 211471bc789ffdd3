import fs from "node:fs";
import path from "node:path";
import { readGedcom } from "read-gedcom";
import { gedcomToJson } from "topola";
import { describe, expect, it } from "vitest";
import { generateLegacy } from "@/bench/editor/generate";
import type { ImportedPerson, ImportedTree } from "@/lib/import/types";
import type { Person } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { node, partners, person } from "@/lib/tree/test-trees";
import { writeGedcom } from "./export";
import { parseGedcom } from "./import";

const SAMPLE = path.resolve("tests/fixtures/gedcom/sample.ged");
const enc = (text: string) => new TextEncoder().encode(text);

/** An imported tree as the API would hand it to the exporter. */
function asStored(imported: ImportedTree): { tree: Tree; people: Person[] } {
  return {
    tree: {
      _id: "tree1",
      title: imported.title,
      description: imported.description,
      cover: null,
      data: imported.data,
      version: 1,
    },
    people: imported.people.map((p) => ({
      ...p,
      _id: p.key,
      tree: "tree1",
      avatar: null,
      links: [],
    })),
  };
}

function tree(data: TreeNode, title = "Legacy"): Tree {
  return { _id: "tree1", title, description: "", cover: null, data, version: 1 };
}

/**
 * The tree with ids renamed in the order they are met (breadth first), and the people in that
 * order: two imports of the same family compare equal whatever ids the files used.
 */
function canonical(data: TreeNode, people: (Person | ImportedPerson)[]) {
  const idOf = (p: Person | ImportedPerson) => ("_id" in p ? p._id : p.key);
  const byId = new Map(people.map((p) => [idOf(p), p]));
  const names = new Map<string, string>();
  const name = (id: string) => {
    if (!names.has(id)) names.set(id, `#${names.size + 1}`);
    return names.get(id)!;
  };
  const rename = (refs: { _id: string }[]) => refs.map((r) => name(r._id));
  const queue: { from: TreeNode; to: Record<string, unknown> }[] = [];
  const copy = (from: TreeNode) => {
    const to: Record<string, unknown> = {};
    queue.push({ from, to });
    return to;
  };
  const root = copy(data);
  for (let i = 0; i < queue.length; i += 1) {
    const { from, to } = queue[i]!;
    to.person = from.person ? name(from.person._id) : null;
    to.partners = from.partners.map((e) => ({ type: e.type, people: rename(e.people) }));
    to.parentType = from.parentType;
    to.parents = rename(from.parents);
    to.adoptiveParents = rename(from.adoptiveParents);
    to.hidden = from.hidden;
    to.children = from.children.map(copy);
  }
  const fields = [...names.entries()].map(([id, label]) => {
    const p = byId.get(id)!;
    return {
      label,
      firstName: p.firstName,
      lastName: p.lastName,
      bio: p.bio,
      traits: p.traits,
      aspirations: p.aspirations,
      lifeStates: p.lifeStates,
      custom: p.custom,
    };
  });
  return { root, people: fields };
}

/** The relationships a tree states, by a stable label per person, as sorted lists. */
function relations(data: TreeNode, labelOf: (id: string) => string) {
  const couples = new Set<string>();
  const childLinks = new Set<string>();
  const parentTypes = new Set<string>();
  const stack = [data];
  for (let n = stack.pop(); n; n = stack.pop()) {
    stack.push(...n.children);
    const self = n.person?._id;
    if (self) {
      for (const entry of n.partners) {
        for (const ref of entry.people) {
          couples.add(`${[labelOf(self), labelOf(ref._id)].sort().join(" & ")}: ${entry.type}`);
        }
      }
      for (const ref of n.parents) childLinks.add(`${labelOf(self)} <- ${labelOf(ref._id)}`);
      for (const ref of n.adoptiveParents)
        childLinks.add(`${labelOf(self)} <~ ${labelOf(ref._id)}`);
      if (n.parentType !== "NONE") parentTypes.add(`${labelOf(self)}: ${n.parentType}`);
    }
  }
  return {
    couples: [...couples].sort(),
    childLinks: [...childLinks].sort(),
    parentTypes: [...parentTypes].sort(),
  };
}

const sample = parseGedcom(new Uint8Array(fs.readFileSync(SAMPLE)));

describe("writeGedcom", () => {
  it("writes a GEDCOM 7 file: header with version and declared tags, records, trailer", () => {
    const people = [
      person("a", "Bella", "Goth"),
      person("b", "Mortimer", "Goth"),
      person("c", "Cassandra", "Goth"),
    ];
    people[2]!.traits = ["Genius"];
    people[2]!.bio = "<p>First line</p>\n<p>@home</p>";
    const data = node(
      "a",
      [
        node("c", [], {
          parents: [{ _id: "a" }],
          adoptiveParents: [{ _id: "b" }],
          parentType: "CLONE",
        }),
      ],
      {
        partners: partners(["MARRIED", "b"]),
      },
    );
    const text = writeGedcom({ tree: tree(data, "The Goths"), people });
    expect(text).toBe(
      [
        "0 HEAD",
        "1 GEDC",
        "2 VERS 7.0",
        "1 SCHMA",
        "2 TAG _HEIRLOOM_TITLE https://heirloom.example/gedcom/v1/title",
        "2 TAG _HEIRLOOM_PARTNER_TYPE https://heirloom.example/gedcom/v1/partner-type",
        "2 TAG _HEIRLOOM_PARENT_TYPE https://heirloom.example/gedcom/v1/parent-type",
        "2 TAG _HEIRLOOM_TRAIT https://heirloom.example/gedcom/v1/trait",
        "2 TAG _HEIRLOOM_ASPIRATION https://heirloom.example/gedcom/v1/aspiration",
        "2 TAG _HEIRLOOM_LIFE_STATE https://heirloom.example/gedcom/v1/life-state",
        "1 SOUR HEIRLOOM",
        "2 NAME Heirloom",
        "1 _HEIRLOOM_TITLE The Goths",
        "0 @I1@ INDI",
        "1 NAME Bella /Goth/",
        "2 GIVN Bella",
        "2 SURN Goth",
        "1 FAMS @F1@",
        "0 @I2@ INDI",
        "1 NAME Mortimer /Goth/",
        "2 GIVN Mortimer",
        "2 SURN Goth",
        "1 FAMS @F1@",
        "0 @I3@ INDI",
        "1 NAME Cassandra /Goth/",
        "2 GIVN Cassandra",
        "2 SURN Goth",
        "1 NOTE <p>First line</p>",
        "2 CONT <p>@home</p>",
        "2 MIME text/html",
        "1 _HEIRLOOM_TRAIT Genius",
        "1 ADOP",
        "2 FAMC @F1@",
        "3 ADOP WIFE",
        "1 FAMC @F1@",
        "2 PEDI OTHER",
        "3 PHRASE Adopted by one parent",
        "2 _HEIRLOOM_PARENT_TYPE CLONE",
        "0 @F1@ FAM",
        "1 HUSB @I1@",
        "1 WIFE @I2@",
        "1 CHIL @I3@",
        "1 MARR Y",
        "1 _HEIRLOOM_PARTNER_TYPE MARRIED",
        "0 TRLR",
        "",
      ].join("\n"),
    );
  });

  it("doubles a leading @ on every line of a payload", () => {
    const people = [person("a", "Ann")];
    people[0]!.bio = "@first\n@second";
    const text = writeGedcom({ tree: tree(node("a")), people });
    expect(text).toContain("1 NOTE @@first\n2 CONT @@second\n");
    expect(parseGedcom(enc(text)).people[0]!.bio).toBe("@first\n@second");
  });

  it("maps partner types: MARR, DIV, and the tag for PARTNER, ABDUCTION and child-only families", () => {
    const people = ["a", "b", "c", "d", "e", "f"].map((id) => person(id));
    const data = node("a", [node("f", [], { parents: [{ _id: "a" }, { _id: "e" }] })], {
      partners: partners(["MARRIED", "b"], ["EX_PARTNER", "c"], ["ABDUCTION", "d"]),
    });
    const text = writeGedcom({ tree: tree(data), people });
    const fams = text.split("\n0 ").filter((r) => / FAM\n/.test(r));
    expect(fams).toHaveLength(4);
    expect(fams[0]).toContain("1 MARR Y\n1 _HEIRLOOM_PARTNER_TYPE MARRIED");
    expect(fams[1]).toContain("1 DIV Y\n1 _HEIRLOOM_PARTNER_TYPE EX_PARTNER");
    expect(fams[2]).toContain("1 NOTE Alien abduction\n1 _HEIRLOOM_PARTNER_TYPE ABDUCTION");
    expect(fams[3]).toContain(
      "1 HUSB @I1@\n1 WIFE @I6@\n1 CHIL @I5@\n1 _HEIRLOOM_PARTNER_TYPE NONE",
    );
    const back = parseGedcom(enc(text));
    expect(back.data.partners.map((e) => e.type)).toEqual(["MARRIED", "EX_PARTNER", "ABDUCTION"]);
    // the child-only family keeps both parents without making them partners
    expect(back.data.children[0]!.parents).toHaveLength(2);
  });

  it("is deterministic and independent of the order people are listed in", () => {
    const { tree: t, people } = asStored(sample);
    const once = writeGedcom({ tree: t, people });
    expect(writeGedcom({ tree: t, people: [...people].reverse() })).toBe(once);
  });

  it("round-trips an imported GEDCOM: export then import gives the same tree", () => {
    const text = writeGedcom(asStored(sample));
    const again = parseGedcom(enc(text));
    expect(again.title).toBe(sample.title);
    expect(canonical(again.data, again.people)).toEqual(canonical(sample.data, sample.people));
  });

  it("round-trips a generated legacy up to the documented mapping", () => {
    const legacy = generateLegacy({ sims: 400, seed: 7 });
    // a person no node places still travels
    legacy.people.push({
      ...person("loner", "Lone", "Sim"),
      bio: "<p>Generated Sim <strong>#loner</strong>.</p>",
    });
    const text = writeGedcom({ tree: tree(legacy.data), people: legacy.people });
    const back = parseGedcom(enc(text));
    expect(back.people).toHaveLength(legacy.people.length);

    // every generated bio is unique, so it names the person on both sides
    const bioOf = new Map<string, string>([
      ...legacy.people.map((p) => [p._id, p.bio] as const),
      ...back.people.map((p) => [p.key, p.bio] as const),
    ]);
    const label = (id: string) => bioOf.get(id)!;
    expect(relations(back.data, label)).toEqual(relations(legacy.data, label));

    const fields = (p: Person | ImportedPerson) => [
      p.firstName,
      p.lastName,
      p.bio,
      p.traits,
      p.aspirations,
      p.lifeStates,
      p.custom,
    ];
    const sortByBio = <T extends { bio: string }>(list: T[]) =>
      [...list].sort((a, b) => a.bio.localeCompare(b.bio));
    expect(sortByBio(back.people).map(fields)).toEqual(sortByBio(legacy.people).map(fields));
    expect(back.data.children.filter((c) => c.hidden).map((c) => label(c.person!._id))).toEqual([
      "<p>Generated Sim <strong>#loner</strong>.</p>",
    ]);
  });

  it("keeps custom rows with empty titles or values, and multi-line values", () => {
    const people = [person("a", "Ann")];
    people[0]!.custom = [
      { title: "", value: "no title" },
      { title: "Empty", value: "" },
      { title: "Lines", value: "one\ntwo" },
      { title: "Yes", value: "Y" },
    ];
    const back = parseGedcom(enc(writeGedcom({ tree: tree(node("a")), people })));
    expect(back.people[0]!.custom).toEqual(people[0]!.custom);
  });

  it("is read by topola and read-gedcom with the expected counts", () => {
    const text = writeGedcom(asStored(sample));
    const json = gedcomToJson(text);
    expect(json.indis).toHaveLength(43);
    expect(json.fams).toHaveLength(15);
    const adopted = json.indis.find((i) => i.firstName === "Lloyd")!;
    expect(json.fams.find((f) => f.id === adopted.famc)!.children).toContain(adopted.id);

    const bytes = enc(text);
    const gedcom = readGedcom(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    );
    expect(gedcom.getIndividualRecord().length).toBe(43);
    expect(gedcom.getFamilyRecord().length).toBe(15);
    expect(gedcom.getHeader().getGedcomFile().getVersion().value()[0]).toBe("7.0");
  });

  it("gives topola and read-gedcom one FAM per couple and per other parent group of a generated legacy", () => {
    const legacy = generateLegacy({ sims: 300, seed: 3 });
    const groups = new Set<string>();
    const stack = [legacy.data];
    for (let n = stack.pop(); n; n = stack.pop()) {
      for (const entry of n.partners)
        for (const ref of entry.people) groups.add([n.person!._id, ref._id].sort().join(" "));
      for (const c of n.children) {
        stack.push(c);
        groups.add(
          [...c.parents, ...c.adoptiveParents]
            .map((r) => r._id)
            .sort()
            .join(" "),
        );
      }
    }
    const text = writeGedcom({ tree: tree(legacy.data), people: legacy.people });
    const json = gedcomToJson(text);
    expect(json.indis).toHaveLength(300);
    expect(json.fams).toHaveLength(groups.size);
    const bytes = enc(text);
    const gedcom = readGedcom(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    );
    expect(gedcom.getIndividualRecord().length).toBe(300);
    expect(gedcom.getFamilyRecord().length).toBe(groups.size);
  });
});

describe("every parent link leaves (issue 24)", () => {
  /** The FAM records of an export, each as its lines without the record line. */
  const famRecords = (text: string) =>
    text
      .split("\n0 ")
      .filter((r) => / FAM\n/.test(r))
      .map((r) => r.split("\n").slice(1));
  const indiRecord = (text: string, xref: string) =>
    text
      .split("\n0 ")
      .find((r) => r.startsWith(`${xref} INDI\n`))!
      .split("\n");

  it("writes a FAM for the root's parents when they are set but not placed, and reads it back", () => {
    const people = [
      person("brom", "Brom"),
      person("ada", "Ada"),
      person("gus", "Gus"),
      person("hattie", "Hattie"),
    ];
    const data = node("brom", [], {
      partners: partners(["MARRIED", "ada"]),
      parents: [{ _id: "gus" }, { _id: "hattie" }],
    });
    const text = writeGedcom({ tree: tree(data), people });
    // Brom @I1@, Ada @I2@, Gus @I3@, Hattie @I4@
    expect(famRecords(text)).toEqual([
      ["1 HUSB @I1@", "1 WIFE @I2@", "1 MARR Y", "1 _HEIRLOOM_PARTNER_TYPE MARRIED"],
      ["1 HUSB @I3@", "1 WIFE @I4@", "1 CHIL @I1@", "1 _HEIRLOOM_PARTNER_TYPE NONE"],
    ]);
    expect(indiRecord(text, "@I1@")).toContain("1 FAMC @F2@");
    expect(indiRecord(text, "@I1@")).toContain("2 PEDI BIRTH");
    expect(indiRecord(text, "@I3@")).toContain("1 FAMS @F2@");
    expect(indiRecord(text, "@I4@")).toContain("1 FAMS @F2@");

    const back = parseGedcom(enc(text));
    const name = (key: string) => back.people.find((p) => p.key === key)!.firstName;
    const label = (id: string) => name(id);
    expect(relations(back.data, label)).toEqual({
      couples: ["Ada & Brom: MARRIED"],
      childLinks: ["Brom <- Gus", "Brom <- Hattie"],
      parentTypes: [],
    });
  });

  it("writes adoptive parents who are not placed as PEDI ADOPTED, and one adoptive parent as an ADOP event", () => {
    const people = ["brom", "ada", "gus", "hattie", "ivo"].map((id) => person(id));
    const data = node("brom", [], {
      partners: partners(["PARTNER", "ada"]),
      adoptiveParents: [{ _id: "gus" }, { _id: "hattie" }],
      parentType: "CLONE",
    });
    const text = writeGedcom({ tree: tree(data), people });
    expect(famRecords(text)[1]).toEqual([
      "1 HUSB @I3@",
      "1 WIFE @I4@",
      "1 CHIL @I1@",
      "1 _HEIRLOOM_PARTNER_TYPE NONE",
    ]);
    const brom = indiRecord(text, "@I1@");
    expect(brom.slice(brom.indexOf("1 FAMC @F2@"))).toEqual([
      "1 FAMC @F2@",
      "2 PEDI ADOPTED",
      "2 _HEIRLOOM_PARENT_TYPE CLONE",
      "1 FAMS @F1@",
    ]);
    let back = parseGedcom(enc(text));
    expect(relations(back.data, (id) => back.people.find((p) => p.key === id)!.firstName)).toEqual({
      couples: ["ada & brom: PARTNER"],
      childLinks: ["brom <~ gus", "brom <~ hattie"],
      parentTypes: ["brom: CLONE"],
    });

    // one birth parent and one adoptive, neither placed: PEDI OTHER and an ADOP event
    const mixed = node("brom", [], {
      parents: [{ _id: "gus" }],
      adoptiveParents: [{ _id: "ivo" }],
    });
    const mixedText = writeGedcom({ tree: tree(mixed), people });
    expect(indiRecord(mixedText, "@I1@")).toEqual(
      expect.arrayContaining(["1 ADOP", "2 FAMC @F1@", "3 ADOP WIFE", "1 FAMC @F1@"]),
    );
    back = parseGedcom(enc(mixedText));
    expect(relations(back.data, (id) => back.people.find((p) => p.key === id)!.firstName)).toEqual({
      couples: [],
      childLinks: ["brom <- gus", "brom <~ ivo"],
      parentTypes: [],
    });
  });

  it("writes a FAM for each pair of more than two parents of the root", () => {
    const people = ["root", "a", "b", "c", "d"].map((id) => person(id));
    const data = node("root", [], {
      parents: [{ _id: "a" }, { _id: "b" }],
      adoptiveParents: [{ _id: "c" }, { _id: "d" }],
    });
    const text = writeGedcom({ tree: tree(data), people });
    expect(famRecords(text).map((r) => r.filter((l) => /HUSB|WIFE|CHIL/.test(l)))).toEqual([
      ["1 HUSB @I2@", "1 WIFE @I3@", "1 CHIL @I1@"],
      ["1 HUSB @I4@", "1 WIFE @I5@", "1 CHIL @I1@"],
    ]);
    const back = parseGedcom(enc(text));
    expect(
      relations(back.data, (id) => back.people.find((p) => p.key === id)!.firstName).childLinks,
    ).toEqual(["root <- a", "root <- b", "root <~ c", "root <~ d"]);
  });
});

describe("lossless round trips (issue 13)", () => {
  const rows = (p: ImportedPerson, titles: string[]) =>
    p.custom.filter((row) => titles.includes(row.title));

  it("keeps the Gramps sample's sex, birth and death with their dates and places, as SEX, BIRT and DEAT", () => {
    const text = writeGedcom(asStored(sample));
    // typed rows leave as GEDCOM structures, never as FACTs
    expect(text).not.toMatch(/2 TYPE (Sex|Birth|Death)\n/);
    expect(text.match(/^1 SEX [MFXU]$/gm)).toHaveLength(
      sample.people.filter((p) => rows(p, ["Sex"]).length > 0).length,
    );
    const back = parseGedcom(enc(text));
    const typed = ["Sex", "Birth", "Christening", "Death", "Burial"];
    const byName = (t: ImportedTree) =>
      t.people.map((p) => JSON.stringify([p.firstName, p.lastName, rows(p, typed)])).sort();
    expect(byName(back)).toEqual(byName(sample));
    expect(sample.people.flatMap((p) => rows(p, ["Birth", "Death"])).length).toBeGreaterThan(40);

    // another program reads them as dates and places
    const json = gedcomToJson(text);
    const edwin = json.indis.find((i) => i.firstName === "Edwin Michael")!;
    expect(edwin.sex).toBe("M");
    expect(edwin.birth).toMatchObject({
      date: { qualifier: "est", year: 1961, month: 5, day: 24 },
      place: "San Jose, Santa Clara Co., CA",
    });
    // "BET. 1899 - 1905" as Family Tree Maker wrote it leaves as BET 1899 AND 1905
    const deaths = json.indis.filter((i) => i.firstName === "Martin").map((i) => i.death);
    expect(deaths).toContainEqual(
      expect.objectContaining({
        dateRange: { from: { year: 1899 }, to: { year: 1905 } },
        place: "Sweden",
      }),
    );
    const withBirthPlace = sample.people.filter((p) =>
      rows(p, ["Birth"]).some((r) => r.value !== "Yes" && !/^\(?[\dA-Z .]+\)?$/.test(r.value)),
    );
    expect(json.indis.filter((i) => i.birth?.place).length).toBe(withBirthPlace.length);
  });

  it("keeps every marriage of the Gramps sample: 15 couples leave as 15 FAMs and come back", () => {
    const text = writeGedcom(asStored(sample));
    const back = parseGedcom(enc(text));
    const entries = (t: ImportedTree) => {
      const name = new Map(t.people.map((p) => [p.key, `${p.firstName} ${p.lastName}`]));
      const out: string[] = [];
      const stack = [t.data];
      for (let n = stack.pop(); n; n = stack.pop()) {
        stack.push(...n.children);
        for (const e of n.partners) {
          out.push(
            `${name.get(n.person!._id)} + ${e.people.map((r) => name.get(r._id)).join()}: ${e.type}`,
          );
        }
      }
      return out.sort();
    };
    expect(entries(sample)).toHaveLength(15);
    expect(entries(back)).toEqual(entries(sample));
    expect(text.match(/^0 @F\d+@ FAM$/gm)).toHaveLength(15);
  });

  it("keeps a remarriage to the same person as its own partner entry and its own FAM", () => {
    const file = enc(
      [
        "0 HEAD",
        "1 GEDC",
        "2 VERS 5.5.1",
        "0 @H@ INDI",
        "1 NAME Hank /Twice/",
        "1 SEX M",
        "0 @W1@ INDI",
        "1 NAME Wilma /First/",
        "1 SEX F",
        "1 FAMC @FP@",
        "0 @W2@ INDI",
        "1 NAME Wendy /Second/",
        "0 @P@ INDI",
        "1 NAME Pa /First/",
        "0 @C@ INDI",
        "1 NAME Kid /Twice/",
        "0 @FP@ FAM",
        "1 HUSB @P@",
        "1 CHIL @W1@",
        "0 @F1@ FAM",
        "1 HUSB @H@",
        "1 WIFE @W1@",
        "1 MARR",
        "2 DATE 1 JUN 1950",
        "1 DIV Y",
        "1 CHIL @C@",
        "0 @F2@ FAM",
        "1 HUSB @H@",
        "1 WIFE @W2@",
        "1 MARR Y",
        "0 @F3@ FAM",
        "1 HUSB @H@",
        "1 WIFE @W1@",
        "1 MARR",
        "2 DATE 2 JUL 1970",
        "0 TRLR",
      ].join("\n"),
    );
    const imported = parseGedcom(file);
    const name = (t: ImportedTree, id: string) => t.people.find((p) => p.key === id)!.firstName;
    const partnerRows = (t: ImportedTree, who: string) => {
      const found: string[][] = [];
      const stack = [t.data];
      for (let n = stack.pop(); n; n = stack.pop()) {
        stack.push(...n.children);
        if (n.person && name(t, n.person._id) === who) {
          found.push(
            n.partners.map((e) => `${e.type} ${e.people.map((r) => name(t, r._id)).join()}`),
          );
        }
      }
      return found;
    };
    const hank = [["EX_PARTNER Wilma", "MARRIED Wendy", "MARRIED Wilma"]];
    expect(partnerRows(imported, "Hank")).toEqual(hank);
    // Wilma also has a node of her own (under her father), listing both marriages to Hank
    expect(partnerRows(imported, "Wilma")).toEqual([["EX_PARTNER Hank", "MARRIED Hank"]]);

    const text = writeGedcom(asStored(imported));
    const fams = text.split("\n0 ").filter((r) => / FAM\n/.test(r));
    expect(fams).toHaveLength(4);
    expect(gedcomToJson(text).fams).toHaveLength(4);
    const back = parseGedcom(enc(text));
    expect(partnerRows(back, "Hank")).toEqual(hank);
    expect(partnerRows(back, "Wilma")).toEqual([["EX_PARTNER Hank", "MARRIED Hank"]]);
    // the marriage dates ride on both partners as text rows
    expect(back.people.find((p) => p.firstName === "Hank")!.custom).toEqual(
      imported.people.find((p) => p.firstName === "Hank")!.custom,
    );
  });

  it("maps typed events both ways: dates, periods, phrases, places, and events that just happened", () => {
    const imported = parseGedcom(
      enc(
        [
          "0 HEAD",
          "1 GEDC",
          "2 VERS 7.0",
          "0 @I1@ INDI",
          "1 NAME Ada /Lovelace/",
          "1 SEX F",
          "1 BIRT",
          "2 DATE 10 DEC 1815",
          "2 PLAC London, England",
          "1 CHR",
          "2 DATE",
          "3 PHRASE In the spring, after the storm",
          "1 DEAT Y",
          "1 BURI",
          "2 PLAC Hucknall, Nottinghamshire",
          "1 CREM",
          "2 DATE abt 1900",
          "0 TRLR",
        ].join("\n"),
      ),
    );
    const ada = imported.people[0]!;
    expect(ada.custom).toEqual([
      { title: "Sex", value: "Female" },
      { title: "Birth", value: "10 DEC 1815, London, England" },
      { title: "Christening", value: "(In the spring, after the storm)" },
      { title: "Death", value: "Yes" },
      { title: "Burial", value: "Hucknall, Nottinghamshire" },
      { title: "Cremation", value: "ABT 1900" },
    ]);
    const text = writeGedcom(asStored(imported));
    expect(text).toContain(
      [
        "1 SEX F",
        "1 BIRT",
        "2 DATE 10 DEC 1815",
        "2 PLAC London, England",
        "1 CHR",
        "2 DATE",
        "3 PHRASE In the spring, after the storm",
        "1 DEAT Y",
        "1 BURI",
        "2 PLAC Hucknall, Nottinghamshire",
        "1 CREM",
        "2 DATE ABT 1900",
      ].join("\n"),
    );
    expect(parseGedcom(enc(text)).people[0]!.custom).toEqual(ada.custom);
    // rows a player typed that do not fit stay text: a multi-line birth, an unknown sex
    const edited = asStored(imported);
    edited.people[0]!.custom = [
      { title: "Sex", value: "Sometimes" },
      { title: "Birth", value: "At home\nin the kitchen" },
    ];
    const again = writeGedcom(edited);
    expect(again).toContain("1 FACT Sometimes\n2 TYPE Sex");
    expect(parseGedcom(enc(again)).people[0]!.custom).toEqual(edited.people[0]!.custom);
  });
});

describe("heirs in the GEDCOM export (issue 26)", () => {
  it("tags each heir's INDI with their generation, declares the tag, and the import reads them back", () => {
    const people = [person("h1", "Ada"), person("h2", "Dev"), person("h3", "Cora")];
    const data = node("h1", [node("h3"), node("h2")]);
    const tree: Tree = { _id: "t", title: "Heirs", description: "", cover: null, data, version: 1 };
    expect(writeGedcom({ tree, people })).not.toContain("_HEIRLOOM_HEIR");
    const text = writeGedcom({ tree: { ...tree, heirs: ["h1", "h2"] }, people });
    expect(text).toContain("2 TAG _HEIRLOOM_HEIR https://heirloom.example/gedcom/v1/heir");
    expect(text.match(/^1 _HEIRLOOM_HEIR \d+$/gm)).toEqual([
      "1 _HEIRLOOM_HEIR 1",
      "1 _HEIRLOOM_HEIR 2",
    ]);
    const back = parseGedcom(new TextEncoder().encode(text));
    const names = (back.heirs ?? []).map(
      (key) => back.people.find((p) => p.key === key)?.firstName,
    );
    expect(names).toEqual(["Ada", "Dev"]);
    expect(back.notes ?? []).toEqual([]);
  });
});
