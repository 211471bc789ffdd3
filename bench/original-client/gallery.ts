/**
 * The original client (TrueKuehli/PruneTree at e51ba87, built and served by its own webpack, see
 * run.sh) against Heirloom (issue 25): its /gallery lists our listed trees and searches them by a
 * Sim's name, and its publish page's "Display in Gallery" checkbox lists a tree. Not part of
 * npm test: it needs the client checked out and served outside this project.
 *
 *   HEIRLOOM_URL=http://127.0.0.1:3305 PRUNETREE_URL=http://127.0.0.1:3395 \
 *     npx tsx bench/original-client/gallery.ts
 *
 * Writes docs/screenshots/original-client-gallery-*.png; exits non-zero when a check fails.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { chromium } from "@playwright/test";

const heirloom = process.env.HEIRLOOM_URL ?? "http://127.0.0.1:3305";
const client = process.env.PRUNETREE_URL ?? "http://127.0.0.1:3395";
const shots = path.resolve(import.meta.dirname, "../../docs/screenshots");
const tag = randomBytes(3).toString("hex");

async function call<T>(method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${heirloom}${url}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** A tree with Sims, published; listed in the Gallery when `list` says so. */
async function publishedTree(
  token: string,
  title: string,
  description: string,
  sims: [string, string][],
  list: boolean | undefined,
) {
  const tree = await call<{ _id: string }>("POST", "/api/trees", { title, description }, token);
  for (const [firstName, lastName] of sims) {
    await call("POST", "/api/people", { tree: tree._id, firstName, lastName }, token);
  }
  await call(
    "PUT",
    `/api/published/${tree._id}`,
    list === undefined ? undefined : { publishToGallery: list },
    token,
  );
  return tree._id;
}

// One account for every run (sign-ups are rate-limited per address): signed in, or made once.
const username = process.env.HEIRLOOM_USERNAME ?? "oc_gallery";
const password = process.env.HEIRLOOM_PASSWORD ?? "original-client-Plumbob!";
const { token } = await call<{ token: string }>("POST", "/api/account/signin", {
  username,
  password,
}).catch(() =>
  call<{ token: string }>("POST", "/api/account/signup", {
    username,
    email: `${username}@example.test`,
    password,
  }),
);
// An earlier run's trees leave the Gallery (unpublished), so that the screenshots show this run's.
for (const tree of await call<{ _id: string }[]>("GET", "/api/trees", undefined, token)) {
  await call("DELETE", `/api/published/${tree._id}`, undefined, token).catch(() => undefined);
}
const chateau = await publishedTree(
  token,
  `The Château Legacy ${tag}`,
  "<p>Ten generations in <em>Windenburg</em>, from a tent to a castle.</p>",
  [
    ["Jünö", "Château"],
    ["Bella", "Goth"],
  ],
  true,
);
const dynasty = await publishedTree(
  token,
  `Landgraab Dynasty ${tag}`,
  "<p>A rags-to-riches legacy: <strong>money</strong> is not everything.</p>",
  [
    ["Malcolm", "Landgraab"],
    ["Geoffrey", "Landgraab"],
  ],
  true,
);
// Published as the client did before the Gallery (no body): public, not listed.
const quiet = await publishedTree(
  token,
  `A Quiet Legacy ${tag}`,
  "<p>Published, and listed later from the original client's publish page.</p>",
  [["Juniper", "Quill"]],
  undefined,
);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // The original client keeps its session token in localStorage (src/common/js/auth.js).
  await context.addInitScript((value) => localStorage.setItem("token", value), token);
  const page = await context.newPage();
  /** A Gallery tile: the client links each to /public/{id}. */
  const tile = (treeId: string) => page.locator(`a[href="/public/${treeId}"]`);
  const galleryCalls: string[] = [];
  page.on("response", (response) => {
    if (response.url().includes("/api/published?")) {
      galleryCalls.push(`${response.status()} ${new URL(response.url()).search}`);
    }
  });

  // 1. The Gallery lists our listed trees, newest first; the unlisted one is not there.
  await page.goto(`${client}/gallery`);
  await tile(dynasty).waitFor();
  await tile(chateau).waitFor();
  assert.match(await tile(chateau).innerText(), /Ten generations in Windenburg/);
  assert.equal(await tile(quiet).count(), 0);
  await page.screenshot({
    path: path.join(shots, "original-client-gallery-list.png"),
    fullPage: true,
  });

  // 2. Search by a Sim's name, without the accents: "juno" finds Jünö Château's tree only.
  await page.goto(`${client}/gallery?page=1&search=juno`);
  await tile(chateau).waitFor();
  assert.equal(await tile(dynasty).count(), 0);
  await page.screenshot({
    path: path.join(shots, "original-client-gallery-search.png"),
    fullPage: true,
  });

  // 3. The publish page: "Display in Gallery", ticked and saved, lists the published tree.
  await page.goto(`${client}/trees/${quiet}/publish`);
  await page.getByText("Display in Gallery").waitFor();
  const boxes = page.locator('input[type="checkbox"]');
  assert.equal(await boxes.nth(0).isChecked(), true); // Is Public
  assert.equal(await boxes.nth(1).isChecked(), false); // not listed yet
  await page.getByText("Display in Gallery").click();
  assert.equal(await boxes.nth(1).isChecked(), true);
  await page.waitForTimeout(500); // the switch's slide
  await page.screenshot({ path: path.join(shots, "original-client-gallery-publish.png") });
  const saved = page.waitForResponse(
    (r) => r.url().endsWith(`/api/published/${quiet}`) && r.request().method() === "PUT",
  );
  await page.getByRole("button", { name: "Save Settings" }).click();
  assert.equal((await saved).status(), 200);
  const status = await call<{ publishToGallery: boolean }>("GET", `/api/published/${quiet}`);
  assert.equal(status.publishToGallery, true);

  await page.goto(`${client}/gallery?page=1&search=${tag}`);
  await tile(quiet).waitFor();
  await tile(dynasty).waitFor();
  await page.screenshot({
    path: path.join(shots, "original-client-gallery-after-publish.png"),
    fullPage: true,
  });
  console.log(JSON.stringify({ chateau, dynasty, quiet, galleryCalls }, null, 2));
} finally {
  await browser.close();
}
