import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ImportError, type ImportedTree } from "@/lib/import/types";
import { treeData, type TreeNode } from "@/lib/schemas/tree";
import { parseGedcom } from "./import";

const SAMPLE = path.resolve("tests/fixtures/gedcom/sample.ged");
const enc = (text: string) => new TextEncoder().encode(text);
const gedcom = (...lines: string[]) =>
  enc(["0 HEAD", "1 GEDC", "2 VERS 5.5.1", ...lines, "0 TRLR", ""].join("\n"));

function nodes(root: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    out.push(node);
    stack.push(...[...node.children].reverse());
  }
  return out;
}

function namer(tree: ImportedTree) {
  const byKey = new Map(tree.people.map((p) => [p.key, `${p.firstName} ${p.lastName}`]));
  return (id: string | undefined) => byKey.get(id ?? "") ?? "?";
}

function nodeOf(tree: ImportedTree, name: string): TreeNode {
  const nameOf = namer(tree);
  const found = nodes(tree.data).filter((n) => nameOf(n.person?._id) === name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
}

function refusal(bytes: Uint8Array): string {
  try {
    parseGedcom(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return (error as Error).message;
  }
  throw new Error("the file was accepted");
}

describe("parseGedcom on the Gramps sample (tests/fixtures/gedcom/sample.ged)", () => {
  const tree = parseGedcom(new Uint8Array(fs.readFileSync(SAMPLE)));
  const nameOf = namer(tree);
  const all = nodes(tree.data);

  it("imports all 43 individuals and places every one of them", () => {
    expect(tree.source).toBe("gedcom");
    expect(tree.title).toBe("Sample");
    expect(tree.people).toHaveLength(43);
    expect(new Set(tree.people.map((p) => p.key)).size).toBe(43);
    const placed = new Set<string>();
    for (const node of all) {
      if (node.person) placed.add(node.person._id);
      for (const entry of node.partners) for (const ref of entry.people) placed.add(ref._id);
    }
    expect(placed.size).toBe(43);
    // the structure passes the API's own contract
    expect(treeData.safeParse(tree.data).success).toBe(true);
  });

  it("turns the 15 families into 15 partner entries with their types", () => {
    const entries = all.flatMap((node) => node.partners.map((entry) => ({ node, entry })));
    expect(entries).toHaveLength(15);
    const couples = new Set(
      entries.map(({ node, entry }) => [node.person!._id, entry.people[0]!._id].sort().join("+")),
    );
    expect(couples.size).toBe(15);
    // 12 families have a MARR, F11 and F15 have none
    expect(entries.filter(({ entry }) => entry.type === "MARRIED")).toHaveLength(13);
    expect(entries.filter(({ entry }) => entry.type === "PARTNER")).toHaveLength(2);
  });

  it("roots the tree at the founder of the longest line, with the stray person in a hidden branch", () => {
    expect(nameOf(tree.data.person?._id)).toBe("Ingeman Smith");
    expect(tree.data.partners.map((e) => e.people.map((r) => nameOf(r._id)))).toEqual([
      ["Marta Ericsdotter"],
    ]);
    const hidden = tree.data.children.filter((c) => c.hidden);
    expect(hidden.map((c) => nameOf(c.person?._id))).toEqual(["Really Old Guy"]);
    expect(all.filter((n) => n.hidden)).toHaveLength(1);
  });

  it("places the person with two spouses once, with both partner entries", () => {
    const hans = nodeOf(tree, "Hans Peter Smith");
    expect(hans.partners.map((e) => [e.type, ...e.people.map((r) => nameOf(r._id))])).toEqual([
      ["PARTNER", "Lillie Harriet Jones"],
      ["PARTNER", "Jennifer Anderson"],
    ]);
    expect(hans.children.map((c) => nameOf(c.person?._id))).toEqual(["Lloyd Smith"]);
  });

  it("maps adoptions from _FREL/_MREL and from an ADOP event naming one parent", () => {
    const adopted = all.filter((n) => n.adoptiveParents.length > 0);
    expect(
      adopted.map((n) => [
        nameOf(n.person?._id),
        n.parents.map((r) => nameOf(r._id)),
        n.adoptiveParents.map((r) => nameOf(r._id)),
      ]),
    ).toEqual([
      ["Martin Smith", ["Ingeman Smith"], ["Marta Ericsdotter"]],
      ["Marjorie Alice Smith", [], ["John Hjalmar Smith", "Alice Paula Perkins"]],
      ["Mason Michael Smith", [], ["Edwin Michael Smith", "Janice Ann Adams"]],
      ["Lloyd Smith", [], ["Hans Peter Smith", "Lillie Harriet Jones"]],
    ]);
    expect(adopted.reduce((sum, n) => sum + n.adoptiveParents.length, 0)).toBe(7);
    expect(nodeOf(tree, "Amber Marie Smith").parents.map((r) => nameOf(r._id))).toEqual([
      "Edwin Michael Smith",
      "Janice Ann Adams",
    ]);
  });

  it("links a child named only by the INDI's FAMC (no CHIL in the family)", () => {
    const edwin = nodeOf(tree, "Edwin Michael Smith");
    expect(edwin.parents.map((r) => nameOf(r._id))).toEqual([
      "John Hjalmar Smith",
      "Alice Paula Perkins",
    ]);
  });

  it("reads names, suffixes, shared NOTE records and facts", () => {
    const edwin = tree.people.find((p) => p.firstName === "Edwin Michael")!;
    expect(edwin.lastName).toBe("Smith");
    expect(edwin.custom).toContainEqual({ title: "Sex", value: "Male" });
    expect(edwin.custom).toContainEqual({ title: "Occupation", value: "Software Engineer" });
    expect(edwin.custom).toContainEqual({
      title: "Marriage",
      value: "Janice Ann Adams, 27 MAY 1995, San Ramon, Conta Costa Co., CA",
    });
    expect(tree.people.find((p) => p.firstName === "Gustaf")!.lastName).toBe("Smith, Sr.");
    const guy = tree.people.find((p) => p.lastName === "Guy")!;
    expect(guy.custom).toContainEqual({
      title: "Birth",
      value: "26 JUN 34 BCE, Hayward, Alameda Co., CA",
    });
    const martin = tree.people.find((p) => p.bio.includes("Husman"))!;
    expect(martin.bio).toBe(
      "<p>BIOGRAPHY<br>Martin was listed as being a Husman, (owning a house as opposed to a<br>farm) in the house records of Gladsax.</p>",
    );
  });
});

describe("parseGedcom mapping", () => {
  it("maps DIV to EX_PARTNER, PEDI to adoptive parents and notes to escaped paragraphs", () => {
    const tree = parseGedcom(
      gedcom(
        "0 @I1@ INDI",
        "1 NAME Bella /Goth/",
        "1 NOTE Likes <b>chess</b> & stars",
        "2 CONT",
        "2 CONT Second paragraph",
        "1 FAMS @F1@",
        "0 @I2@ INDI",
        "1 NAME Mortimer /Goth/",
        "1 FAMS @F1@",
        "0 @I3@ INDI",
        "1 NAME /Goth/",
        "2 GIVN Cassandra",
        "1 FAMC @F1@",
        "2 PEDI adopted",
        "0 @F1@ FAM",
        "1 HUSB @I2@",
        "1 WIFE @I1@",
        "1 CHIL @I3@",
        "1 MARR",
        "1 DIV Y",
      ),
    );
    const bella = tree.people[0]!;
    expect(bella.bio).toBe(
      "<p>Likes &lt;b&gt;chess&lt;/b&gt; &amp; stars</p><p>Second paragraph</p>",
    );
    expect(tree.people[2]!.firstName).toBe("Cassandra");
    // Bella is first in the file and as deep as Mortimer: she is the root
    expect(tree.data.person?._id).toBe(bella.key);
    expect(tree.data.partners).toEqual([
      { type: "EX_PARTNER", people: [{ _id: tree.people[1]!.key }] },
    ]);
    const cassandra = tree.data.children[0]!;
    expect(cassandra.parents).toEqual([]);
    expect(cassandra.adoptiveParents.map((r) => r._id)).toEqual([tree.people[1]!.key, bella.key]);
  });

  it("gives a person who is a child in two families a node under each", () => {
    const tree = parseGedcom(
      gedcom(
        "0 @A@ INDI",
        "1 NAME Birth /Mother/",
        "0 @B@ INDI",
        "1 NAME Foster /Father/",
        "0 @C@ INDI",
        "1 NAME Kid /Both/",
        "0 @D@ INDI",
        "1 NAME Grand /Child/",
        "0 @F1@ FAM",
        "1 WIFE @A@",
        "1 CHIL @C@",
        "0 @F2@ FAM",
        "1 HUSB @B@",
        "1 CHIL @C@",
        "2 _FREL Foster",
        "0 @F3@ FAM",
        "1 HUSB @C@",
        "1 CHIL @D@",
      ),
    );
    const nameOf = namer(tree);
    const kidNodes = nodes(tree.data).filter((n) => nameOf(n.person?._id) === "Kid Both");
    expect(kidNodes).toHaveLength(2);
    // the first placement (breadth first) carries the grandchild, the other does not repeat it
    expect(kidNodes.map((n) => n.children.map((c) => nameOf(c.person?._id)))).toEqual([
      ["Grand Child"],
      [],
    ]);
    expect(kidNodes.map((n) => [n.parents.length, n.adoptiveParents.length])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(kidNodes[1]!.adoptiveParents.map((r) => nameOf(r._id))).toEqual(["Foster Father"]);
  });

  it("keeps a spouse's own parents: they get a hidden branch where the spouse appears again", () => {
    const tree = parseGedcom(
      gedcom(
        "0 @G1@ INDI",
        "1 NAME Old /Root/",
        "0 @G2@ INDI",
        "1 NAME Heir /Root/",
        "0 @G3@ INDI",
        "1 NAME Great /Grandchild/",
        "0 @S@ INDI",
        "1 NAME In /Law/",
        "0 @P@ INDI",
        "1 NAME Law /Parent/",
        "0 @F1@ FAM",
        "1 HUSB @G1@",
        "1 CHIL @G2@",
        "0 @F2@ FAM",
        "1 HUSB @G2@",
        "1 WIFE @S@",
        "1 CHIL @G3@",
        "0 @F3@ FAM",
        "1 HUSB @P@",
        "1 CHIL @S@",
      ),
    );
    const nameOf = namer(tree);
    expect(nameOf(tree.data.person?._id)).toBe("Old Root");
    const branch = tree.data.children.find((c) => c.hidden)!;
    expect(nameOf(branch.person?._id)).toBe("Law Parent");
    const inLaw = branch.children[0]!;
    expect(nameOf(inLaw.person?._id)).toBe("In Law");
    expect(inLaw.partners[0]!.people.map((r) => nameOf(r._id))).toEqual(["Heir Root"]);
    expect(inLaw.children).toEqual([]);
  });

  it("reads GEDCOM 7 shared notes with MIME text/html and Heirloom's own tags", () => {
    const tree = parseGedcom(
      enc(
        [
          "0 HEAD",
          "1 GEDC",
          "2 VERS 7.0",
          "1 _HEIRLOOM_TITLE The Goths",
          "0 @N1@ SNOTE <p>Kept <strong>as HTML</strong></p>",
          "1 MIME text/html",
          "0 @I1@ INDI",
          "1 NAME Bella /Goth/",
          "1 SNOTE @N1@",
          "1 _HEIRLOOM_TRAIT Romantic",
          "1 _HEIRLOOM_TRAIT Romantic",
          "1 _HEIRLOOM_LIFE_STATE Alien",
          "1 _HEIRLOOM_ASPIRATION Soulmate",
          "1 FACT Astronaut",
          "2 TYPE Career",
          "0 TRLR",
        ].join("\n"),
      ),
    );
    expect(tree.title).toBe("The Goths");
    const bella = tree.people[0]!;
    expect(bella.bio).toBe("<p>Kept <strong>as HTML</strong></p>");
    expect(bella.traits).toEqual(["Romantic"]);
    expect(bella.lifeStates).toEqual(["Alien"]);
    expect(bella.aspirations).toEqual(["Soulmate"]);
    expect(bella.custom).toEqual([{ title: "Career", value: "Astronaut" }]);
  });

  it.each([
    [
      "a child who is their own parent's parent",
      gedcom(
        "0 @I1@ INDI",
        "1 NAME Loop /Start/",
        "0 @I2@ INDI",
        "1 NAME Loop /End/",
        "0 @F1@ FAM",
        "1 HUSB @I1@",
        "1 CHIL @I2@",
        "0 @F2@ FAM",
        "1 HUSB @I2@",
        "1 CHIL @I1@",
      ),
      "their own ancestor",
    ],
    [
      "a person who is their own child",
      gedcom("0 @I1@ INDI", "1 NAME Self /Made/", "0 @F1@ FAM", "1 HUSB @I1@", "1 CHIL @I1@"),
      "This GEDCOM file makes Self Made (@I1@) their own ancestor",
    ],
  ])("refuses %s", (_name, bytes, message) => {
    expect(refusal(bytes)).toContain(message);
  });

  it.each([
    [
      "a family pointing to a missing person",
      gedcom("0 @I1@ INDI", "0 @F1@ FAM", "1 HUSB @I9@", "1 WIFE @I1@"),
      "1 pointer refers to a record that is not in the file; it was left out: line 6.",
    ],
    [
      "a person pointing to a missing family",
      gedcom("0 @I1@ INDI", "1 FAMC @F9@"),
      "1 pointer refers to a record that is not in the file; it was left out: line 5.",
    ],
    [
      "a pointer to the wrong kind of record",
      gedcom("0 @I1@ INDI", "0 @F1@ FAM", "1 CHIL @F1@"),
      "1 pointer refers to a record of the wrong kind; it was left out (CHIL @F1@ is FAM): line 6.",
    ],
    [
      "a missing shared note",
      gedcom("0 @I1@ INDI", "1 NOTE @N1@"),
      "1 pointer refers to a record that is not in the file; it was left out: line 5.",
    ],
    [
      "a reused id",
      gedcom("0 @I1@ INDI", "1 NAME First /One/", "0 @I1@ INDI", "1 NAME Second /One/"),
      "1 record reuses the id of an earlier record; it was left out (@I1@): line 6.",
    ],
    [
      "a family link that is not a pointer",
      gedcom("0 @I1@ INDI", "1 FAMS F1"),
      "1 link (FAMS, FAMC, HUSB, WIFE or CHIL) holds no pointer; it was left out (FAMS): line 5.",
    ],
  ])("imports %s and says what it left out", (_name, bytes, note) => {
    const tree = parseGedcom(bytes);
    expect(tree.people.length).toBeGreaterThan(0);
    expect(tree.notes).toEqual([note]);
    expect(treeData.safeParse(tree.data).success).toBe(true);
  });
});

describe("parseGedcom on damaged real-world shapes", () => {
  it("imports a 1,000-person file with 622 pointers to missing families, counting them", () => {
    const lines: string[] = [];
    const dangling: number[] = [];
    // 250 couples with two children each, then 500 people whose FAMC/FAMS name missing families
    for (let f = 1; f <= 125; f += 1) {
      const [h, w, c1, c2] = [1, 2, 3, 4].map((i) => `@I${(f - 1) * 4 + i}@`);
      lines.push(`0 ${h} INDI`, `1 NAME Husband${f} /Family${f}/`, `1 FAMS @F${f}@`);
      lines.push(`0 ${w} INDI`, `1 NAME Wife${f} /Family${f}/`, `1 FAMS @F${f}@`);
      lines.push(`0 ${c1} INDI`, `1 NAME Child${f}a /Family${f}/`, `1 FAMC @F${f}@`);
      lines.push(`0 ${c2} INDI`, `1 NAME Child${f}b /Family${f}/`, `1 FAMC @F${f}@`);
      lines.push(`0 @F${f}@ FAM`, `1 HUSB ${h}`, `1 WIFE ${w}`, `1 CHIL ${c1}`, `1 CHIL ${c2}`);
    }
    for (let i = 501; i <= 1000; i += 1) {
      lines.push(`0 @I${i}@ INDI`, `1 NAME Stray${i} /Person/`);
      lines.push(`1 FAMC @F${1000 + i}@`);
      dangling.push(lines.length + 3);
      if (i <= 622) {
        lines.push(`1 FAMS @F${2000 + i}@`);
        dangling.push(lines.length + 3);
      }
    }
    const tree = parseGedcom(gedcom(...lines));
    expect(tree.people).toHaveLength(1000);
    expect(dangling).toHaveLength(622);
    expect(tree.notes).toEqual([
      `622 pointers refer to records that are not in the file; they were left out: lines ${dangling
        .slice(0, 5)
        .map((n) => n.toLocaleString("en-US"))
        .join(", ")} and 617 more.`,
    ]);
    // every person is placed; 125 families and 500 people on their own
    expect(tree.families).toBe(625);
    const placed = new Set(
      nodes(tree.data).flatMap((n) => [
        n.person?._id,
        ...n.partners.flatMap((e) => e.people.map((r) => r._id)),
      ]),
    );
    expect(placed.size).toBe(1000);
    expect(treeData.safeParse(tree.data).success).toBe(true);
  });

  it("reads a pointer on a CONT line as text and names that fault, not a CONT continuing nothing", () => {
    const tree = parseGedcom(
      gedcom(
        "0 @I1@ INDI",
        "1 NAME Ada /Lovelace/",
        "1 NOTE @N148@",
        "0 @N148@ NOTE Wrote the first program.",
        "1 @N149@ CONT She worked with Babbage.",
      ),
    );
    expect(tree.people[0]!.bio).toBe("<p>Wrote the first program.<br>She worked with Babbage.</p>");
    expect(tree.notes).toHaveLength(1);
    expect(tree.notes![0]).toMatch(
      /^1 continuation line \(CONT or CONC\) has a record id.*: line 8\.$/,
    );
  });
});

describe("parseGedcom opening view (issue 13)", () => {
  /** A legendary line 12 generations deep, a 40-person family, and a lone couple. */
  function threeFamilies() {
    const lines: string[] = [];
    for (let g = 1; g <= 12; g += 1) {
      lines.push(`0 @L${g}@ INDI`, `1 NAME Legend${g} /Line/`);
      if (g > 1) lines.push(`1 FAMC @LF${g - 1}@`);
      if (g < 12)
        lines.push(`1 FAMS @LF${g}@`, `0 @LF${g}@ FAM`, `1 HUSB @L${g}@`, `1 CHIL @L${g + 1}@`);
    }
    // the big family: a founding couple, 6 children, each married with 4 children
    lines.push("0 @B0@ INDI", "1 NAME Big /Founder/", "0 @B00@ INDI", "1 NAME Big /Wife/");
    lines.push("0 @BF@ FAM", "1 HUSB @B0@", "1 WIFE @B00@");
    for (let c = 1; c <= 6; c += 1) lines.push(`1 CHIL @B${c}@`);
    for (let c = 1; c <= 6; c += 1) {
      lines.push(
        `0 @B${c}@ INDI`,
        `1 NAME Child${c} /Big/`,
        `0 @S${c}@ INDI`,
        `1 NAME Spouse${c} /Other/`,
      );
      lines.push(`0 @BF${c}@ FAM`, `1 HUSB @B${c}@`, `1 WIFE @S${c}@`);
      for (let k = 1; k <= 4; k += 1) lines.push(`1 CHIL @G${c}_${k}@`);
      for (let k = 1; k <= 4; k += 1)
        lines.push(`0 @G${c}_${k}@ INDI`, `1 NAME Grand${c}${k} /Big/`);
    }
    lines.push("0 @C1@ INDI", "1 NAME Lone /Husband/", "0 @C2@ INDI", "1 NAME Lone /Wife/");
    lines.push("0 @CF@ FAM", "1 HUSB @C1@", "1 WIFE @C2@");
    return parseGedcom(gedcom(...lines), { fileName: "C:\\fakepath\\Three families.ged" });
  }

  it("roots the tree at the largest connected family, not the longest line", () => {
    const tree = threeFamilies();
    const nameOf = namer(tree);
    expect(nameOf(tree.data.person?._id)).toBe("Big Founder");
    expect(tree.data.children.filter((c) => !c.hidden).map((c) => nameOf(c.person?._id))).toEqual([
      "Child1 Big",
      "Child2 Big",
      "Child3 Big",
      "Child4 Big",
      "Child5 Big",
      "Child6 Big",
    ]);
    // the other families sit beside it as hidden roots, larger first, after the root's children
    const hidden = tree.data.children.filter((c) => c.hidden);
    expect(hidden.map((c) => nameOf(c.person?._id))).toEqual(["Legend1 Line", "Lone Husband"]);
    expect(tree.data.children.slice(-2)).toEqual(hidden);
    expect(tree.families).toBe(3);
    expect(tree.people).toHaveLength(12 + 2 + 12 + 24 + 2);
    expect(tree.title).toBe("Three families");
  });

  it("takes the title from the file's own title, then the chosen file name, never the program's name", () => {
    const head = (...lines: string[]) =>
      enc(
        [
          "0 HEAD",
          "1 SOUR Legacy",
          "2 NAME Legacy 9.0",
          "1 GEDC",
          "2 VERS 5.5.1",
          ...lines,
          "0 @I1@ INDI",
          "0 TRLR",
        ].join("\n"),
      );
    expect(parseGedcom(head("1 FILE Legacy 9.0")).title).toBe("Imported family tree");
    expect(
      parseGedcom(head("1 FILE Legacy 9.0"), { fileName: "Smiths of Gladsax.GED" }).title,
    ).toBe("Smiths of Gladsax");
    expect(parseGedcom(head("1 FILE C:\\Family\\Smith.ged")).title).toBe("Smith");
    expect(
      parseGedcom(head("1 _HEIRLOOM_TITLE The Goths", "1 FILE x.ged"), { fileName: "goths.ged" })
        .title,
    ).toBe("The Goths");
  });
});
