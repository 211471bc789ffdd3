// The generation rule (lib/tree/generations.ts) on the real cases of issue 33: a family imported
// from a real Sims 4 save (../shared/data/sims4) and the royal genealogy of the GEDCOM corpus
// (../shared/data/gedcom-corpus), read by the importers' pure parts.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseGedcom } from "@/lib/gedcom/import";
import type { ImportedTree } from "@/lib/import/types";
import { readSims4 } from "@/lib/sims4";
import { buildHouseholdTree } from "@/lib/sims4/build";
import { buildKinship, type Kinship } from "./placements";

const CORPUS = path.resolve("../shared/data/gedcom-corpus");
const manifest = JSON.parse(fs.readFileSync(path.join(CORPUS, "manifest.json"), "utf8")) as Record<
  string,
  number
>;

function gedcom(name: string): ImportedTree {
  const bytes = zlib.gunzipSync(fs.readFileSync(path.join(CORPUS, `${name}.gz`)));
  return parseGedcom(new Uint8Array(bytes), { fileName: name });
}

/** The one person whose full name is `name`. */
function keyOf(tree: ImportedTree, name: string): string {
  const found = tree.people.filter((p) => `${p.firstName} ${p.lastName}`.trim() === name);
  expect(found.map((p) => `${p.firstName} ${p.lastName}`.trim())).toEqual([name]);
  return found[0]!.key;
}

/** Parent links whose child is not a later generation than the parent. */
function brokenLinks(kin: Kinship): string[] {
  const broken: string[] = [];
  for (const [child, parents] of kin.parents) {
    for (const parent of parents.keys()) {
      const c = kin.generation.get(child);
      const p = kin.generation.get(parent);
      if (c !== undefined && p !== undefined && !(c > p)) broken.push(`${parent} → ${child}`);
    }
  }
  return broken;
}

describe("a family imported from a real Sims 4 save", () => {
  const save = readSims4(
    new Uint8Array(fs.readFileSync(path.resolve("../shared/data/sims4/ffrese-2024.save"))),
  );
  const household = save.households.find((h) => h.name === "Spencer-Kim-Lewis")!;
  const tree = buildHouseholdTree(save, { household: household.id });
  const kin = buildKinship(tree.data);
  const generation = (name: string) => kin.generation.get(keyOf(tree, name));

  it("counts Dennis Kim a generation before his daughter Alice, though she is drawn twice", () => {
    const alice = keyOf(tree, "Alice Spencer-Kim");
    const dennis = keyOf(tree, "Dennis Kim");
    expect(kin.parents.get(alice)?.has(dennis)).toBe(true);
    // Alice (and Eric beside her) stand under Vivian's son Eric and again under Dennis
    expect(new Set(kin.placements.get(alice)!.map((p) => p.depth))).toEqual(new Set([1, 2]));
    expect({
      vivian: generation("Vivian Lewis"),
      eric: generation("Eric Lewis"),
      alice: generation("Alice Spencer-Kim"),
      dennis: generation("Dennis Kim"),
      olivia: generation("Olivia Kim-Lewis"),
      luisa: generation("Luisa Spencer-Kim"),
    }).toEqual({ vivian: 1, eric: 2, alice: 2, dennis: 1, olivia: 3, luisa: 3 });
    expect(brokenLinks(kin)).toEqual([]);
  });
});

describe("the royal genealogy (royal92.ged, 3,010 people)", () => {
  it("counts Victoria to Charles one generation apart, each after the one before", () => {
    const tree = gedcom("royal92.ged");
    expect(tree.people).toHaveLength(manifest["royal92.ged"]!);
    const kin = buildKinship(tree.data);
    const line = [
      "Victoria Hanover",
      "Edward_VII Wettin",
      "George_V Windsor",
      "George_VI Windsor",
      "Elizabeth_II Alexandra Mary Windsor",
      "Charles Philip Arthur Windsor",
    ].map((name) => kin.generation.get(keyOf(tree, name))!);
    const n = line[0]!;
    expect(line).toEqual([n, n + 1, n + 2, n + 3, n + 4, n + 5]);
    // and their spouses share their generations
    for (const [sovereign, spouse] of [
      ["Victoria Hanover", "Albert Augustus Charles"],
      ["Elizabeth_II Alexandra Mary Windsor", "Philip Mountbatten"],
    ]) {
      expect(kin.generation.get(keyOf(tree, spouse!))).toBe(
        kin.generation.get(keyOf(tree, sovereign!)),
      );
    }
    expect(brokenLinks(kin)).toEqual([]);
  }, 60_000);
});

describe("the GEDCOM corpus's largest genealogies", () => {
  for (const name of ["queen.ged", "gedcom4j-sample3.ged", "habsburg-small.ged", "pres2020.ged"]) {
    it(`${name}: every child a later generation than each parent, the founder 1`, () => {
      const tree = gedcom(name);
      const kin = buildKinship(tree.data);
      expect(brokenLinks(kin)).toEqual([]);
      expect(kin.generation.get(tree.data.person!._id)).toBe(1);
    }, 60_000);
  }
});
