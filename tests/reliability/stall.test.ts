// Issue 22: no request can stall the server. Against real production servers (scripts/start.ts),
// on PostgreSQL and on embedded PGlite, each heavy request of findings 1-4 runs while a second
// client sends GET /api/version one after another; the test shows, by ordering and not by timing,
// that version answers keep arriving while the heavy request is still running (at least
// MIN_VERSIONS of them before it is answered), and that the server is still up afterwards.
//
// Findings 1-3 are now bounded and answer in milliseconds, so for them the heavy request is an
// attacker sending it over and over (ATTACK_MS), four at once for the public reads, and the version
// answers must keep coming while that attack runs. A server that dies fails its case cleanly; the
// next case restarts it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { genealogyGedcom, nestedGedcom } from "./support/big-gedcom";
import { signUp, type Answer } from "./support/client";
import {
  AppServer,
  createDatabase,
  dropDatabase,
  ensureBuild,
  pickPort,
  removeTempDirs,
  tempDir,
} from "./support/server";
import {
  alongside,
  copyRemovePatch,
  doublingPatch,
  heavyRequest,
  hugePatch,
  JSON_PATCH,
  postImport,
  sustained,
  treeOfNodes,
  treeWithOneSim,
  uploadReceived,
  type Overlap,
  type Sustained,
} from "./support/stall";
import {
  type LargeTree,
  largeSims4Tree,
  legacySave,
  manyChildrenSave,
  postHouseholds,
  syncSave,
  unknownHeir,
  wholeTreeSave,
} from "./support/large-writes";

const LONG = process.env.RELIABILITY_MODE === "long";
/**
 * The files in long mode: 100,000 Sims in 49 MB, and 39 MB nested 99 levels deep. The
 * short mode (npm test) keeps the shapes at a fifth of the size, so that the suite stays minutes.
 */
const GENEALOGY = LONG ? { people: 100_000, noteLines: 40 } : { people: 20_000, noteLines: 8 };
const NESTED_MB = LONG ? 39 : 8;
/** Version answers that must arrive before the heavy request's own. */
const MIN_VERSIONS = 3;
/**
 * How long an attacker repeats a request that is now bounded (findings 1-3): such a request
 * answers in milliseconds, so what must not stall the others is the attack, sent over and over.
 * The short mode's 3 s (8 s until CI neared its 30 minutes) still covers many requests of each
 * attack, and one unbounded request of those findings held the thread for seconds.
 */
const ATTACK_MS = LONG ? 20_000 : 3_000;
/** Issue 32, finding 4: the Sims of the large tree a player writes to (the issue's: 24,001). */
const SIMS4_SIMS = 24_000;

const genealogy = genealogyGedcom(GENEALOGY.people, GENEALOGY.noteLines);
const nested = nestedGedcom(NESTED_MB);
/** The genealogy with its first Sim made the child of the last couple: their own ancestor. */
const cyclic = (() => {
  const text = new TextDecoder().decode(genealogy);
  const lastFamily = Math.floor(GENEALOGY.people / 2);
  return new TextEncoder().encode(
    text.replace("0 @I1@ INDI\n", `0 @I1@ INDI\n1 FAMC @F${lastFamily}@\n`),
  );
})();

const ENGINES = [
  { name: "PostgreSQL", port: pickPort(3640), database: `heirloom_stall_${process.pid}` },
  { name: "PGlite", port: pickPort(3860), database: undefined },
] as const;

beforeAll(() => ensureBuild());
afterAll(() => removeTempDirs());

for (const engine of ENGINES) {
  describe(`on ${engine.name}, another client's GET /api/version is answered while`, () => {
    const dataDir = tempDir(`stall-${engine.name.toLowerCase()}`);
    let server: AppServer;
    let token = "";
    let bigTreeId = "";

    beforeAll(async () => {
      const databaseUrl = engine.database ? await createDatabase(engine.database) : undefined;
      server = new AppServer({ port: engine.port, dataDir, databaseUrl });
      await server.start();
      token = await signUp(server.url, "stall");
    });
    afterAll(async () => {
      await server?.stop();
      if (engine.database) await dropDatabase(engine.database);
    });

    /** Restarts a server that an earlier case took down, so each case stands on its own. */
    async function up(): Promise<void> {
      if (!server.running) await server.start();
    }

    /** The common checks: versions came first, no version failed, and the server lived. */
    function expectResponsive(overlap: Overlap, statuses: number[]): void {
      const { answer } = overlap;
      const said = `${answer.status} ${answer.failure ?? answer.text.slice(0, 300)}`;
      expect(server.running, `the server died:\n${server.logTail()}`).toBe(true);
      expect(overlap.versionFailure, "a version request failed").toBeUndefined();
      expect(statuses, `the heavy request answered ${said}`).toContain(answer.status);
      if (answer.status >= 400) expect(answer.text).toMatch(/^\{"errors":\[\{"detail":"[^"]+/);
      expect(overlap.versionsBefore).toBeGreaterThanOrEqual(MIN_VERSIONS);
    }

    /** An attacker repeating `one` for ATTACK_MS, `readers` at a time, beside the version client. */
    async function attack(
      one: () => Promise<Answer>,
      readers = 1,
    ): Promise<{ overlap: Overlap; attack: Sustained }> {
      let result: Sustained | undefined;
      const overlap = await alongside(server.url, async () => {
        result = await sustained(one, { forMs: ATTACK_MS, readers });
        return result.last;
      });
      return { overlap, attack: result! };
    }

    const importing = (bytes: Uint8Array) =>
      alongside(
        server.url,
        () => postImport(server.url, token, bytes),
        (done) => uploadReceived(dataDir, bytes.length, done),
      );

    // Finding 4 (this branch).
    it(`a ${Math.round(genealogy.length / 1e6)} MB GEDCOM of ${GENEALOGY.people} Sims is imported`, async () => {
      await up();
      const overlap = await importing(genealogy);
      expectResponsive(overlap, [201]);
      const body = overlap.answer.body as { tree: { _id: string }; imported: { people: number } };
      expect(body.imported.people).toBe(GENEALOGY.people);
      bigTreeId = body.tree._id;
    });

    it(`a ${NESTED_MB} MB GEDCOM nested 99 levels deep is imported`, async () => {
      await up();
      expectResponsive(await importing(nested), [201]);
    });

    it("a GEDCOM read whole is refused at its end (a Sim is their own ancestor)", async () => {
      await up();
      const overlap = await importing(cyclic);
      expectResponsive(overlap, [400]);
      expect(overlap.answer.text).toContain("their own ancestor");
    });

    it("the large tree is exported as GEDCOM and as a backup ZIP", async () => {
      await up();
      expect(bigTreeId).not.toBe("");
      for (const format of ["gedcom", "zip"]) {
        const overlap = await alongside(server.url, () =>
          heavyRequest(server.url, "GET", `/api/trees/${bigTreeId}/export?format=${format}`, {
            token,
          }),
        );
        expectResponsive(overlap, [200]);
      }
    });

    // Finding 3: anonymous reads of the large tree, published, four readers at once.
    for (const read of [
      "/public/{id}/list",
      "/public/{id}?x=1",
      "/api/published/{id}/og",
      "/api/published/{id}",
    ]) {
      it(`four anonymous readers fetch ${read} of the large published tree over and over`, async () => {
        await up();
        expect(bigTreeId).not.toBe("");
        const published = await heavyRequest(server.url, "PUT", `/api/published/${bigTreeId}`, {
          token,
        });
        expect([200, 201]).toContain(published.status);
        const { overlap, attack: reads } = await attack(
          () => heavyRequest(server.url, "GET", read.replace("{id}", bigTreeId)),
          4,
        );
        expectResponsive(overlap, [200]);
        expect(new Set(reads.statuses)).toEqual(new Set([200]));
      });
    }

    // Issue 32, finding 4: writes to a 24,000-Sim tree imported from a Sims 4 save, each over and
    // over (a whole-tree save, a sync with a newer save, heirs naming a Sim not in the tree).
    let large: LargeTree | undefined;
    const largeTree = async () => (large ??= await largeSims4Tree(server.url, SIMS4_SIMS));

    it(`a whole-tree save of a ${SIMS4_SIMS}-Sim tree is sent over and over`, async () => {
      await up();
      const tree = await largeTree();
      const { overlap, attack: saves } = await attack(() => wholeTreeSave(server.url, tree));
      expectResponsive(overlap, [200]);
      expect(new Set(saves.statuses)).toEqual(new Set([200]));
      const after = await heavyRequest(server.url, "GET", `/api/trees/${tree.treeId}`, {
        token: tree.token,
      });
      expect(after.headers?.get("etag")).toBe(tree.etag);
      expect(JSON.stringify({ data: (after.body as { data: unknown }).data })).toBe(tree.wholeBody);
    });

    it(`a Sims 4 sync of the ${SIMS4_SIMS}-Sim tree with a newer save is sent over and over`, async () => {
      await up();
      const tree = await largeTree();
      const newer = legacySave(SIMS4_SIMS + 1);
      const { overlap, attack: syncs } = await attack(() => syncSave(server.url, tree, newer));
      expectResponsive(overlap, [200]);
      expect(new Set(syncs.statuses)).toEqual(new Set([200]));
      // the new Sim was added once: the tree holds every Sim of the newer save, and no more
      const people = await heavyRequest(server.url, "GET", `/api/people?tree=${tree.treeId}`, {
        token: tree.token,
      });
      expect(people.status).toBe(200);
      expect((JSON.parse(people.text) as unknown[]).length).toBe(SIMS4_SIMS + 1);
    });

    it(`PUT /heirs naming a Sim not in the ${SIMS4_SIMS}-Sim tree is sent over and over`, async () => {
      await up();
      const tree = await largeTree();
      const { overlap, attack: puts } = await attack(() => unknownHeir(server.url, tree));
      expectResponsive(overlap, [422, 429]);
      expect(puts.statuses.every((status) => status === 422 || status === 429)).toBe(true);
    });

    // Issue 32, finding 2: a save whose one mother has 99,990 children, read for its households
    // (it held a worker 30-49 s: three at once made the server refuse a real save).
    // Now refused at the Sims cap in about a second, so it is sent over and over like the others.
    it("a save whose one mother has 99,990 children is read for its households, over and over", async () => {
      await up();
      const player = await signUp(server.url, "hostile");
      const save = manyChildrenSave();
      const { overlap, attack: reads } = await attack(() =>
        postHouseholds(server.url, player, save),
      );
      expectResponsive(overlap, [400]);
      expect(overlap.answer.text).toContain("30,000 Sims");
      expect(reads.statuses.every((status) => status === 400)).toBe(true);
    });

    /** A patch refused over and over: the tree, its version and the server stay as they were. */
    async function patchAttack(
      tree: { treeId: string; etag: string },
      patch: unknown[],
      detail: RegExp,
    ): Promise<void> {
      const body = JSON.stringify(patch);
      const { overlap, attack: patches } = await attack(() =>
        heavyRequest(server.url, "PATCH", `/api/trees/${tree.treeId}`, {
          token,
          body,
          headers: { ...JSON_PATCH, "if-match": tree.etag },
        }),
      );
      expectResponsive(overlap, [413, 422]);
      expect(patches.statuses.every((status) => status === 413 || status === 422)).toBe(true);
      expect(overlap.answer.text).toMatch(detail);
      const after = await heavyRequest(server.url, "GET", `/api/trees/${tree.treeId}`, { token });
      expect(after.headers?.get("etag")).toBe(tree.etag);
    }

    // Finding 1: the 500 KB patch that once stored 128 MB.
    it("the 500 KB patch of finding 1 is sent over and over", async () => {
      await up();
      const tree = await treeWithOneSim(server.url, "huge", token);
      await patchAttack(tree, hugePatch(tree.personId), /would pass a limit/);
    });

    // Finding 2: doubling copies, and [copy, remove] pairs within the node limit.
    it("a patch of 21 doubling copies is sent over and over", async () => {
      await up();
      const tree = await treeWithOneSim(server.url, "double", token);
      await patchAttack(tree, doublingPatch(21), /would pass a limit/);
    });

    it("200 [copy, remove] pairs on a 32,768-node tree are sent over and over", async () => {
      await up();
      const tree = await treeOfNodes(server.url, "pairs", 15, token);
      await patchAttack(tree, copyRemovePatch(200, tree), /would pass a limit/);
    });
  });
}
