import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GUIDES } from "./guide-list";

const routes = path.join(process.cwd(), "app", "(app)", "guides");

describe("guide routes", () => {
  it("has one route folder per guide, rendering that guide, and no other", () => {
    const folders = fs
      .readdirSync(routes, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual(GUIDES.map((guide) => guide.slug).sort());
    for (const { slug } of GUIDES) {
      const page = fs.readFileSync(path.join(routes, slug, "page.tsx"), "utf8");
      expect(page.match(/slug="([^"]+)"/)?.[1]).toBe(slug);
      expect(page).toContain(`guideMetadata("${slug}")`);
    }
  });

  it("has one Markdown file per guide, and no other", () => {
    const files = fs.readdirSync(path.join(process.cwd(), "content", "guides")).sort();
    expect(files).toEqual(GUIDES.map((guide) => `${guide.slug}.md`).sort());
  });
});
