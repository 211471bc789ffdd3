// Database restart: PostgreSQL goes down and comes back while the production server is under
// load (reads and saves). The server must keep answering, cleanly (503 with the spec's error
// shape, no hang, no crash), and recover on its own, without a restart of its own.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type Answer,
  addPeople,
  createTree,
  hasErrorShape,
  percentile,
  request,
  round,
  saveTree,
  signUp,
} from "./support/client";
import {
  ensurePostgresRunning,
  postgresAccepts,
  startPostgres,
  stopPostgres,
} from "./support/postgres";
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
import { buildTree, saveBody } from "./support/trees";

const SIZES = LONG
  ? { workers: 24, trees: 8, bigSavers: 4, warmUpMs: 5_000, outageMs: 5_000, afterMs: 10_000 }
  : { workers: 8, trees: 4, bigSavers: 2, warmUpMs: 2_000, outageMs: 2_000, afterMs: 4_000 };
/** Nodes of the trees the mixed clients read and save. */
const NODES = 200;
/** Big savers save trees this large, so that some saves are inside PostgreSQL at the stop. */
const BIG_NODES = 5_000;
const PEOPLE_PER_TREE = 8;
/** The app must serve again within this long after PostgreSQL accepts connections. */
const RECOVERY_LIMIT_MS = 60_000;
/** After recovery, this last stretch of the load must have no failure at all. */
const STEADY_MS = 2_000;
/** The fewest answers the steady stretch must hold; on a busy machine one request can take seconds. */
const STEADY_MIN_REQUESTS = 3;

const database = `heirloom_rel_dbrestart_${process.pid}`;
let server: AppServer;

interface Sent {
  op: "read" | "save" | "people" | "list";
  startedAt: number;
  endedAt: number;
  answer: Answer;
}

interface LoadTree {
  id: string;
  token: string;
  people: string[];
  nodes: number;
  variant: number;
}

beforeAll(async () => {
  ensureBuild();
  const databaseUrl = await createDatabase(database);
  server = new AppServer({ port: pickPort(4800), databaseUrl, dataDir: tempDir("dbrestart") });
  await server.start();
});

afterAll(async () => {
  await ensurePostgresRunning();
  await server?.stop();
  await dropDatabase(database);
  removeTempDirs();
});

async function setUpTrees(): Promise<LoadTree[]> {
  const token = await signUp(server.url, "restart");
  const trees: LoadTree[] = [];
  for (let i = 0; i < SIZES.trees + SIZES.bigSavers; i++) {
    const { _id: id } = await createTree(server.url, token, `Restart legacy ${i + 1}`);
    const people = await addPeople(server.url, token, id, PEOPLE_PER_TREE);
    trees.push({ id, token, people, nodes: i < SIZES.trees ? NODES : BIG_NODES, variant: 0 });
  }
  return trees;
}

const MIXED = ["read", "save", "people", "read", "list", "save"] as const;
/** Requests sent and not answered yet. */
let inFlight = 0;
/** When each request was sent, answered or not yet. */
const startTimes: number[] = [];

/** One client: reads a tree, its people or the tree list, or saves, until told to stop. */
async function worker(
  index: number,
  tree: LoadTree,
  ops: readonly Sent["op"][],
  sent: Sent[],
  running: () => boolean,
): Promise<void> {
  const versions = new Map<string, number>();
  for (let step = 0; running(); step++) {
    const op = ops[(index + step) % ops.length]!;
    const startedAt = performance.now();
    startTimes.push(startedAt);
    inFlight += 1;
    let answer: Answer;
    if (op === "read") {
      answer = await request(server.url, "GET", `/api/trees/${tree.id}`, { token: tree.token });
      const version = (answer.body as { version?: number } | undefined)?.version;
      if (answer.status === 200 && version) versions.set(tree.id, version);
    } else if (op === "save") {
      tree.variant += 1;
      const body = saveBody(buildTree(tree.people, tree.nodes, tree.variant));
      answer = await saveTree(server.url, tree.token, tree.id, body, versions.get(tree.id));
      const version = (answer.body as { version?: number } | undefined)?.version;
      if (answer.status === 200 && version) versions.set(tree.id, version);
      if (answer.status === 409) versions.delete(tree.id);
    } else if (op === "people") {
      answer = await request(server.url, "GET", `/api/people?tree=${tree.id}`, {
        token: tree.token,
      });
    } else {
      answer = await request(server.url, "GET", "/api/trees", { token: tree.token });
    }
    inFlight -= 1;
    sent.push({ op, startedAt, endedAt: performance.now(), answer });
    await sleep(answer.status === 200 || answer.status === 409 ? 10 : 50);
  }
}

describe(`database restart (${MODE}: ${SIZES.workers} clients, ${SIZES.outageMs} ms outage)`, () => {
  test("the server answers 503 while PostgreSQL is down and recovers on its own", async () => {
    const trees = await setUpTrees();
    const pid = server.pid;
    const sent: Sent[] = [];
    let loading = true;
    const running = () => loading;
    const load = Promise.all([
      ...Array.from({ length: SIZES.workers }, (_, i) =>
        worker(i, trees[i % SIZES.trees]!, MIXED, sent, running),
      ),
      ...trees.slice(SIZES.trees).map((tree, i) => worker(i, tree, ["save"], sent, running)),
    ]);

    let stopAt = 0;
    let downAt = 0;
    let startAt = 0;
    let upAt = 0;
    let loadStoppedAt = 0;
    let inFlightAtStop = 0;
    try {
      await sleep(SIZES.warmUpMs);
      stopAt = performance.now();
      inFlightAtStop = inFlight;
      stopPostgres();
      downAt = performance.now();
      await sleep(SIZES.outageMs);
      startAt = performance.now();
      startPostgres();
      while (!(await postgresAccepts())) await sleep(20);
      upAt = performance.now();
      // load goes on until the app has served again and then for a steady stretch
      const deadline = upAt + RECOVERY_LIMIT_MS;
      while (
        !sent.some((s) => s.startedAt >= upAt && s.answer.status === 200) &&
        performance.now() < deadline
      ) {
        await sleep(50);
      }
      await sleep(SIZES.afterMs);
      // the steady stretch is the last STEADY_MS of load: go on until it holds a few answers
      const steadyDeadline = performance.now() + RECOVERY_LIMIT_MS;
      while (
        startTimes.filter((t) => t >= performance.now() - STEADY_MS).length < STEADY_MIN_REQUESTS &&
        performance.now() < steadyDeadline
      ) {
        await sleep(100);
      }
    } finally {
      loadStoppedAt = performance.now();
      loading = false;
      await ensurePostgresRunning();
    }
    await load;

    const failed = sent.filter((s) => s.answer.status !== 200 && s.answer.status !== 409);
    const firstOk = sent
      .filter((s) => s.startedAt >= upAt && s.answer.status === 200)
      .sort((a, b) => a.endedAt - b.endedAt)[0];
    const statuses: Record<string, number> = {};
    for (const s of failed) {
      const key =
        s.answer.status === 0 ? `no answer (${s.answer.failure})` : String(s.answer.status);
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
    const failedMs = failed.map((s) => s.endedAt - s.startedAt);
    const figures = {
      clients: SIZES.workers + SIZES.bigSavers,
      bigSaveNodes: BIG_NODES,
      requests: sent.length,
      inFlightAtStop,
      postgresStopMs: Math.round(downAt - stopAt),
      outageMs: Math.round(upAt - stopAt),
      postgresStartMs: Math.round(upAt - startAt),
      recoveryMs: firstOk ? Math.round(firstOk.endedAt - upAt) : null,
      failedRequests: failed.length,
      failedStatuses: statuses,
      failureWindowMs: failed.length
        ? Math.round(
            Math.max(...failed.map((s) => s.endedAt)) - Math.min(...failed.map((s) => s.startedAt)),
          )
        : 0,
      lastFailureAfterUpMs: failed.length
        ? Math.round(Math.max(...failed.map((s) => s.endedAt)) - upAt)
        : null,
      failedAnswerP99Ms: round(percentile(failedMs, 99)),
      failedAnswerMaxMs: round(percentile(failedMs, 100)),
      sameServerProcess: server.running && server.pid === pid,
    };
    reportFigures("databaseRestart", figures);

    // the server never went down, nor was it restarted
    expect(server.running).toBe(true);
    expect(server.pid).toBe(pid);
    // the outage was seen, and every failure was a clean, prompt 503 with a detail
    expect(failed.length).toBeGreaterThan(0);
    const unclean = failed.filter((s) => s.answer.status !== 503 || !hasErrorShape(s.answer.text));
    expect(
      unclean
        .slice(0, 5)
        .map(
          (s) => `${s.op}: ${s.answer.status} ${s.answer.failure ?? s.answer.text.slice(0, 200)}`,
        ),
    ).toEqual([]);
    // it recovered on its own, and the last stretch of load had no failure at all
    expect(firstOk, "no successful answer after PostgreSQL came back").toBeDefined();
    const steady = sent.filter(
      (s) => s.startedAt >= loadStoppedAt - STEADY_MS && s.startedAt <= loadStoppedAt,
    );
    expect(steady.length).toBeGreaterThanOrEqual(STEADY_MIN_REQUESTS);
    expect(steady.filter((s) => s.answer.status !== 200 && s.answer.status !== 409)).toEqual([]);
    const health = await request(server.url, "GET", "/api/health");
    expect(health.status).toBe(200);
  });
});
