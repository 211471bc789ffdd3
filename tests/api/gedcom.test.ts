import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { call, detailOf, type ApiResponse } from "../helpers/api";
import { createUser, type TestUser } from "../helpers/factories";

const SAMPLE = fs.readFileSync(path.resolve("tests/fixtures/gedcom/sample.ged"));

interface ImportAnswer {
  tree: Tree;
  imported: { people: number; notes: string[]; families: number };
}

const users: TestUser[] = [];
async function newUser(): Promise<TestUser> {
  const user = await createUser();
  users.push(user);
  return user;
}

afterAll(async () => {
  await db.user.deleteMany({ where: { id: { in: users.map((u) => u.username) } } });
});

function postGedcom(token: string, bytes: Uint8Array): Promise<ApiResponse<ImportAnswer>> {
  return call<ImportAnswer>("POST", "/api/trees/import", {
    token,
    rawBody: new Uint8Array(bytes),
    headers: { "content-type": "application/octet-stream" },
  });
}

async function peopleOf(token: string, treeId: string): Promise<Person[]> {
  const response = await call<Person[]>("GET", `/api/people?tree=${treeId}`, { token });
  expect(response.status).toBe(200);
  return response.body;
}

/** The structure with ids renamed in breadth-first order of first use, with each person's fields. */
function canonical(root: TreeNode, people: Person[]) {
  const byId = new Map(people.map((p) => [p._id, p]));
  const labels = new Map<string, string>();
  const label = (id: string) => {
    if (!labels.has(id)) labels.set(id, `#${labels.size + 1}`);
    return labels.get(id)!;
  };
  const lines: string[] = [];
  const queue: [TreeNode, string][] = [[root, "root"]];
  for (let i = 0; i < queue.length; i += 1) {
    const [node, at] = queue[i]!;
    const refs = (list: { _id: string }[]) => list.map((r) => label(r._id)).join(",");
    lines.push(
      [
        at,
        node.person ? label(node.person._id) : "-",
        node.partners.map((e) => `${e.type}:${refs(e.people)}`).join(";"),
        node.parentType,
        refs(node.parents),
        refs(node.adoptiveParents),
        node.hidden ? "hidden" : "",
      ].join(" | "),
    );
    node.children.forEach((c, j) => queue.push([c, `${at}.${j}`]));
  }
  const fields = [...labels].map(([id, name]) => {
    const p = byId.get(id)!;
    return [name, p.firstName, p.lastName, p.bio, p.traits, p.aspirations, p.lifeStates, p.custom];
  });
  return { lines, fields };
}

describe("GEDCOM through the API", () => {
  it("imports the Gramps sample, exports it as GEDCOM 7 and imports that to the same tree", async () => {
    const user = await newUser();
    const imported = await postGedcom(user.token, SAMPLE);
    expect(imported.status).toBe(201);
    const tree = imported.body.tree;
    expect(tree.title).toBe("Sample");
    expect(imported.body.imported.people).toBe(43);
    expect(await db.person.count({ where: { treeId: tree._id } })).toBe(43);

    const people = await peopleOf(user.token, tree._id);
    const nameOf = (id: string) => {
      const p = people.find((q) => q._id === id)!;
      return `${p.firstName} ${p.lastName}`;
    };
    const stored = await call<Tree>("GET", `/api/trees/${tree._id}`, { token: user.token });
    const data = stored.body.data;
    expect(nameOf(data.person!._id)).toBe("Ingeman Smith");
    let partnerEntries = 0;
    let adoptiveLinks = 0;
    const stack = [data];
    for (let node = stack.pop(); node; node = stack.pop()) {
      stack.push(...node.children);
      partnerEntries += node.partners.length;
      adoptiveLinks += node.adoptiveParents.length;
    }
    expect(partnerEntries).toBe(15);
    expect(adoptiveLinks).toBe(7);
    // the Sims' bios went through the sanitizer and kept their text
    expect(people.find((p) => p.bio.includes("Husman"))!.bio).toMatch(
      /^<p>BIOGRAPHY<br ?\/?>Martin/,
    );

    const exported = await call("GET", `/api/trees/${tree._id}/export?format=gedcom`, {
      token: user.token,
    });
    expect(exported.status).toBe(200);
    const text = exported.bytes.toString("utf8");
    expect(text.startsWith("0 HEAD\n1 GEDC\n2 VERS 7.0\n")).toBe(true);
    expect(text.match(/^0 @I\d+@ INDI$/gm)).toHaveLength(43);
    expect(text.match(/^0 @F\d+@ FAM$/gm)).toHaveLength(15);

    const again = await postGedcom(user.token, exported.bytes);
    expect(again.status).toBe(201);
    expect(again.body.tree._id).not.toBe(tree._id);
    const againPeople = await peopleOf(user.token, again.body.tree._id);
    const againTree = await call<Tree>("GET", `/api/trees/${again.body.tree._id}`, {
      token: user.token,
    });
    expect(againTree.body.title).toBe("Sample");
    expect(canonical(againTree.body.data, againPeople)).toEqual(canonical(data, people));
  });

  it.each([
    [
      "cyclic family links",
      Buffer.from(
        [
          "0 HEAD",
          "0 @I1@ INDI",
          "1 NAME Loop /One/",
          "0 @I2@ INDI",
          "1 NAME Loop /Two/",
          "0 @F1@ FAM",
          "1 HUSB @I1@",
          "1 CHIL @I2@",
          "0 @F2@ FAM",
          "1 WIFE @I2@",
          "1 CHIL @I1@",
          "0 TRLR",
        ].join("\n"),
      ),
      "their own ancestor",
    ],
    [
      "garbage after a GEDCOM header",
      Buffer.concat([Buffer.from("0 HEAD\n"), Buffer.from([0x00, 0xff, 0x13, 0x37, 0x0a])]),
      "This file is not a GEDCOM file: it contains binary data.",
    ],
  ])("refuses %s with 400, a clear detail, and creates nothing", async (_name, bytes, detail) => {
    const user = await newUser();
    const response = await postGedcom(user.token, bytes);
    expect(response.status).toBe(400);
    expect(detailOf(response)).toContain(detail);
    expect(await db.tree.count({ where: { ownerId: user.username } })).toBe(0);
  });

  it.each([
    [
      "a truncated file",
      SAMPLE.subarray(0, SAMPLE.length - 8),
      [
        'The file does not end with the line "0 TRLR": it may have been cut off; it was read up to its last line.',
      ],
      43,
    ],
    [
      "a missing family",
      Buffer.from("0 HEAD\n0 @I1@ INDI\n1 FAMC @F404@\n0 TRLR\n"),
      ["1 pointer refers to a record that is not in the file; it was left out: line 3."],
      1,
    ],
    [
      "absurd nesting",
      Buffer.from(
        [
          "0 HEAD",
          "0 @I1@ INDI",
          ...Array.from({ length: 500 }, (_, i) => `${i + 1} _X x`),
          "0 TRLR",
        ].join("\n"),
      ),
      [
        "1 line has a tag Heirloom does not know; it was left out (_X): line 3.",
        "401 lines are nested more than 99 levels deep; they were left out: lines 102, 103, 104, 105, 106 and 396 more.",
      ],
      1,
    ],
  ])(
    "imports %s with 201 and says in imported.notes what it read past",
    async (_name, bytes, notes, people) => {
      const user = await newUser();
      const response = await postGedcom(user.token, bytes);
      expect(response.status).toBe(201);
      for (const note of notes) expect(response.body.imported.notes).toContain(note);
      expect(response.body.imported.people).toBe(people);
      expect(response.body.imported.families).toBeGreaterThanOrEqual(1);
      expect(await db.tree.count({ where: { ownerId: user.username } })).toBe(1);
    },
  );
});

// Issue 32, finding 14: the import routes read only a raw body, so a form upload (curl -F
// file=@family.ged, a browser's FormData) was read as its multipart framing and refused.
describe("POST /api/trees/import with a multipart/form-data upload", () => {
  it("imports the form's file part, named by its file name", async () => {
    const user = await newUser();
    const body = new FormData();
    body.append("comment", "the file comes second");
    body.append(
      "file",
      new Blob([
        "0 HEAD\n0 @I1@ INDI\n1 NAME Ada /Form/\n0 @I2@ INDI\n1 NAME Bram /Form/\n0 TRLR\n",
      ]),
      "family.ged",
    );
    const response = await call<ImportAnswer>("POST", "/api/trees/import", {
      token: user.token,
      rawBody: body,
    });
    expect(response.status).toBe(201);
    expect(response.body.imported.people).toBe(2);
    const people = await peopleOf(user.token, response.body.tree._id);
    expect(people.map((p) => `${p.firstName} ${p.lastName}`).sort()).toEqual([
      "Ada Form",
      "Bram Form",
    ]);
  });
});
