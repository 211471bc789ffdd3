// The backup's tree.html in real Chromium, opened from file:// as a player would after unzipping.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { makeImage } from "@/tests/fixtures/plumtree/build";
import { writeHeirloomZip } from "./heirloom-zip";

const person = (id: string, extra: Partial<Person> = {}): Person => ({
  _id: id,
  tree: "t",
  avatar: null,
  firstName: id,
  lastName: "Goth",
  bio: "",
  traits: [],
  aspirations: [],
  lifeStates: [],
  custom: [],
  links: [],
  ...extra,
});

const HOSTILE = "</script><b>x</b>";
const node = (overrides: Partial<TreeNode>): TreeNode => ({ ...emptyNode(), ...overrides });

let dir: string;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const requests: string[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-viewer-"));
  const zip = writeHeirloomZip({
    tree: {
      _id: "t",
      title: "Viewer check",
      description: "<p>Founded <em>here</em></p>",
      cover: "cover/c.jpg",
      data: node({
        person: { _id: "Mortimer" },
        partners: [{ type: "MARRIED", people: [{ _id: "Bella" }] }],
        children: [
          node({
            person: { _id: "Cassandra" },
            partners: [{ type: "EX_PARTNER", people: [{ _id: HOSTILE }] }],
            parentType: "CLONE",
            parents: [{ _id: "Mortimer" }],
            adoptiveParents: [{ _id: "Bella" }],
          }),
        ],
      }),
    },
    people: [
      person("Bella", {
        avatar: "avatar/a1.png",
        bio: '<p>Hi <strong>there</strong></p><img src=x onerror="window.pwned=1"><script>window.pwned=2</script>',
        traits: ["Romantic"],
        custom: [{ title: "Colour", value: "Black" }],
      }),
      person("Mortimer", { avatar: "avatar/a2.jpg" }),
      person("Cassandra"),
      person(HOSTILE, { avatar: "../../etc/passwd" }),
    ],
    images: new Map([
      ["avatar/a1.png", await makeImage("png", 64, 64, 10)],
      ["avatar/a2.jpg", await makeImage("jpeg", 64, 64, 99)],
      ["cover/c.jpg", await makeImage("jpeg", 180, 96, 40)],
    ]),
    exportedAt: new Date(),
  });
  fs.writeFileSync(path.join(dir, "backup.zip"), zip);
  execFileSync("unzip", ["-q", "backup.zip"], { cwd: dir });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  page = await browser.newPage();
  page.on("console", (m) => problems.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(`file://${path.join(dir, "tree.html")}`);
  await page.locator("button.sim").first().waitFor();
});

afterAll(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("tree.html opened from file://", () => {
  it("draws the tree with names, avatars and partners, using only the backup's files", async () => {
    expect(await page.title()).toBe("Viewer check \u2013 Heirloom backup");
    expect(await page.locator("button.sim > span:last-child").allInnerTexts()).toEqual([
      "Mortimer Goth",
      "Bella Goth",
      "Cassandra Goth",
      `${HOSTILE} Goth`,
    ]);
    const images = await page.$$eval("img", (list) =>
      list.map((img) => [img.getAttribute("src"), img.naturalWidth]),
    );
    expect(images).toEqual([
      ["images/cover/c.jpg", 180],
      ["images/avatar/a2.jpg", 64],
      ["images/avatar/a1.png", 64],
    ]);
    expect(
      await page
        .locator(".partner-type")
        .evaluateAll((marks) => marks.map((m) => m.getAttribute("title"))),
    ).toEqual(["Married", "Ex-partner"]);
    expect(requests.every((url) => url.startsWith("file://"))).toBe(true);
    expect(problems).toEqual([]);
  });

  it("shows a Sim's details, with the bio's markup but none of its scripts", async () => {
    await page.locator("button.sim", { hasText: "Bella" }).first().click();
    const panel = page.locator("#details");
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(await panel.locator(".bio").innerHTML()).toBe("<p>Hi <strong>there</strong></p>");
    expect(await panel.innerText()).toContain("Colour\tBlack");
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned ?? null)).toBeNull();

    await page.locator("button.sim", { hasText: "Cassandra" }).first().click();
    expect(await panel.innerText()).toMatch(
      /BIOLOGICAL PARENTS\s+Clone\s+Mortimer Goth\s+ADOPTIVE PARENTS\s+Bella Goth/i,
    );
    expect(problems).toEqual([]);
  });
});
