import fs from "node:fs";
import sharp from "sharp";
import { zipSync } from "fflate";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { UNKNOWN_FORMAT } from "@/lib/import/detect";
import { parsePlumTreeZip } from "@/lib/import/plumtree";
import { DAMAGED_ZIP } from "@/lib/import/zip";
import type { Person } from "@/lib/schemas/person";
import { TREE_LIMITS, type Tree, type TreeNode, treeData } from "@/lib/schemas/tree";
import { mapPersonRefs } from "@/lib/tree/reducers";
import { db, getDb } from "@/lib/server/db";
import { EMPTY_FILE, IMPORT_PER_USER } from "@/lib/server/import/import-file";
import { IMPORT_TOO_BIG, receiveImportBody } from "@/lib/server/import/read-import-body";
import { getStorage } from "@/lib/server/storage";
import { ApiError } from "@/lib/server/http/errors";
import { deleteUploadFiles } from "@/lib/server/uploads/delete-upload-files";
import { POLYGLOT } from "@/lib/server/uploads/image-check";
import { call, detailOf, type ApiResponse } from "../helpers/api";
import { createUser, type TestUser } from "../helpers/factories";
import {
  buildFixtureZip,
  buildPlumTreeZip,
  buildZip,
  FIXTURE_ZIP,
  makeImage,
  readFixtureJson,
  renameEntry,
  setDeclaredSize,
} from "../fixtures/plumtree/build";
import { buildPruneTreeZip, PRUNE_BUNDLE, pruneImages } from "../fixtures/prunetree/build";
import { SVG_FILE, makePngHtmlPolyglot } from "../helpers/upload-fixtures";

interface ImportAnswer {
  tree: Tree;
  imported: {
    people: number;
    images: number;
    skippedImages: { image: string; reason: string }[];
    droppedLinks: number;
    notes: string[];
  };
}

const users: TestUser[] = [];
async function newUser(): Promise<TestUser> {
  const user = await createUser();
  users.push(user);
  return user;
}

afterAll(async () => {
  const names = users.map((u) => u.username);
  const uploads = await db.upload.findMany({
    where: { ownerId: { in: names } },
    select: { id: true },
  });
  await deleteUploadFiles(uploads.map((u) => u.id));
  await db.user.deleteMany({ where: { id: { in: names } } });
});

function postImport(
  token: string | null,
  bytes: Uint8Array,
  query = "",
  contentType = "application/zip",
): Promise<ApiResponse<ImportAnswer>> {
  return call<ImportAnswer>("POST", `/api/trees/import${query}`, {
    token,
    rawBody: new Uint8Array(bytes),
    headers: { "content-type": contentType },
  });
}

async function peopleOf(token: string, treeId: string): Promise<Person[]> {
  const response = await call<Person[]>("GET", `/api/people?tree=${treeId}`, { token });
  expect(response.status).toBe(200);
  return response.body;
}

/** The structure with every person id replaced through `map` (ids must all be known). */
function mapIds(node: TreeNode, map: (id: string) => string): TreeNode {
  return mapPersonRefs(node, ({ _id }) => ({ _id: map(_id) }));
}

async function rowsOf(username: string) {
  const [trees, people, uploads] = await Promise.all([
    db.tree.count({ where: { ownerId: username } }),
    db.person.count({ where: { tree: { ownerId: username } } }),
    db.upload.count({ where: { ownerId: username } }),
  ]);
  return { trees, people, uploads };
}

/** Records every key stored while a test runs. */
function watchStorage() {
  const storage = getStorage();
  const put = storage.put.bind(storage);
  const keys: string[] = [];
  const spy = vi.spyOn(storage, "put").mockImplementation(async (key, bytes, type) => {
    keys.push(key);
    return put(key, bytes, type);
  });
  return { keys, spy };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("POST /api/trees/import with the hand-built Plum Tree fixture", () => {
  let user: TestUser;
  let answer: ImportAnswer;
  let people: Person[];
  const fixture = fs.readFileSync(FIXTURE_ZIP);
  const oldId = (n: number) => `5f1c0a6e2b9d4a0017aa000${n}`;
  const byName = (first: string) => people.find((p) => p.firstName === first)!;

  beforeAll(async () => {
    user = await newUser();
    const response = await postImport(user.token, fixture);
    expect(response.status, detailOf(response)).toBe(201);
    answer = response.body;
    people = await peopleOf(user.token, answer.tree._id);
  });

  it("answers the new tree in GET /api/trees/{id}'s shape, with what was imported", async () => {
    const got = await call<Tree>("GET", `/api/trees/${answer.tree._id}`, { token: user.token });
    expect(got.status).toBe(200);
    // GET gives each reference its person's names (issue 13); the import answers the ids
    expect(answer.tree).toEqual({ ...got.body, data: treeData.parse(got.body.data) });
    expect(answer.tree._id).not.toBe("5f1c0a6e2b9d4a0017aa0000");
    expect(answer.imported).toEqual({
      people: 7,
      images: 5,
      skippedImages: [],
      droppedLinks: 1,
      // the root's family and the hidden branch of the Goth fixture
      families: 2,
      notes: [
        "The image avatar/lost-forever.png (avatar of Gunther Goth) is not in the archive and was left out",
      ],
    });
    const list = await call<{ _id: string; title: string }[]>("GET", "/api/trees", {
      token: user.token,
    });
    expect(list.body).toContainEqual({ _id: answer.tree._id, title: "The Goth Legacy" });
  });

  it("sanitizes the description and the bios", () => {
    expect(answer.tree.description).toBe(
      "<p>Founded in <em>Willow Creek</em> by <strong>Mortimer</strong>.</p><p>Generation two</p>",
    );
    expect(byName("Bella").bio).toBe(
      "<p>Vanished one night.</p><ul><li><p>Returned <strong>years</strong> later</p></li></ul>",
    );
  });

  it("keeps every person in file order, with new ids and their fields (lists deduplicated)", () => {
    expect(people.map((p) => `${p.firstName} ${p.lastName}`)).toEqual([
      "Bella Goth",
      "Mortimer Goth",
      "Cassandra Goth",
      "Alexander Goth",
      "Don Lothario",
      "Pollination Technician 9",
      "Gunther Goth",
    ]);
    for (const person of people) {
      expect(person.tree).toBe(answer.tree._id);
      expect(person._id).not.toMatch(/^5f1c/);
    }
    expect(byName("Bella")).toMatchObject({
      traits: ["Romantic", "Snob"],
      aspirations: ["Soulmate"],
      lifeStates: ["Sim"],
      custom: [{ title: "Favourite colour", value: "Black" }],
    });
  });

  it("remaps every reference in the structure", () => {
    const fileOrder = (readFixtureJson("people.json") as { _id: string }[]).map((p) => p._id);
    const newId = new Map(fileOrder.map((id, i) => [id, people[i]!._id]));
    const expected = mapIds(parsePlumTreeZip(fixture).data, (id) => newId.get(id)!);
    expect(answer.tree.data).toEqual(expected);
    expect(answer.tree.data.person).toEqual({ _id: byName("Mortimer")._id });
    expect(answer.tree.data.children[1]?.parentType).toBe("CLONE");
    expect(answer.tree.data.children[2]?.hidden).toBe(true);
    expect(JSON.stringify(answer.tree.data)).not.toContain("5f1c");
  });

  it("remaps a link within the tree and drops a link to a tree that is not here", () => {
    expect(byName("Pollination").links).toEqual([
      { title: "Also in this tree", treeId: answer.tree._id, personId: byName("Gunther")._id },
    ]);
    expect(byName("Don").links).toEqual([]);
    expect(oldId(7)).not.toBe(byName("Gunther")._id);
  });

  it("stores the images through the upload pipeline, as USED uploads of the importer", async () => {
    expect(answer.tree.cover).toMatch(/^cover\/[0-9a-f-]{36}\.jpg$/);
    expect(byName("Bella").avatar).toMatch(/^avatar\/[0-9a-f-]{36}\.png$/);
    expect(byName("Mortimer").avatar).toMatch(/^avatar\/[0-9a-f-]{36}\.jpg$/);
    expect(byName("Alexander").avatar).toMatch(/^avatar\/[0-9a-f-]{36}\.jpg$/);
    expect(byName("Pollination").avatar).toMatch(/^avatar\/[0-9a-f-]{36}\.png$/);
    expect(byName("Cassandra").avatar).toBeNull();
    expect(byName("Gunther").avatar).toBeNull();

    const names = [answer.tree.cover!, ...people.flatMap((p) => (p.avatar ? [p.avatar] : []))];
    const uploads = await db.upload.findMany({ where: { id: { in: names } } });
    expect(uploads).toHaveLength(5);
    for (const upload of uploads) {
      expect(upload).toMatchObject({ ownerId: user.username, status: "USED" });
      expect(upload.size).toBeGreaterThan(0);
    }
    const crest = uploads.find((u) => u.id === answer.tree.cover)!;
    expect([crest.dir, crest.contentType, crest.width, crest.height]).toEqual([
      "cover",
      "image/jpeg",
      120,
      64,
    ]);

    // Served like any upload, and resized on request.
    const original = await call("GET", `/api/upload/orig/${byName("Bella").avatar}`);
    expect(original.status).toBe(200);
    const fromZip = parsePlumTreeZip(fixture).images.get("images/avatar/bella.png")!;
    // Stored as the lean WebP original (ADR 015), served as PNG to a client without WebP.
    const served = await sharp(original.bytes).raw().toBuffer({ resolveWithObject: true });
    const source = await sharp(fromZip).rotate().raw().toBuffer({ resolveWithObject: true });
    expect([served.info.format, served.info.width, served.info.height]).toEqual([
      "raw",
      source.info.width,
      source.info.height,
    ]);
    expect((await sharp(original.bytes).metadata()).format).toBe("png");
    const resized = await call("GET", `/api/upload/200x200/${byName("Mortimer").avatar}`);
    expect(resized.status).toBe(200);
    expect(await sharp(resized.bytes).metadata()).toMatchObject({ width: 200, height: 200 });
  });

  it("takes the title from ?title= when given", async () => {
    const response = await postImport(user.token, fixture, "?title=%20Home%20again%20");
    expect(response.status).toBe(201);
    expect(response.body.tree.title).toBe("Home again");
  });
});

describe("POST /api/trees/import with other files", () => {
  it("imports a PruneTree backup (word enums, number ids, cropped images)", async () => {
    const user = await newUser();
    const response = await postImport(
      user.token,
      buildPruneTreeZip(PRUNE_BUNDLE, await pruneImages()),
    );
    expect(response.status, detailOf(response)).toBe(201);
    expect(response.body.imported).toMatchObject({ people: 5, images: 3, droppedLinks: 1 });
    const people = await peopleOf(user.token, response.body.tree._id);
    const id = (first: string) => people.find((p) => p.firstName === first)!._id;
    const data = response.body.tree.data;
    expect(data.person).toEqual({ _id: id("Lilith") });
    expect(data.partners).toEqual([
      { type: "MARRIED", people: [{ _id: id("Caleb") }] },
      { type: "EX_PARTNER", people: [{ _id: id("Vlad") }] },
      { type: "ABDUCTION", people: [] },
    ]);
    expect(data.children.map((c) => c.parentType)).toEqual(["NONE", "CLONE", "ABDUCTION"]);
    expect(people.find((p) => p.firstName === "Caleb")?.links).toEqual([
      { title: "Sister", treeId: response.body.tree._id, personId: id("Lilith") },
    ]);
    expect(response.body.tree.cover).toMatch(/^cover\//);
  });

  it("imports GEDCOM text, detected by its first line (the GEDCOM importer's mapping)", async () => {
    const user = await newUser();
    const gedcom = [
      "0 HEAD",
      "1 GEDC",
      "2 VERS 7.0",
      "0 @I1@ INDI",
      "1 NAME Bella /Goth/",
      "0 @I2@ INDI",
      "1 NAME Mortimer /Goth/",
      "0 @F1@ FAM",
      "1 HUSB @I2@",
      "1 WIFE @I1@",
      "0 TRLR",
      "",
    ].join("\n");
    const response = await postImport(
      user.token,
      new TextEncoder().encode(gedcom),
      "",
      "text/plain; charset=utf-8",
    );
    expect(response.status, detailOf(response)).toBe(201);
    expect(response.body.imported.people).toBe(2);
    const names = (await peopleOf(user.token, response.body.tree._id)).map((p) => p.firstName);
    expect(names.sort()).toEqual(["Bella", "Mortimer"]);
  });

  it("skips images that fail the upload checks, and says why, but imports the rest", async () => {
    const user = await newUser();
    const tree = { _id: "t", title: "Risky pictures", data: { person: { _id: "a" } } };
    const people = [
      { _id: "a", firstName: "Polly", avatar: "polyglot.png" },
      { _id: "b", firstName: "Svg", avatar: "drawing.png" },
      { _id: "c", firstName: "Fine", avatar: "fine.jpg" },
    ];
    const bytes = buildPlumTreeZip(tree, people, {
      "images/polyglot.png": await makePngHtmlPolyglot(),
      "images/drawing.png": SVG_FILE,
      "images/fine.jpg": await makeImage("jpeg", 30, 30, 7),
    });
    const response = await postImport(user.token, bytes);
    expect(response.status, detailOf(response)).toBe(201);
    expect(response.body.imported.images).toBe(1);
    expect(response.body.imported.skippedImages).toEqual([
      { image: "images/drawing.png", reason: "File must be a JPG or PNG" },
      { image: "images/polyglot.png", reason: POLYGLOT },
    ]);
    const avatars = (await peopleOf(user.token, response.body.tree._id)).map((p) => p.avatar);
    expect(avatars[0]).toBeNull();
    expect(avatars[1]).toBeNull();
    expect(avatars[2]).toMatch(/^avatar\/.+\.jpg$/);
    expect(await rowsOf(user.username)).toEqual({ trees: 1, people: 3, uploads: 1 });
  });

  it("clips over-long fields to Heirloom's limits and strips what PostgreSQL cannot store", async () => {
    const user = await newUser();
    const people = [
      {
        _id: "a",
        firstName: `${"N".repeat(150)}`,
        lastName: "Nul\u0000l",
        traits: [...Array.from({ length: 250 }, (_, i) => `Trait ${i}`), ""],
        custom: Array.from({ length: 120 }, (_, i) => ({
          title: `t${i}`,
          value: "v".repeat(6000),
        })),
      },
    ];
    const response = await postImport(
      user.token,
      buildPlumTreeZip({ title: "T".repeat(300), data: { person: { _id: "a" } } }, people),
    );
    expect(response.status, detailOf(response)).toBe(201);
    expect(response.body.tree.title).toHaveLength(200);
    const [person] = await peopleOf(user.token, response.body.tree._id);
    expect(person?.firstName).toHaveLength(100);
    expect(person?.lastName).toBe("Null");
    expect(person?.traits).toHaveLength(200);
    expect(person?.custom).toHaveLength(100);
    expect(person?.custom[0]?.value).toHaveLength(5000);
  });
});

describe("POST /api/trees/import refuses, and creates nothing", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await newUser();
  });

  const fixture = () => new Uint8Array(fs.readFileSync(FIXTURE_ZIP));
  const withEntry = (name: string, placeholder: string) =>
    renameEntry(
      buildPlumTreeZip(readFixtureJson("tree.json"), readFixtureJson("people.json"), {
        [placeholder]: new Uint8Array([1, 2, 3]),
      }),
      placeholder,
      name,
    );
  const deepTree = () => {
    const root: Record<string, unknown> = {};
    let node = root;
    for (let i = 0; i < TREE_LIMITS.maxDepth + 10; i++) {
      const child = {};
      node.children = [child];
      node = child;
    }
    return root;
  };
  const peopleBomb = () =>
    setDeclaredSize(
      zipSync({
        "data/tree.js": new TextEncoder().encode("var tree={}"),
        "data/people.js": [new Uint8Array(10 * 1024 * 1024), { level: 9 }],
      }),
      "data/people.js",
      1000,
    );

  it.each([
    ["an empty body", () => new Uint8Array(0), EMPTY_FILE],
    ["not a ZIP", () => new TextEncoder().encode("just some text"), UNKNOWN_FORMAT],
    ["a truncated ZIP", () => fixture().subarray(0, 9000), DAMAGED_ZIP],
    [
      "a ZIP of something else",
      () => buildZip({ "holiday.png": "x" }),
      "This ZIP archive is not a Plum Tree, PruneTree or Heirloom backup (it has no data/tree.js or bundle.json)",
    ],
    [
      "a zip bomb whose header lies about its size",
      peopleBomb,
      `${DAMAGED_ZIP} (data/people.js unpacks to more than its header says: a ZIP bomb?)`,
    ],
    [
      "an entry that declares 600 MB",
      () => setDeclaredSize(fixture(), "images/unused.png", 600 * 1024 * 1024),
      '"images/unused.png" unpacks to 600 MB; an entry may be at most 64 MB',
    ],
    [
      "the entry name ../x",
      () => withEntry("../x", "aa/x"),
      'The ZIP archive has an unsafe entry name "../x": it climbs out of its folder (..)',
    ],
    [
      "the entry name /etc/passwd",
      () => withEntry("/etc/passwd", "aetc/passwd"),
      'The ZIP archive has an unsafe entry name "/etc/passwd": it is an absolute path',
    ],
    [
      "the entry name images/../../x",
      () => withEntry("images/../../x", "images/aa/aa/x"),
      'The ZIP archive has an unsafe entry name "images/../../x": it climbs out of its folder (..)',
    ],
    [
      "a structure that refers to missing people",
      () =>
        buildPlumTreeZip({ data: { person: { _id: "ghost" }, parents: [{ _id: "a" }] } }, [
          { _id: "a" },
        ]),
      "The tree refers to people who are not in the file: ghost",
    ],
    [
      "a structure nested absurdly deep",
      () => buildPlumTreeZip({ data: deepTree() }, []),
      `A tree can be at most ${TREE_LIMITS.maxDepth} generations deep`,
    ],
    [
      "a PruneTree bundle missing a person",
      () => buildPruneTreeZip({ ...PRUNE_BUNDLE, people: [] }),
      "The tree refers to people who are not in the file: 1, 2, 3 and 2 more",
    ],
  ])("%s", async (_name, make, detail) => {
    const { keys } = watchStorage();
    const before = await rowsOf(user.username);
    const response = await postImport(user.token, make());
    expect({ status: response.status, detail: detailOf(response) }).toEqual({
      status: 400,
      detail,
    });
    expect(await rowsOf(user.username)).toEqual(before);
    expect(keys).toEqual([]);
  });

  it.each([
    ["?format=prunetree for a Plum Tree ZIP", "?format=prunetree", "The backup has no bundle.json"],
    ["?format=heirloom for a Plum Tree ZIP", "?format=heirloom", "The backup has no heirloom.json"],
    [
      "an unknown ?format=",
      "?format=docx",
      "format must be one of plumtree, prunetree, heirloom, gedcom, sims4",
    ],
  ])("%s", async (_name, query, detail) => {
    const response = await postImport(user.token, fixture(), query);
    expect({ status: response.status, detail: detailOf(response) }).toEqual({
      status: 400,
      detail,
    });
  });

  it("removes the images it stored when the database write fails", async () => {
    const { keys } = watchStorage();
    vi.spyOn(getDb(), "$transaction").mockRejectedValueOnce(new Error("connection lost"));
    const before = await rowsOf(user.username);
    const response = await postImport(user.token, await buildFixtureZip());
    expect(response.status).toBe(500);
    // The fixture's 5 images, and the 100x100 thumbnails of its avatars, all removed again.
    expect(keys.filter((key) => !key.startsWith("variants/"))).toHaveLength(5);
    expect(keys.filter((key) => key.startsWith("variants/100x100/avatar/")).length).toBeGreaterThan(
      0,
    );
    for (const key of keys) expect(await getStorage().exists(key)).toBe(false);
    expect(await rowsOf(user.username)).toEqual(before);
  });

  it("removes the images it stored when storing another one fails", async () => {
    const storage = getStorage();
    const put = storage.put.bind(storage);
    const keys: string[] = [];
    vi.spyOn(storage, "put").mockImplementation(async (key, bytes, type) => {
      keys.push(key);
      if (keys.length === 3) throw new Error("disk full");
      return put(key, bytes, type);
    });
    const before = await rowsOf(user.username);
    const response = await postImport(user.token, await buildFixtureZip());
    expect(response.status).toBe(500);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) expect(await storage.exists(key)).toBe(false);
    expect(await rowsOf(user.username)).toEqual(before);
  });
});

describe("POST /api/trees/import limits", () => {
  it("needs a token (401)", async () => {
    const response = await postImport(null, fs.readFileSync(FIXTURE_ZIP));
    expect({ status: response.status, detail: detailOf(response) }).toEqual({
      status: 401,
      detail: "Looks like you're not logged in",
    });
  });

  it("refuses a body over the cap with 413, counting the bytes as they stream in", async () => {
    const chunks = [new Uint8Array(600), new Uint8Array(600)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const request = new Request("http://localhost/api/trees/import", {
      method: "POST",
      body,
      duplex: "half",
    } as RequestInit);
    const error = await receiveImportBody(request, 1000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).status, (error as ApiError).detail]).toEqual([413, IMPORT_TOO_BIG]);
  });

  it("refuses a declared Content-Length over 200 MB with 413 before reading", async () => {
    const user = await newUser();
    const response = await call("POST", "/api/trees/import", {
      token: user.token,
      rawBody: new Uint8Array(10),
      headers: { "content-type": "application/zip", "content-length": String(201 * 1024 * 1024) },
    });
    expect({ status: response.status, detail: detailOf(response) }).toEqual({
      status: 413,
      detail: IMPORT_TOO_BIG,
    });
  });

  it(`allows ${IMPORT_PER_USER.limit} imports an hour per player, then 429`, async () => {
    const user = await newUser();
    const text = new TextEncoder().encode("not a backup");
    for (let i = 0; i < IMPORT_PER_USER.limit; i++) {
      expect((await postImport(user.token, text)).status).toBe(400);
    }
    const limited = await postImport(user.token, text);
    expect(limited.status).toBe(429);
    expect(detailOf(limited)).toMatch(/^Too many imports\. Please try again in \d+ minutes?\.$/);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
