import { describe, expect, it } from "vitest";
import { buildZip } from "@/tests/fixtures/plumtree/build";
import { buildPruneTreeZip, PRUNE_BUNDLE, pruneImages } from "@/tests/fixtures/prunetree/build";
import { parsePruneTreeZip } from "./prunetree";
import { ImportError } from "./types";

describe("parsePruneTreeZip", () => {
  it("reads the bundle: number ids as strings, word enums, cropped images first", async () => {
    const images = await pruneImages();
    const file = parsePruneTreeZip(buildPruneTreeZip(PRUNE_BUNDLE, images));
    expect(file).toMatchObject({
      source: "prunetree",
      title: "The Pruned Legacy",
      sourceTreeId: "3",
      cover: "cropped/11.jpg",
      notes: [],
    });
    expect(file.people.map((p) => [p.key, p.firstName, p.avatar])).toEqual([
      ["1", "Lilith", "cropped/10.png"],
      ["2", "Caleb", null],
      ["3", "Vlad", "original/12.jpg"],
      ["4", "Sunny", null],
      ["5", "Lilith II", null],
    ]);
    expect(file.people[0]?.links).toEqual([{ title: "Other tree", treeId: "7", personId: "40" }]);
    expect(file.images.get("cropped/10.png")).toEqual(new Uint8Array(images["cropped/10.png"]!));
    expect(file.images.has("original/10.png")).toBe(false);

    const root = file.data;
    expect(root.person).toEqual({ _id: "1" });
    expect(root.parentType).toBe("NONE");
    // The {} reference PruneTree writes for a missing person is dropped.
    expect(root.partners).toEqual([
      { type: "MARRIED", people: [{ _id: "2" }] },
      { type: "EX_PARTNER", people: [{ _id: "3" }] },
      { type: "ABDUCTION", people: [] },
    ]);
    expect(root.children.map((c) => [c.person?._id ?? null, c.parentType])).toEqual([
      ["4", "NONE"],
      ["5", "CLONE"],
      [null, "ABDUCTION"],
    ]);
    expect(root.children[0]?.partners).toEqual([{ type: "PARTNER", people: [{ _id: "3" }] }]);
  });

  it("notes images the bundle names but the archive lacks", () => {
    const file = parsePruneTreeZip(buildPruneTreeZip(PRUNE_BUNDLE, {}));
    expect(file.cover).toBeNull();
    expect(file.notes).toEqual([
      "The image 11 (the cover) is not in the archive and was left out",
      "The image 10 (avatar of Lilith Pruner) is not in the archive and was left out",
      "The image 12 (avatar of Vlad Straud) is not in the archive and was left out",
    ]);
  });

  it.each([
    [
      "an archive without bundle.json",
      () => buildZip({ "cropped/1.png": "x" }),
      "The backup has no bundle.json",
    ],
    [
      "a bundle that is not JSON",
      () => buildZip({ "bundle.json": "{not json" }),
      "bundle.json is not valid JSON",
    ],
    [
      "a bundle that is not an object",
      () => buildPruneTreeZip("a string"),
      "bundle.json is not valid: Invalid input: expected object, received string",
    ],
    [
      "a bundle without a tree",
      () => buildPruneTreeZip({ people: [] }),
      "bundle.json is not valid at tree: Invalid input: expected object, received undefined",
    ],
    [
      "a reference to a person not in the bundle",
      () =>
        buildPruneTreeZip({
          ...PRUNE_BUNDLE,
          people: PRUNE_BUNDLE.people.filter((p) => p._id !== 5),
        }),
      "The tree refers to people who are not in the file: 5",
    ],
  ])("refuses %s", (_name, make, detail) => {
    let message: string | null = null;
    try {
      parsePruneTreeZip(make());
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      message = error.message;
    }
    expect(message).toBe(detail);
  });
});
