// Crash: SIGKILL the production server while large saves are in flight, restart it, and check
// that every tree is exactly one of the bodies it was sent (accepted, initial, or in flight at the
// kill) with the version that body got or would have got, never torn. On PostgreSQL, then on
// embedded PGlite, whose data directory must open again after the kill.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, test } from "vitest";
import {
  addPeople,
  createTree,
  fingerprint,
  getTree,
  percentile,
  round,
  saveTree,
  signUp,
} from "./support/client";
import { LONG, MODE, reportFigures } from "./support/results";
import {
  AppServer,
  createDatabase,
  dropDatabase,
  ensureBuild,
  pickPort,
  removeTempDirs,
  tempDir,
} from "./support/server";
import { buildTree, saveBody, variantOf } from "./support/trees";

const SIZES = LONG
  ? {
      kills: 5,
      postgres: { trees: 6, nodes: 10_000, editorsPerTree: 2 },
      pglite: { trees: 3, nodes: 10_000, editorsPerTree: 1 },
    }
  : {
      kills: 2,
      postgres: { trees: 4, nodes: 5_000, editorsPerTree: 2 },
      // PGlite saves and restarts are slower: smaller trees keep the CI run short
      pglite: { trees: 2, nodes: 3_000, editorsPerTree: 1 },
    };
const PEOPLE_PER_TREE = 24;
/** The kill comes at a random moment this long after the saves start. */
const KILL_WINDOW_MS = { min: 300, max: 4_000 };

type SaveState = "in-flight" | "accepted" | "refused" | "cut-off";

interface SentSave {
  variant: number;
  ifMatch: number;
  state: SaveState;
  /** The version a 200 answered. */
  version?: number;
}

interface CrashTree {
  id: string;
  people: string[];
  nodes: number;
  nextVariant: number;
  saves: SentSave[];
}

interface CrashFigures {
  backend: string;
  kills: number;
  treesChecked: number;
  nodesPerTree: number;
  bodyBytes: number;
  savesSent: number;
  savesAccepted: number;
  inFlightAtKill: number;
  storedFromInFlight: number;
  torn: number;
  restartMs: number[];
}
const databases: string[] = [];
const servers: AppServer[] = [];

afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const name of databases) await dropDatabase(name);
  removeTempDirs();
});

/**
 * Checks a stored tree against what was sent: `problem` says why it is not one of the bodies it
 * was sent with the version that body got (or would have got), and `fromInFlight` that it is a
 * save whose answer the kill cut off (it committed before the kill).
 */
function checkStored(
  tree: CrashTree,
  stored: { version: number; data: unknown },
): { problem?: string; fromInFlight: boolean } {
  const variant = variantOf(stored.data);
  if (variant === undefined)
    return { problem: "the structure is no body sent", fromInFlight: false };
  const save = tree.saves.find((s) => s.variant === variant);
  if (!save) return { problem: `variant ${variant} was never sent`, fromInFlight: false };
  if (fingerprint(stored.data) !== fingerprint(buildTree(tree.people, tree.nodes, variant))) {
    return { problem: `torn: variant ${variant} differs from the body sent`, fromInFlight: false };
  }
  const accepted = tree.saves.filter((s) => s.state === "accepted");
  const newestAccepted = Math.max(...accepted.map((s) => s.version!));
  if (stored.version < newestAccepted) {
    return {
      problem: `lost: version ${stored.version} is older than accepted version ${newestAccepted}`,
      fromInFlight: false,
    };
  }
  if (save.state === "accepted" && save.version === stored.version) return { fromInFlight: false };
  if (save.state === "cut-off" && save.ifMatch + 1 === stored.version) {
    return { fromInFlight: true };
  }
  return {
    problem: `variant ${variant} (${save.state}, If-Match ${save.ifMatch}, answered ${save.version}) stored as version ${stored.version}`,
    fromInFlight: false,
  };
}

async function crashRounds(backend: "postgres" | "pglite"): Promise<CrashFigures> {
  // two editors of a tree also race each other (some saves get 409); PGlite has one connection
  const { trees: treeCount, nodes, editorsPerTree } = SIZES[backend];
  let databaseUrl: string | undefined;
  if (backend === "postgres") {
    const name = `heirloom_rel_crash_${process.pid}`;
    databases.push(name);
    databaseUrl = await createDatabase(name);
  }
  const server = new AppServer({
    port: pickPort(backend === "postgres" ? 4400 : 4600),
    databaseUrl,
    dataDir: tempDir(`crash-${backend}`),
  });
  servers.push(server);
  await server.start();

  const token = await signUp(server.url, "crash");
  const trees: CrashTree[] = [];
  for (let i = 0; i < treeCount; i++) {
    const { _id: id } = await createTree(server.url, token, `Crash legacy ${i + 1}`);
    const people = await addPeople(server.url, token, id, PEOPLE_PER_TREE);
    const first = await saveTree(
      server.url,
      token,
      id,
      saveBody(buildTree(people, nodes, 0)),
      undefined,
    );
    expect(first.status, first.text).toBe(200);
    const version = (first.body as { version: number }).version;
    trees.push({
      id,
      people,
      nodes,
      nextVariant: 1,
      saves: [{ variant: 0, ifMatch: 0, state: "accepted", version }],
    });
  }

  const figures: CrashFigures = {
    backend,
    kills: 0,
    treesChecked: 0,
    nodesPerTree: nodes,
    bodyBytes: saveBody(buildTree(trees[0]!.people, nodes, 0)).length,
    savesSent: 0,
    savesAccepted: 0,
    inFlightAtKill: 0,
    storedFromInFlight: 0,
    torn: 0,
    restartMs: [],
  };
  const problems: string[] = [];

  for (let round = 1; round <= SIZES.kills; round++) {
    let killed = false;
    let inFlight = 0;
    let reading = trees.length * editorsPerTree;
    const editor = async (tree: CrashTree) => {
      const read = await getTree(server.url, token, tree.id);
      reading -= 1;
      if (read.status !== 200) problems.push(`round ${round}: a read answered ${read.status}`);
      let seen = read.body?.version ?? 0;
      while (!killed) {
        const save: SentSave = { variant: tree.nextVariant++, ifMatch: seen, state: "in-flight" };
        tree.saves.push(save);
        const body = saveBody(buildTree(tree.people, nodes, save.variant));
        inFlight += 1;
        const answer = await saveTree(server.url, token, tree.id, body, seen);
        inFlight -= 1;
        if (answer.status === 200) {
          save.state = "accepted";
          save.version = (answer.body as { version: number }).version;
          seen = save.version;
        } else if (answer.status === 409) {
          save.state = "refused";
          const reread = await getTree(server.url, token, tree.id);
          if (reread.status === 200) seen = reread.body!.version;
        } else if (answer.status === 0 && killed) {
          save.state = "cut-off";
        } else {
          save.state = "refused";
          problems.push(
            `round ${round}: a save answered ${answer.status} before the kill after ${Math.round(answer.ms)} ms: ${answer.failure ?? answer.text.slice(0, 200)}`,
          );
        }
      }
    };
    const editors = trees.flatMap((tree) =>
      Array.from({ length: editorsPerTree }, () => editor(tree)),
    );
    // every editor has read the tree; the kill comes at a random moment of the saves
    while (reading > 0) await sleep(5);
    const delay = KILL_WINDOW_MS.min + Math.random() * (KILL_WINDOW_MS.max - KILL_WINDOW_MS.min);
    await sleep(delay);
    while (inFlight === 0) await sleep(5);
    figures.inFlightAtKill += inFlight;
    killed = true;
    await server.kill("SIGKILL");
    figures.kills += 1;
    await Promise.all(editors);

    figures.restartMs.push(Math.round(await server.start()));
    for (const tree of trees) {
      const stored = await getTree(server.url, token, tree.id);
      expect(stored.status, `round ${round}: GET after restart: ${stored.text.slice(0, 200)}`).toBe(
        200,
      );
      const { problem, fromInFlight } = checkStored(tree, stored.body!);
      figures.treesChecked += 1;
      if (fromInFlight) figures.storedFromInFlight += 1;
      if (problem) {
        figures.torn += 1;
        problems.push(`round ${round}, tree ${tree.id}: ${problem}`);
      }
      // the next round starts from what is stored: an in-flight save that committed is accepted
      const save = tree.saves.find((s) => s.variant === variantOf(stored.body!.data));
      if (save && save.state === "cut-off") {
        save.state = "accepted";
        save.version = stored.body!.version;
      }
    }
  }
  figures.savesSent = trees.reduce((sum, tree) => sum + tree.saves.length - 1, 0);
  figures.savesAccepted = trees.reduce(
    (sum, tree) => sum + tree.saves.filter((s) => s.state === "accepted").length - 1,
    0,
  );
  await server.stop();
  reportFigures(backend === "postgres" ? "crashPostgres" : "crashPglite", {
    ...figures,
    restartMsP50: percentile(figures.restartMs, 50),
    restartMsMax: percentile(figures.restartMs, 100),
    restartMsAverage: round(
      figures.restartMs.reduce((a, b) => a + b, 0) / figures.restartMs.length,
    ),
  });
  expect(problems).toEqual([]);
  expect(figures.kills).toBe(SIZES.kills);
  expect(figures.treesChecked).toBe(SIZES.kills * treeCount);
  return figures;
}

describe(`crash (${MODE}: ${SIZES.kills} SIGKILLs per database)`, () => {
  test("on PostgreSQL, every tree is one of the bodies it was sent after a SIGKILL", async () => {
    ensureBuild();
    const figures = await crashRounds("postgres");
    expect(figures.torn).toBe(0);
  });

  test("on embedded PGlite, the data directory opens again after a SIGKILL, never torn", async () => {
    ensureBuild();
    const figures = await crashRounds("pglite");
    expect(figures.torn).toBe(0);
  });
});
