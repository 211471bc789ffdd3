import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parseHeirloomZip } from "@/lib/import/heirloom";
import { openZip } from "@/lib/import/zip";
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";
import { makeImage } from "@/tests/fixtures/plumtree/build";
import { exportFileName } from "./filename";
import { scriptSafeJson, writeHeirloomZip } from "./heirloom-zip";
import { viewerHtml } from "./viewer-html";

const person = (id: string, extra: Partial<Person> = {}): Person => ({
  _id: id,
  tree: "tree-1",
  avatar: null,
  firstName: id,
  lastName: "Test",
  bio: "",
  traits: [],
  aspirations: [],
  lifeStates: [],
  custom: [],
  links: [],
  ...extra,
});

const data: TreeNode = {
  person: { _id: "p1" },
  partners: [{ type: "MARRIED", people: [{ _id: "p2" }] }],
  children: [
    {
      person: { _id: "p3" },
      partners: [],
      children: [],
      parentType: "CLONE",
      parents: [{ _id: "p1" }],
      adoptiveParents: [{ _id: "p2" }],
      hidden: true,
    },
  ],
  parentType: "NONE",
  parents: [],
  adoptiveParents: [],
  hidden: false,
};

describe("writeHeirloomZip", () => {
  it("writes the Plum Tree layout plus heirloom.json and tree.html, and reads back whole", async () => {
    const avatar = await makeImage("png", 20, 20, 5);
    const cover = await makeImage("jpeg", 60, 32, 90);
    const people = [
      person("p1", {
        avatar: "avatar/a1.png",
        bio: "<p>Hi</p>",
        traits: ["Genius"],
        custom: [{ title: "k", value: "v" }],
        links: [{ title: "Me", treeId: "tree-1", personId: "p2" }],
      }),
      person("p2", { firstName: "</script><script>alert(1)</script>" }),
      person("p3"),
    ];
    const bytes = writeHeirloomZip({
      tree: {
        _id: "tree-1",
        title: "Round & trip",
        description: "<p>d</p>",
        cover: "cover/c1.jpg",
        data,
      },
      people,
      images: new Map([
        ["avatar/a1.png", avatar],
        ["cover/c1.jpg", cover],
      ]),
      exportedAt: new Date("2025-01-02T03:04:05Z"),
    });

    const zip = openZip(bytes);
    expect(zip.list().map((e) => e.name)).toEqual([
      "heirloom.json",
      "tree.html",
      "data/tree.js",
      "data/people.js",
      "images/avatar/a1.png",
      "images/cover/c1.jpg",
    ]);
    expect(JSON.parse(zip.readText("heirloom.json"))).toEqual({
      format: "heirloom-backup",
      version: 1,
      exportedAt: "2025-01-02T03:04:05.000Z",
      counts: { people: 3, images: 2 },
    });
    expect(zip.readText("data/people.js")).not.toContain("</script>");

    const file = parseHeirloomZip(bytes);
    expect(file).toMatchObject({
      source: "heirloom",
      title: "Round & trip",
      description: "<p>d</p>",
      cover: "images/cover/c1.jpg",
      sourceTreeId: "tree-1",
      data,
      notes: [],
    });
    expect(file.people.map((p) => ({ ...p }))).toEqual(
      people.map((p) => ({
        key: p._id,
        firstName: p.firstName,
        lastName: p.lastName,
        bio: p.bio,
        traits: p.traits,
        aspirations: p.aspirations,
        lifeStates: p.lifeStates,
        custom: p.custom,
        avatar: p.avatar ? `images/${p.avatar}` : null,
        links: p.links,
      })),
    );
    expect(Buffer.from(file.images.get("images/avatar/a1.png")!).equals(avatar)).toBe(true);
    expect(Buffer.from(file.images.get("images/cover/c1.jpg")!).equals(cover)).toBe(true);
  });

  it("refuses a backup from a newer Heirloom", () => {
    const bytes = writeHeirloomZip({
      tree: { _id: "t", title: "", description: "", cover: null, data },
      people: [person("p1"), person("p2"), person("p3")],
      images: new Map(),
      exportedAt: new Date(),
    });
    const zip = openZip(bytes);
    const manifest = zip.readText("heirloom.json").replace('"version": 1', '"version": 2');
    const rebuilt = zipSync(
      Object.fromEntries(
        zip
          .list()
          .map((e) => [
            e.name,
            e.name === "heirloom.json" ? new TextEncoder().encode(manifest) : zip.read(e.name),
          ]),
      ),
    );
    expect(() => parseHeirloomZip(rebuilt)).toThrow(
      "This backup was made by a newer Heirloom (format version 2); this one reads version 1",
    );
  });
});

describe("scriptSafeJson", () => {
  it("is JSON that cannot close a script element", () => {
    const value = { a: "</script><!-- & \u2028" };
    const json = scriptSafeJson(value);
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe("viewerHtml", () => {
  it("stands alone: inline style and script, data from data/*.js, no network address", () => {
    const html = viewerHtml();
    expect(html).toContain('<script src="data/tree.js"></script>');
    expect(html).toContain('<script src="data/people.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<link\b/);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toContain("innerHTML");
  });
});

describe("exportFileName", () => {
  it.each([
    ["The Goth Legacy", "the-goth-legacy.zip"],
    ["  Crème brûlée: Gen 2!  ", "creme-brulee-gen-2.zip"],
    ["", "heirloom-tree.zip"],
    ["👽👽", "heirloom-tree.zip"],
    ['a"b\\c\r\nd', "a-b-c-d.zip"],
  ])("%j → %s", (title, name) => {
    expect(exportFileName(title, "zip")).toBe(name);
  });
});

describe("heirs in the backup (issue 26)", () => {
  it("are written to heirloom.json and read back by the import", () => {
    const tree = {
      _id: "tree-1",
      title: "Heirs",
      description: "",
      cover: null,
      data,
      heirs: ["p1", "p3"],
    };
    const bytes = writeHeirloomZip({
      tree,
      people: [person("p1"), person("p2"), person("p3")],
      images: new Map(),
      exportedAt: new Date("2025-01-02T03:04:05Z"),
    });
    const manifest = JSON.parse(openZip(bytes).readText("heirloom.json")) as { heirs?: string[] };
    expect(manifest.heirs).toEqual(["p1", "p3"]);
    expect(parseHeirloomZip(bytes).heirs).toEqual(["p1", "p3"]);
    const none = writeHeirloomZip({
      tree: { ...tree, heirs: [] },
      people: [person("p1"), person("p2"), person("p3")],
      images: new Map(),
      exportedAt: new Date("2025-01-02T03:04:05Z"),
    });
    expect(parseHeirloomZip(none).heirs).toBeUndefined();
  });
});
