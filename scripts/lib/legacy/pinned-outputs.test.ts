// Figures are measured on the synthetic legacies (bench/results/*.json, the scale seed's sizes):
// the same seed must give the same bytes. These hashes were taken from the two generators
// (bench/editor/generate.ts, scripts/lib/seed/tree.ts) before they were merged into one core
// (issue 16); a draw added, dropped or moved, or a record of another shape, changes them. Change
// them only with a change that re-runs the benches and the seed.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateLegacy, generateWideLegacy } from "@/bench/editor/generate";
import { createRandom, randomUuid } from "../seed/random";
import { generateSeedTree, generateTreeWithNodes } from "../seed/tree";

const sha256 = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

/** Ids drawn from the tree's own PRNG, as the scale seed draws them. */
function seedTree(seed: number, sims: number, options?: { maxChildren?: number }) {
  const rand = createRandom(seed);
  return generateSeedTree(rand, sims, () => randomUuid(rand), options);
}

describe("pinned outputs of the legacy generators", () => {
  it.each([
    [
      "generateLegacy 50 Sims",
      () => generateLegacy({ sims: 50 }),
      "7403b3934c2cef06151815104dcbd3126bdb6ae53b07ecbf16d4686be3659a30",
    ],
    [
      "generateLegacy 10,000 Sims, seed 3",
      () => generateLegacy({ sims: 10_000, seed: 3 }),
      "f763812111be069643a9e46a63798c89b51ac786a27e047d2446326b3a1a06ed",
    ],
    [
      "generateLegacy 300 Sims, 20 generations, options",
      () =>
        generateLegacy({
          sims: 300,
          generations: 20,
          seed: 11,
          treeId: "pinned",
          personId: (i) => `p${i}`,
          maxChildren: 2,
        }),
      "acd96d9c5ccbb0b8a878f85db375f8f65b5641faabd15ec81d73320f8020623a",
    ],
    [
      "generateWideLegacy 10,000 Sims",
      () => generateWideLegacy({ sims: 10_000 }),
      "9cda5768ed0e7ebb885f0a5c02de3bdae33d29efb4f39a0270efdedd78c58879",
    ],
    [
      "generateWideLegacy 500 Sims, options",
      () =>
        generateWideLegacy({ sims: 500, generations: 4, seed: 5, treeId: "w", personId: String }),
      "b5991c24a35276464c7a942c69c6b07d8d951ddb72403894c4903cd63fe08e0d",
    ],
    [
      "generateSeedTree 1 Sim",
      () => seedTree(4, 1),
      "de2258bd33609e94c8046bf7197e8c90ba9692f26a7ba1184137acbf316fd035",
    ],
    [
      "generateSeedTree 2 Sims",
      () => seedTree(5, 2),
      "ef405d954a972a62d7361c6c7c86fa38e0cc70120696c55d3fc0839e49688fa9",
    ],
    [
      "generateSeedTree 6 Sims",
      () => seedTree(1, 6),
      "18ea5a6bf15f00c8a092119093cbecb0d5d556922197514b5abdfcd73976b270",
    ],
    [
      "generateSeedTree 1,000 Sims",
      () => seedTree(2, 1_000),
      "e604d4c7dc2405c706e3227d83e183d4324ce2e816d9681aee69b8039c060c5c",
    ],
    [
      "generateSeedTree 2,000 Sims, maxChildren 3",
      () => seedTree(6, 2_000, { maxChildren: 3 }),
      "459609e59f82485c89609706d7b235215f302e9c5d706ad8de04b28fa87c2690",
    ],
    [
      "generateTreeWithNodes 1,000 nodes",
      () => {
        const ids = createRandom(1);
        return generateTreeWithNodes(createRandom(9_000), 1_000, () => randomUuid(ids));
      },
      "40f58f897cfcc0ddb7977c89338c89e7ba9c3f741cd0efb8a97326fb0807e791",
    ],
  ])("%s", (_name, generate, hash) => {
    expect(sha256(generate())).toBe(hash);
  });
});
