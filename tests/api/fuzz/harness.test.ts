// The fuzzer's own checks must be able to fail: its write log sees committed writes (and only
// those), tells a view count from a real change, and notices files; its report is replayable.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import {
  type FuzzFixture,
  buildFixture,
  changedParts,
  snapshot,
  useOwnDatabase,
} from "../../helpers/fuzz-fixture";
import { discoverRoutes } from "../../helpers/fuzz-routes";
import { caseArb, casePath, checkCase, type FuzzState } from "../../helpers/fuzz-runner";

let drop: () => Promise<void>;
let fixture: FuzzFixture;

beforeAll(async () => {
  const own = await useOwnDatabase();
  drop = own.drop;
  fixture = await buildFixture(own.dataDir);
}, 120_000);

afterAll(async () => {
  await drop?.();
});

describe("the write log", () => {
  it("reports a committed write, by table and operation", async () => {
    const before = await snapshot(fixture.dataDir);
    await db.tree.update({
      where: { id: fixture.treeId },
      data: { title: "Changed behind its back" },
    });
    expect(await changedParts(before, await snapshot(fixture.dataDir))).toEqual(["Tree UPDATE"]);
  });

  it("ignores a write that was rolled back", async () => {
    const before = await snapshot(fixture.dataDir);
    await expect(
      db.$transaction(async (tx) => {
        await tx.person.deleteMany({ where: { id: fixture.personIds[0] } });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await changedParts(before, await snapshot(fixture.dataDir))).toEqual([]);
  });

  it("tells a counted view from a change of the published copy", async () => {
    const before = await snapshot(fixture.dataDir);
    await db.publishedTree.update({
      where: { treeId: fixture.treeId },
      data: { viewCount: { increment: 1 } },
    });
    const viewed = await snapshot(fixture.dataDir);
    expect(await changedParts(before, viewed)).toEqual(["PublishedTree VIEW"]);
    await db.publishedTree.update({ where: { treeId: fixture.treeId }, data: { people: [] } });
    expect(await changedParts(viewed, await snapshot(fixture.dataDir))).toEqual([
      "PublishedTree UPDATE",
    ]);
  });

  it("notices a file written to the data directory", async () => {
    const before = await snapshot(fixture.dataDir);
    fs.writeFileSync(path.join(fixture.dataDir, "stray.txt"), "x");
    expect(await changedParts(before, await snapshot(fixture.dataDir))).toEqual(["files"]);
    fs.rmSync(path.join(fixture.dataDir, "stray.txt"));
  });
});

describe("a case", () => {
  it("fails, with a readable description, when a refused request changes stored data", async () => {
    const route = (await discoverRoutes()).find((r) => r.template === "/api/trees/[treeId]")!;
    const [generated] = fc.sample(caseArb(route, "GET", fixture), { numRuns: 1, seed: 1 });
    const c = { ...generated!, auth: fixture.auth.find((a) => a.label === "none")! };
    // A stale baseline stands for a write the request made: the check must see it.
    const state: FuzzState = {
      fixture,
      baseline: await snapshot(fixture.dataDir),
      statuses: {},
      slowest: {},
    };
    await db.tree.update({ where: { id: fixture.treeId }, data: { title: "Written" } });
    await expect(checkCase("GET", route, c, state)).rejects.toThrow(
      /A refused request changed stored data\n {2}answered 401: .*\n {2}changed: Tree UPDATE/,
    );
    expect(casePath(route, c)).toMatch(/^\/api\/trees\/[^/]+$/);
    expect(String((c as unknown as Record<symbol, () => string>)[fc.toStringMethod]!())).toMatch(
      /^GET \/api\/trees\//,
    );
  });

  it("generates the same cases from the same seed (FUZZ_SEED replays a run)", async () => {
    const route = (await discoverRoutes()).find((r) => r.template === "/api/people/[personId]")!;
    const described = (seed: number) =>
      fc
        .sample(caseArb(route, "PUT", fixture), { numRuns: 20, seed })
        .map((c) => String((c as unknown as Record<symbol, () => string>)[fc.toStringMethod]!()));
    expect(described(1234)).toEqual(described(1234));
    expect(described(1234)).not.toEqual(described(4321));
  });
});
