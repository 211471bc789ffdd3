import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseVarFile } from "@/lib/import/normalize";
import { openZip } from "@/lib/import/zip";
import type { Person, PersonLink } from "@/lib/schemas/person";
import { type Tree, type TreeNode, treeData } from "@/lib/schemas/tree";
import { mapPersonRefs } from "@/lib/tree/reducers";
import { db } from "@/lib/server/db";
import { getStorage } from "@/lib/server/storage";
import { masterKey } from "@/lib/server/uploads/image-files";
import { deleteUploadFiles } from "@/lib/server/uploads/delete-upload-files";
import { api, call, detailOf, type ApiResponse } from "../helpers/api";
import {
  createPerson,
  createTree,
  createUser,
  type TestUser,
  uploadImage,
} from "../helpers/factories";
import { makeImage } from "../fixtures/plumtree/build";

interface ImportAnswer {
  tree: Tree;
  imported: { people: number; images: number; droppedLinks: number; notes: string[] };
}

let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  [alice, bob] = await Promise.all([createUser(), createUser()]);
});

afterAll(async () => {
  const names = [alice.username, bob.username];
  const uploads = await db.upload.findMany({
    where: { ownerId: { in: names } },
    select: { id: true },
  });
  await deleteUploadFiles(uploads.map((u) => u.id));
  await db.user.deleteMany({ where: { id: { in: names } } });
});

const exportZip = (token: string | null, treeId: string, query = "") =>
  call("GET", `/api/trees/${treeId}/export${query}`, { token });

const importZip = (token: string, bytes: Uint8Array) =>
  call<ImportAnswer>("POST", "/api/trees/import", {
    token,
    rawBody: new Uint8Array(bytes),
    headers: { "content-type": "application/zip" },
  });

async function peopleOf(token: string, treeId: string): Promise<Person[]> {
  const response = await api.get<Person[]>(`/api/people?tree=${treeId}`, { token });
  expect(response.status).toBe(200);
  return response.body;
}

function mapIds(node: TreeNode, map: (id: string) => string): TreeNode {
  return mapPersonRefs(node, ({ _id }) => ({ _id: map(_id) }));
}

/**
 * "Equal after our pipeline": every import decodes and re-encodes an image (ADR 004) into the
 * lean WebP original (ADR 015), and the export writes it back in the name's format, so an image
 * must come back under the same extension, at the same size, with pixels that differ by at most
 * 6/255 on average per channel (two more WebP generations at quality 90, on noisy fixtures).
 */
async function expectSameImage(before: string | null, after: string | null) {
  if (before === null) {
    expect(after).toBeNull();
    return;
  }
  expect(after).not.toBeNull();
  const [a, b] = await Promise.all([
    getStorage()
      .get(masterKey(before))
      .then((s) => s!.bytes()),
    getStorage()
      .get(masterKey(after!))
      .then((s) => s!.bytes()),
  ]);
  expect(after!.split(".").pop()).toBe(before.split(".").pop());
  const [pa, pb] = await Promise.all([
    sharp(a).raw().toBuffer({ resolveWithObject: true }),
    sharp(b).raw().toBuffer({ resolveWithObject: true }),
  ]);
  expect([pb.info.width, pb.info.height]).toEqual([pa.info.width, pa.info.height]);
  let difference = 0;
  for (let i = 0; i < pa.data.length; i++) difference += Math.abs(pa.data[i]! - pb.data[i]!);
  expect(difference / pa.data.length).toBeLessThanOrEqual(6);
}

describe("Heirloom backup ZIP: export, then import", () => {
  let tree: Tree;
  let people: Person[];
  let other: { tree: Tree; person: Person };
  let exported: ApiResponse;

  beforeAll(async () => {
    // Another published tree of Alice's that a Sim links to.
    const otherTree = await createTree(alice.token, { title: "The Lothario Legacy" });
    const don = await createPerson(alice.token, otherTree._id, { firstName: "Don" });
    expect(
      (await api.put(`/api/published/${otherTree._id}`, undefined, { token: alice.token })).status,
    ).toBe(200);
    other = { tree: otherTree, person: don };

    const cover = await uploadImage(alice.token, await makeImage("jpeg", 160, 90, 40), "cover");
    tree = await createTree(alice.token, {
      title: "The Round-Trip Legacy: Gen 1",
      description: "<p>Founded <strong>twice</strong>.</p><ul><li><p>Exported</p></li></ul>",
      cover,
    });
    const bellaAvatar = await uploadImage(
      alice.token,
      await makeImage("png", 64, 64, 10),
      "avatar",
    );
    const mortimerAvatar = await uploadImage(
      alice.token,
      await makeImage("jpeg", 80, 80, 90),
      "avatar",
    );
    const bella = await createPerson(alice.token, tree._id, {
      firstName: "Bella",
      avatar: bellaAvatar,
      bio: "<p>Vanished <em>one night</em>.</p>",
      traits: ["Romantic", "Snob"],
      custom: [{ title: "Favourite colour", value: "Black" }],
    });
    const mortimer = await createPerson(alice.token, tree._id, {
      firstName: "Mortimer",
      avatar: mortimerAvatar,
      aspirations: ["Renaissance Sim"],
    });
    const cassandra = await createPerson(alice.token, tree._id, {
      firstName: "Cassandra",
      bio: "",
      traits: [],
      custom: [],
    });
    const alien = await createPerson(alice.token, tree._id, {
      firstName: "Pollination",
      avatar: bellaAvatar,
      lifeStates: ["Alien"],
    });
    const data: TreeNode = {
      person: { _id: mortimer._id },
      partners: [
        { type: "MARRIED", people: [{ _id: bella._id }] },
        { type: "ABDUCTION", people: [{ _id: alien._id }] },
      ],
      parentType: "NONE",
      parents: [],
      adoptiveParents: [],
      hidden: false,
      children: [
        {
          person: { _id: cassandra._id },
          partners: [{ type: "EX_PARTNER", people: [{ _id: alien._id }, { _id: bella._id }] }],
          parentType: "CLONE",
          parents: [{ _id: mortimer._id }],
          adoptiveParents: [{ _id: bella._id }],
          hidden: true,
          children: [
            {
              person: null,
              partners: [{ type: "PARTNER", people: [] }],
              parentType: "ABDUCTION",
              parents: [{ _id: alien._id }],
              adoptiveParents: [],
              hidden: false,
              children: [],
            },
          ],
        },
        {
          person: { _id: mortimer._id },
          partners: [],
          parentType: "NONE",
          parents: [],
          adoptiveParents: [],
          hidden: false,
          children: [],
        },
      ],
    };
    const saved = await api.patch(`/api/trees/${tree._id}`, { data }, { token: alice.token });
    expect(saved.status, detailOf(saved)).toBe(200);
    // A link within the tree needs the tree published; one to the other published tree.
    expect(
      (await api.put(`/api/published/${tree._id}`, undefined, { token: alice.token })).status,
    ).toBe(200);
    const links: PersonLink[] = [
      { title: "Also here", treeId: tree._id, personId: cassandra._id },
      { title: "The Lotharios", treeId: other.tree._id, personId: other.person._id },
    ];
    const linked = await api.put(`/api/people/${bella._id}`, { links }, { token: alice.token });
    expect(linked.status, detailOf(linked)).toBe(200);

    const read = (await api.get<Tree>(`/api/trees/${tree._id}`, { token: alice.token })).body;
    // GET gives each reference its person's names (issue 13); the files hold the stored ids
    tree = { ...read, data: treeData.parse(read.data) };
    people = await peopleOf(alice.token, tree._id);
    exported = await exportZip(alice.token, tree._id);
  });

  it("answers a ZIP download named after the tree", () => {
    expect(exported.status, detailOf(exported)).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/zip");
    expect(exported.headers.get("content-disposition")).toBe(
      'attachment; filename="the-round-trip-legacy-gen-1.zip"',
    );
    expect(Number(exported.headers.get("content-length"))).toBe(exported.bytes.length);
    expect(exported.headers.get("cache-control")).toBe("no-store");
  });

  it("holds the data in Plum Tree's layout, the images, heirloom.json and tree.html", () => {
    const zip = openZip(exported.bytes);
    const imageNames = [tree.cover!, people[0]!.avatar!, people[1]!.avatar!].map(
      (n) => `images/${n}`,
    );
    expect(
      zip
        .list()
        .map((e) => e.name)
        .sort(),
    ).toEqual(
      ["heirloom.json", "tree.html", "data/tree.js", "data/people.js", ...imageNames].sort(),
    );
    const manifest = JSON.parse(zip.readText("heirloom.json")) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      format: "heirloom-backup",
      version: 1,
      counts: { people: 4, images: 3 },
    });
    expect(parseVarFile(zip.readText("data/tree.js"), "tree", "data/tree.js")).toEqual({
      _id: tree._id,
      title: tree.title,
      description: tree.description,
      cover: tree.cover,
      data: tree.data,
    });
    expect(parseVarFile(zip.readText("data/people.js"), "people", "data/people.js")).toEqual(
      people,
    );
    expect(zip.readText("tree.html")).toContain('<script src="data/tree.js"></script>');
  });

  async function roundTrip(token: string) {
    const response = await importZip(token, exported.bytes);
    expect(response.status, detailOf(response)).toBe(201);
    const copy = response.body.tree;
    const copies = await peopleOf(token, copy._id);
    return { response, copy, copies };
  }

  it("imports back equal: structure, people and images (ids differ; compared after mapping)", async () => {
    const { response, copy, copies } = await roundTrip(alice.token);
    expect(response.body.imported).toMatchObject({
      people: 4,
      images: 3,
      droppedLinks: 0,
      notes: [],
    });
    expect(copy._id).not.toBe(tree._id);

    // People keep their order, so the n-th person of the copy is the n-th of the original.
    expect(copies).toHaveLength(people.length);
    const newId = new Map(people.map((p, i) => [p._id, copies[i]!._id]));
    const mapped = (id: string) => newId.get(id) ?? `unmapped:${id}`;

    expect({ title: copy.title, description: copy.description }).toEqual({
      title: tree.title,
      description: tree.description,
    });
    expect(copy.data).toEqual(mapIds(tree.data, mapped));

    for (const [i, before] of people.entries()) {
      const after = copies[i]!;
      const { _id: _a, tree: _t, avatar: _v, links, ...fields } = before;
      expect(after).toMatchObject(fields);
      expect(after.links).toEqual(
        links.map((link) =>
          link.treeId === tree._id
            ? { ...link, treeId: copy._id, personId: mapped(link.personId) }
            : link,
        ),
      );
      await expectSameImage(before.avatar, after.avatar);
    }
    await expectSameImage(tree.cover, copy.cover);
    // Two Sims shared one avatar, and still do.
    expect(copies[3]!.avatar).toBe(copies[0]!.avatar);
  });

  it("imports for another player too, keeping the link to the published tree", async () => {
    const { copy, copies } = await roundTrip(bob.token);
    expect(copies[0]!.links).toEqual([
      { title: "Also here", treeId: copy._id, personId: copies[2]!._id },
      { title: "The Lotharios", treeId: other.tree._id, personId: other.person._id },
    ]);
    const uploads = await db.upload.findMany({
      where: { id: { in: [copy.cover!, copies[0]!.avatar!] } },
    });
    expect(uploads.map((u) => [u.ownerId, u.status])).toEqual([
      [bob.username, "USED"],
      [bob.username, "USED"],
    ]);
  });

  it("drops a link whose target tree is no longer published", async () => {
    expect(
      (await api.delete(`/api/published/${other.tree._id}`, undefined, { token: alice.token }))
        .status,
    ).toBe(200);
    try {
      const { response, copies } = await roundTrip(bob.token);
      expect(response.body.imported.droppedLinks).toBe(1);
      expect(copies[0]!.links).toHaveLength(1);
    } finally {
      await api.put(`/api/published/${other.tree._id}`, undefined, { token: alice.token });
    }
  });
});

describe("GET /api/trees/{treeId}/export?format=gedcom", () => {
  it("answers GEDCOM text as a download named after the tree", async () => {
    const tree = await createTree(alice.token, { title: "Gedcom Goths" });
    const bella = await createPerson(alice.token, tree._id, { firstName: "Bella" });
    const data = { person: { _id: bella._id } };
    expect(
      (await api.patch(`/api/trees/${tree._id}`, { data }, { token: alice.token })).status,
    ).toBe(200);
    const response = await exportZip(alice.token, tree._id, "?format=gedcom");
    expect(response.status, detailOf(response)).toBe(200);
    expect(response.headers.get("content-type")).toBe(
      "text/vnd.familysearch.gedcom; charset=utf-8",
    );
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="gedcom-goths.ged"',
    );
    const text = response.bytes.toString("utf8");
    expect(text).toMatch(/^(\uFEFF)?0 HEAD/);
    expect(text).toContain("Bella");
  });

  it("is 404 for someone else's tree", async () => {
    const tree = await createTree(alice.token, { title: "Not Bob's" });
    const response = await exportZip(bob.token, tree._id, "?format=gedcom");
    expect({ status: response.status, detail: detailOf(response) }).toEqual({
      status: 404,
      detail: "Tree not found",
    });
  });
});

describe("GET /api/trees/{treeId}/export refuses", () => {
  let tree: Tree;
  beforeAll(async () => {
    tree = await createTree(alice.token, { title: "Private" });
  });

  it.each([
    ["someone else's tree", () => bob.token, () => tree._id, "", 404, "Tree not found"],
    [
      "a missing tree",
      () => alice.token,
      () => "0b6f5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
      "",
      404,
      "Tree not found",
    ],
    ["an id that cannot be one", () => alice.token, () => "no%20such", "", 404, "Tree not found"],
    ["no token", () => null, () => tree._id, "", 401, "Looks like you're not logged in"],
    [
      "an unknown format",
      () => alice.token,
      () => tree._id,
      "?format=pdf",
      400,
      "format must be one of zip, gedcom",
    ],
  ])("%s", async (_name, token, id, query, status, detail) => {
    const response = await exportZip(token(), id(), query);
    expect({ status: response.status, detail: detailOf(response) }).toEqual({ status, detail });
  });

  it("a deleted tree (404)", async () => {
    const doomed = await createTree(alice.token, { title: "Doomed" });
    expect(
      (await api.delete(`/api/trees/${doomed._id}`, undefined, { token: alice.token })).status,
    ).toBe(200);
    const response = await exportZip(alice.token, doomed._id);
    expect({ status: response.status, detail: detailOf(response) }).toEqual({
      status: 404,
      detail: "Tree not found",
    });
  });
});
