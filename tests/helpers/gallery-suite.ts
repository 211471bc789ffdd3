// The Gallery's API tests (issue 25), run on PostgreSQL (tests/api/gallery.test.ts) and on the
// embedded PGlite (tests/pglite/gallery.test.ts).
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { GalleryItem, GalleryPage, PublishStatus } from "@/lib/schemas/published";
import type { TreeNode } from "@/lib/schemas/tree";
import { GALLERY_LIMITS } from "@/lib/schemas/published";
import { setGalleryHidden } from "@/lib/server/gallery/hide-tree";
import { api } from "./api";
import { createPerson, createTree, createUser, giveSim } from "./factories";

/** A word no other test uses, so a search for it finds only this test's trees. */
const uniqueWord = () => `w${randomBytes(5).toString("hex")}`;

const node = (personId: string | null, children: TreeNode[] = []): TreeNode => ({
  person: personId ? { _id: personId } : null,
  partners: [],
  children,
  parentType: "NONE",
  parents: [],
  adoptiveParents: [],
  hidden: false,
});

const gallery = (query: string, headers?: Record<string, string>) =>
  api.get<GalleryPage>(`/api/published?${query}`, { headers });

const search = async (words: string, page = 1) => {
  const response = await gallery(`page[number]=${page}&search=${encodeURIComponent(words)}`);
  expect(response.status).toBe(200);
  return response.body;
};

const ids = (page: GalleryPage) => page.data.map((item) => item._id);

const publish = (token: string, treeId: string, body?: unknown) =>
  api.put<PublishStatus>(`/api/published/${treeId}`, body, { token });

/**
 * A listed tree titled `title` with one Sim per name, in a structure of `names.length` levels
 * (one Sim, Ada Founder, by default: an empty tree is never listed).
 */
async function listedTree(
  token: string,
  title: string,
  names: string[] = ["Ada Founder"],
  options: { description?: string; list?: boolean } = {},
) {
  const tree = await createTree(token, {
    title,
    description: options.description ?? "<p>A legacy</p>",
  });
  const people = [];
  for (const name of names) {
    const [firstName = "", lastName = ""] = name.split(" ");
    people.push(await createPerson(token, tree._id, { firstName, lastName }));
  }
  if (people.length > 0) {
    let data: TreeNode = node(people[people.length - 1]!._id);
    for (let i = people.length - 2; i >= 0; i -= 1) data = node(people[i]!._id, [data]);
    const saved = await api.patch(`/api/trees/${tree._id}`, { data }, { token });
    expect(saved.status).toBe(200);
  }
  const published = await publish(token, tree._id, { publishToGallery: options.list ?? true });
  expect(published.status).toBe(200);
  return tree;
}

/** Every page of a search, 1..totalPages. */
async function allPages(words: string): Promise<GalleryItem[]> {
  const first = await search(words);
  const items = [...first.data];
  for (let page = 2; page <= first.meta.totalPages; page += 1) {
    const next = await search(words, page);
    expect(next.meta.totalPages).toBe(first.meta.totalPages);
    items.push(...next.data);
  }
  return items;
}

export function gallerySuite() {
  // The first calls load the routes and open the database (slow on a cold PGlite).
  beforeAll(async () => {
    const { token } = await createUser();
    await publish(token, (await createTree(token, { title: "Warm-up" }))._id);
    await gallery("page[number]=1");
  }, 180_000);

  describe("the original client's contract", () => {
    it("PUT {publishToGallery: true} lists the tree; GET /api/published/{id} says so; the listing has its tile", async () => {
      const { token } = await createUser();
      const word = uniqueWord();
      const tree = await createTree(token, {
        title: `Contract ${word}`,
        description: "<p>The <strong>first</strong> generation</p>",
      });
      await giveSim(token, tree._id);
      const put = await publish(token, tree._id, { publishToGallery: true });
      expect(put.status).toBe(200);
      expect(put.body.publishToGallery).toBe(true);

      const read = await api.get<{ publishToGallery: boolean }>(`/api/published/${tree._id}`);
      expect(read.status).toBe(200);
      expect(read.body.publishToGallery).toBe(true);

      const listing = await gallery(`page[number]=1&search=${word}`);
      expect(listing.status).toBe(200);
      expect(listing.headers.get("content-type")).toContain("application/json");
      expect(listing.body.meta.totalPages).toBe(1);
      expect(listing.body.data).toHaveLength(1);
      const item = listing.body.data[0]!;
      expect(item._id).toBe(tree._id);
      expect(item.title).toBe(`Contract ${word}`);
      // The stored, sanitized HTML: what the public page shows.
      expect(item.description).toBe("<p>The <strong>first</strong> generation</p>");
      expect(item.cover).toBeNull();
      expect(Object.keys(item).slice(0, 4)).toEqual(["_id", "title", "description", "cover"]);
    });

    it("a publish with no body is not listed; {publishToGallery: false} unlists; unpublish unlists", async () => {
      const { token } = await createUser();
      const word = uniqueWord();
      const tree = await createTree(token, { title: `Quiet ${word}` });
      await giveSim(token, tree._id);
      const bare = await publish(token, tree._id);
      expect(bare.status).toBe(200);
      expect(bare.body.publishToGallery).toBe(false);
      expect(
        (await api.get<PublishStatus>(`/api/published/${tree._id}`)).body.publishToGallery,
      ).toBe(false);
      expect(ids(await search(word))).toEqual([]);

      expect((await publish(token, tree._id, { publishToGallery: true })).status).toBe(200);
      expect(ids(await search(word))).toEqual([tree._id]);
      const off = await publish(token, tree._id, { publishToGallery: false });
      expect(off.body.publishToGallery).toBe(false);
      expect(ids(await search(word))).toEqual([]);

      expect((await publish(token, tree._id, { publishToGallery: true })).status).toBe(200);
      expect(ids(await search(word))).toEqual([tree._id]);
      expect((await api.delete(`/api/published/${tree._id}`, undefined, { token })).status).toBe(
        200,
      );
      expect(ids(await search(word))).toEqual([]);
      // Published again without the flag: still not listed.
      expect((await publish(token, tree._id)).body.publishToGallery).toBe(false);
      expect(ids(await search(word))).toEqual([]);
    });

    it("refuses a publishToGallery that is not a boolean, and bad pages and sorts, with a sentence", async () => {
      const { token } = await createUser();
      const tree = await createTree(token, { title: "Strict" });
      const bad = await publish(token, tree._id, { publishToGallery: "yes" });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        errors: [{ detail: expect.stringContaining("publishToGallery") as string }],
      });
      expect((await api.get(`/api/published/${tree._id}`)).status).toBe(404);
      for (const query of ["page[number]=0", "page[number]=abc", "page[number]=10001", "page=-1"]) {
        const response = await gallery(query);
        expect(response.status, query).toBe(400);
        expect(response.body).toEqual({
          errors: [{ detail: "The page must be a whole number from 1 to 10000." }],
        });
      }
      const sort = await gallery("sort=oldest");
      expect(sort.status).toBe(400);
      expect(sort.body).toEqual({
        errors: [{ detail: "The sort must be one of: newest, views." }],
      });
    });

    it("pages cover every match exactly once, in the same order, with 25+ listed trees", async () => {
      const { token } = await createUser();
      const word = uniqueWord();
      const made: string[] = [];
      for (let i = 0; i < GALLERY_LIMITS.pageSize + 3; i += 1) {
        made.push((await listedTree(token, `Paging ${word} ${i}`))._id);
      }
      const first = await search(word);
      expect(first.meta.totalPages).toBe(2);
      expect(first.data).toHaveLength(GALLERY_LIMITS.pageSize);
      const found = await allPages(word);
      expect(found.map((i) => i._id).sort()).toEqual([...made].sort());
      // Newest first: the last published comes first.
      expect(found.map((i) => i._id)).toEqual([...made].reverse());
      // Past the last page: nothing, with the same count of pages.
      const past = await search(word, 3);
      expect(past.data).toEqual([]);
      expect(past.meta.totalPages).toBe(2);

      // Without a search too: every page of the whole Gallery holds each of them once.
      const whole = await gallery("page[number]=1");
      const seen: string[] = [...ids(whole.body)];
      for (let page = 2; page <= whole.body.meta.totalPages; page += 1) {
        seen.push(...ids((await gallery(`page[number]=${page}`)).body));
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of made) expect(seen).toContain(id);
    });
  });

  describe("search", () => {
    it("ignores case and accents, finds Sims by name, and ranks title matches first", async () => {
      const { token } = await createUser();
      const word = uniqueWord();
      const titled = await listedTree(token, `Château ${word} Jünö`);
      const named = await listedTree(token, `Plain ${word}`, ["Jünö Ærøskøbing", "Kid Strauß"]);
      const described = await listedTree(token, `Other ${word}`, undefined, {
        description: "<p>Where <em>JUNO</em> grew up</p>",
      });

      expect(ids(await search(`chateau ${word}`))).toEqual([titled._id]);
      expect(ids(await search(`CHÂTEAU ${word}`))).toEqual([titled._id]);
      // Title first, then a Sim's name, then the description; the newest is last here.
      expect(ids(await search(`juno ${word}`))).toEqual([titled._id, named._id, described._id]);
      expect(ids(await search(`JÜNÖ ${word}`))).toEqual([titled._id, named._id, described._id]);
      expect(ids(await search(`aeroskobing ${word}`))).toEqual([named._id]);
      expect(ids(await search(`strauss ${word}`))).toEqual([named._id]);
      // A word's beginning finds it.
      expect(ids(await search(`chat ${word}`))).toEqual([titled._id]);
      // Every word must match.
      expect(ids(await search(`chateau strauss ${word}`))).toEqual([]);
    });

    it("never lists an empty tree (0 Sims), and lists it once a publish brings a Sim", async () => {
      const { token } = await createUser();
      const word = uniqueWord();
      const tree = await createTree(token, { title: `Empty ${word}` });
      const put = await publish(token, tree._id, { publishToGallery: true });
      expect(put.status).toBe(200);
      expect(ids(await search(word))).toEqual([]);
      const whole = await gallery("page[number]=1");
      const everyId: string[] = [...ids(whole.body)];
      for (let page = 2; page <= whole.body.meta.totalPages; page += 1) {
        everyId.push(...ids((await gallery(`page[number]=${page}`)).body));
      }
      expect(everyId).not.toContain(tree._id);
      expect(everyId).toHaveLength(whole.body.meta.total);

      await giveSim(token, tree._id);
      expect((await publish(token, tree._id, { publishToGallery: true })).status).toBe(200);
      expect(ids(await search(word))).toEqual([tree._id]);
      expect((await search(word)).data[0]?.sims).toBe(1);
    });

    it("names each tile's author, and in a search the Sim it was found by", async () => {
      const { token, username } = await createUser();
      const word = uniqueWord();
      const tree = await listedTree(token, `Authored ${word}`, ["Zoë Ærøskøbing", "Kid Strauß"]);

      const plain = (await gallery("page[number]=1")).body.data.find((i) => i._id === tree._id);
      expect(plain?.author).toBe(username);
      expect(plain && "match" in plain).toBe(false);

      const byName = (await search(`zoe ${word}`)).data;
      expect(ids({ data: byName } as GalleryPage)).toEqual([tree._id]);
      expect(byName[0]!.author).toBe(username);
      expect(byName[0]!.match).toEqual({ name: "Zoë Ærøskøbing", avatar: null });
      expect((await search(`AEROSK ${word}`)).data[0]!.match?.name).toBe("Zoë Ærøskøbing");
      expect((await search(`strauss ${word}`)).data[0]!.match?.name).toBe("Kid Strauß");
      // found by its title alone: no Sim to show
      expect((await search(`authored ${word}`)).data[0]!.match).toBeNull();
    });

    it("lists the snapshot, not the live tree", async () => {
      const { token } = await createUser();
      const word = uniqueWord();
      const renamed = uniqueWord();
      const tree = await listedTree(token, `Snapshot ${word}`, ["Alma Oldname"]);
      const patched = await api.patch(
        `/api/trees/${tree._id}`,
        { title: `Live ${renamed}` },
        { token },
      );
      expect(patched.status).toBe(200);
      expect(ids(await search(renamed))).toEqual([]);
      expect((await search(word)).data[0]?.title).toBe(`Snapshot ${word}`);
      const item = (await search(word)).data[0]!;
      expect(item.sims).toBe(1);
      expect(item.generations).toBe(1);

      expect((await publish(token, tree._id, { publishToGallery: true })).status).toBe(200);
      expect(ids(await search(word))).toEqual([]);
      expect((await search(renamed)).data[0]?.title).toBe(`Live ${renamed}`);
    });

    it("counts Sims and generations for the tiles", async () => {
      const { token } = await createUser();
      const word = uniqueWord();
      await listedTree(token, `Counted ${word}`, ["A One", "B Two", "C Three"]);
      const item = (await search(word)).data[0]!;
      expect(item.sims).toBe(3);
      expect(item.generations).toBe(3);
    });

    it("treats a search under 2 characters as none, and bounds a long one", async () => {
      const none = await gallery("page[number]=1&search=");
      const short = await gallery("page[number]=1&search=%20a%20");
      expect(short.status).toBe(200);
      expect(ids(short.body)).toEqual(ids(none.body));
      expect(short.body.meta).toEqual(none.body.meta);

      const { token } = await createUser();
      const word = uniqueWord();
      const tree = await listedTree(token, `Bounded ${word}`);
      const long = await search(`${word} ${"x".repeat(20_000)}`);
      // Only the first 100 characters are read: the second word is cut to "xxx…", which no tree has.
      expect(ids(long)).toEqual([]);
      expect(ids(await search(`${word}   `))).toEqual([tree._id]);
    });

    it("rate-limits searches that read the database, per address", async () => {
      const address = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
      const statuses: number[] = [];
      for (let i = 0; i < 61; i += 1) {
        const response = await gallery(`search=${uniqueWord()}`, { "x-forwarded-for": address });
        statuses.push(response.status);
      }
      expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
      const limited = await gallery(`search=${uniqueWord()}`, { "x-forwarded-for": address });
      expect(limited.status).toBe(429);
      expect(
        (limited.body as unknown as { errors: { detail: string }[] }).errors[0]?.detail,
      ).toContain("Too many Gallery searches");
      // Another address is not limited.
      expect((await gallery(`search=${uniqueWord()}`)).status).toBe(200);
    });

    it("answers with an ETag and a shared-cache lifetime, and 304 to a matching If-None-Match", async () => {
      const first = await gallery("page[number]=1");
      expect(first.headers.get("cache-control")).toBe(
        "public, max-age=0, s-maxage=30, stale-while-revalidate=30",
      );
      const etag = first.headers.get("etag");
      expect(etag).toMatch(/^".+"$/);
      const again = await gallery("page[number]=1", { "if-none-match": etag! });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
    });
  });

  describe("leaving the Gallery", () => {
    it("delete with unpublish and account deletion take listed trees out at once", async () => {
      const user = await createUser();
      const word = uniqueWord();
      const a = await listedTree(user.token, `Leaving ${word} A`);
      const b = await listedTree(user.token, `Leaving ${word} B`);
      const c = await listedTree(user.token, `Leaving ${word} C`);
      expect(ids(await search(word)).sort()).toEqual([a._id, b._id, c._id].sort());

      // The delete-tree confirmation's "unpublish first": DELETE the copy, then the tree.
      expect((await api.delete(`/api/published/${a._id}`, undefined, user)).status).toBe(200);
      expect((await api.delete(`/api/trees/${a._id}`, undefined, user)).status).toBe(200);
      expect(ids(await search(word)).sort()).toEqual([b._id, c._id].sort());
      // Deleted without unpublishing, the public copy stays, and so does its listing.
      expect((await api.delete(`/api/trees/${b._id}`, undefined, user)).status).toBe(200);
      expect(ids(await search(word)).sort()).toEqual([b._id, c._id].sort());

      const gone = await api.delete("/api/account", { password: user.password }, user);
      expect(gone.status).toBe(200);
      expect(ids(await search(word))).toEqual([]);
    });

    it("an operator's hide takes a tree out without touching the owner's choice, and undo brings it back", async () => {
      const { token } = await createUser();
      const word = uniqueWord();
      const tree = await listedTree(token, `Hidden ${word}`);
      expect(await setGalleryHidden(tree._id, true)).toEqual({ listed: true, shown: false });
      expect(ids(await search(word))).toEqual([]);
      // The owner still sees their choice, and a republish keeps the hide.
      expect(
        (await api.get<PublishStatus>(`/api/published/${tree._id}`)).body.publishToGallery,
      ).toBe(true);
      expect((await publish(token, tree._id, { publishToGallery: true })).status).toBe(200);
      expect(ids(await search(word))).toEqual([]);

      expect(await setGalleryHidden(tree._id, false)).toEqual({ listed: true, shown: true });
      expect(ids(await search(word))).toEqual([tree._id]);
      expect(await setGalleryHidden("no-such-tree", true)).toBeNull();
    });
  });
}
