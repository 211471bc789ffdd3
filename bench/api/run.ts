/**
 * `npm run bench:api [-- --duration 10 --connections 50 --fresh --users N --trees N]`
 * `npm run bench:api -- --database-url URL [--only readTree,people,published,avatar] [--out FILE]`
 *
 * The production build (scripts/start.ts, HEIRLOOM_DIST_DIR=.next-bench) on a PostgreSQL database
 * seeded by `npm run seed:scale` (heirloom_bench_api, kept between runs; reseeded when missing, at
 * another scale, or with --fresh), and a minimal node:http + pg baseline (bench/api/baseline.ts)
 * on the same database. autocannon drives both with the same scenarios, one after the other, and
 * the sign-in interference check runs reads with and without a concurrent sign-in load.
 * --database-url (or BENCH_API_DATABASE_URL) benches a database already seeded by `seed:scale`
 * (e.g. the full 220,000 users) as it is: never seeded or reset here; its scale is read from its
 * seed metadata. Fixtures add one session per owner read; autosave trees only when an autosave
 * scenario runs. --out (or BENCH_API_OUT) writes the figures elsewhere than bench/results/api.json.
 * Writes bench/results/api.json (with --only, the other scenarios' figures are kept from the
 * previous file). CPU time per request, independent of load: bench/api/cpu.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon, { type CannonClient, type CannonOptions, type CannonRequest } from "autocannon";
import pg from "pg";
import { readSeedMeta, type SeedMeta } from "../../scripts/lib/seed/meta";
import { startArgs } from "../../scripts/lib/start-command";
import { createRandom } from "../../scripts/lib/seed/random";
import { type Fixtures, SEED_PASSWORD, loadFixtures } from "./fixtures";
import {
  type CannonResult,
  type Figures,
  type ScenarioKind,
  checkGoals,
  ratio,
  toFigures,
} from "./report";

const root = path.resolve(import.meta.dirname, "../..");
const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    "signin-connections": { type: "string", default: "8" },
    "autosave-rate": { type: "string", default: "20" },
    users: { type: "string", default: "22000" },
    trees: { type: "string", default: "50000" },
    fresh: { type: "boolean", default: false },
    only: { type: "string" },
    "reuse-build": { type: "boolean", default: false },
    port: { type: "string", default: process.env.BENCH_API_PORT ?? "3320" },
    "baseline-port": { type: "string", default: process.env.BENCH_BASELINE_PORT ?? "3321" },
    "router-port": { type: "string", default: process.env.BENCH_ROUTER_PORT ?? "3322" },
    database: { type: "string", default: process.env.BENCH_API_DB ?? "heirloom_bench_api" },
    "database-url": { type: "string", default: process.env.BENCH_API_DATABASE_URL },
    out: { type: "string", default: process.env.BENCH_API_OUT ?? "bench/results/api.json" },
  },
});
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const SIGNIN_CONNECTIONS = Number(args["signin-connections"]);
const AUTOSAVE_RATE = Number(args["autosave-rate"]);
const SCALE = { users: Number(args.users), trees: Number(args.trees) };
const PG_BASE = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
/** An existing seeded database, benched as it is (never seeded or reset here). */
const EXISTING_URL = args["database-url"];
const DATABASE_URL = EXISTING_URL ?? `${PG_BASE}/${args.database}`;
const OUT = path.resolve(root, args.out);
const DATA_DIR = path.join(root, ".data/bench-api");
const DIST_DIR = ".next-bench";
const LOG_DIR = path.join(os.tmpdir(), "heirloom-bench-api");

/** A connection string without its password, for logs and the results file. */
const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const log = (line: string) => console.log(`[bench:api] ${line}`);

// ---------------------------------------------------------------------------------------------
// The database
// ---------------------------------------------------------------------------------------------

async function ensureDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [
      args.database,
    ]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${args.database}"`);
  } finally {
    await admin.end();
  }
}

async function currentMeta(): Promise<SeedMeta | null> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await readSeedMeta(client);
  } catch {
    return null; // no tables yet
  } finally {
    await client.end();
  }
}

function run(command: string, argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: root, env, stdio: "inherit" });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${argv.join(" ")} exited ${code}`)),
    );
  });
}

async function ensureSeeded(): Promise<{ meta: SeedMeta; seededNow: boolean }> {
  if (EXISTING_URL) {
    const meta = await currentMeta();
    if (!meta) {
      throw new Error(
        `${redact(EXISTING_URL)} has no seed metadata: seed it with npm run seed:scale first`,
      );
    }
    log(`Benching ${redact(EXISTING_URL)} as it is: ${meta.users} users, ${meta.trees} trees`);
    return { meta, seededNow: false };
  }
  await ensureDatabase();
  const meta = await currentMeta();
  if (!args.fresh && meta && meta.users === SCALE.users && meta.trees === SCALE.trees) {
    log(
      `Reusing ${args.database}: ${meta.users} users, ${meta.trees} trees (seeded ${meta.seededAt})`,
    );
    return { meta, seededNow: false };
  }
  log(`Seeding ${args.database} with ${SCALE.users} users and ${SCALE.trees} trees…`);
  await run(
    "npx",
    [
      "tsx",
      "--conditions",
      "react-server",
      "scripts/seed-scale.ts",
      "--users",
      String(SCALE.users),
      "--trees",
      String(SCALE.trees),
      "--database-url",
      DATABASE_URL,
      "--reset",
    ],
    { ...process.env, DATA_DIR },
  );
  const seeded = await currentMeta();
  if (!seeded) throw new Error("The seed wrote no metadata");
  return { meta: seeded, seededNow: true };
}

// ---------------------------------------------------------------------------------------------
// The servers
// ---------------------------------------------------------------------------------------------

interface Target {
  /** router: the app with FAST_READS=false, every request through Next's router (ADR 010). */
  name: "app" | "router" | "baseline";
  url: string;
  child: ChildProcess;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function startTarget(
  name: Target["name"],
  port: number,
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<Target> {
  const url = `http://127.0.0.1:${port}`;
  if (await answers(`${url}/api/version`)) {
    throw new Error(`Port ${port} is taken by another server; pass --port/--baseline-port`);
  }
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const logFile = path.join(LOG_DIR, `${name}.log`);
  const out = fs.openSync(logFile, "w");
  const child = spawn("npx", argv, {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", out, out],
    detached: true,
  });
  const deadline = Date.now() + 20 * 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The ${name} exited with ${child.exitCode}; see ${logFile}`);
    }
    if (await answers(`${url}/api/version`)) return { name, url, child };
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`The ${name} did not answer in 20 minutes; see ${logFile}`);
}

function stopTarget(target: Target | undefined) {
  if (target?.child.pid && target.child.exitCode === null) {
    try {
      process.kill(-target.child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The scenarios
// ---------------------------------------------------------------------------------------------

interface Scenario {
  name: string;
  kind: ScenarioKind;
  describe: string;
  options: (target: Target) => Omit<CannonOptions, "url" | "duration" | "connections">;
}

function scenarios(fixtures: Fixtures, pool: pg.Pool) {
  const rand = createRandom(2025);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const bearer = (owner: string) => `Bearer ${fixtures.tokens.get(owner)}`;
  const randomIp = () =>
    `10.${Math.floor(rand() * 256)}.${Math.floor(rand() * 256)}.${1 + Math.floor(rand() * 254)}`;
  const versions = new Map<string, number>();

  const get = (route: (request: CannonRequest) => CannonRequest) => ({
    requests: [{ method: "GET", setupRequest: route }],
  });

  const autosave = (rate?: number) => () => {
    let next = 0;
    return {
      ...(rate && { overallRate: rate }),
      setupClient: (client: CannonClient) => {
        const tree = fixtures.autosave[next++ % fixtures.autosave.length]!;
        client.setRequests([
          {
            method: "PATCH",
            path: `/api/trees/${tree.id}`,
            body: tree.body,
            setupRequest: (request) => ({
              ...request,
              headers: {
                "content-type": "application/json",
                authorization: bearer(tree.owner),
                "if-match": `"${versions.get(tree.id) ?? 0}"`,
              },
            }),
            onResponse: (_status, _body, _context, headers) => {
              const etag = Object.entries(headers).find(([k]) => k.toLowerCase() === "etag");
              const version = Number(/\d+/.exec(String(etag?.[1] ?? ""))?.[0]);
              if (Number.isFinite(version)) versions.set(tree.id, version);
            },
          },
        ]);
      },
    };
  };

  const list: Scenario[] = [
    {
      name: "readTree",
      kind: "read",
      describe:
        "GET /api/trees/{id}: a random tree of a random owner (4,000 trees), with its token",
      options: () =>
        get((request) => {
          const tree = pick(fixtures.trees);
          return {
            ...request,
            path: `/api/trees/${tree.id}`,
            headers: { ...request.headers, authorization: bearer(tree.owner) },
          };
        }),
    },
    {
      name: "autosave",
      kind: "autosave",
      describe:
        "PATCH /api/trees/{id} {data} of a 1,000-node tree with If-Match: each connection saves its own tree, sending the ETag of its last save",
      options: autosave(),
    },
    {
      name: "autosaveAtRate",
      kind: "autosave",
      describe: `The same saves at a fixed ${AUTOSAVE_RATE} a second (autocannon overallRate, one connection per save a second): the latency of a save when the server is not saturated, where the 50-connection run above measures its queue`,
      options: autosave(AUTOSAVE_RATE),
    },
    {
      name: "people",
      kind: "read",
      describe: "GET /api/people?tree={id}: the people of a random tree, with its owner's token",
      options: () =>
        get((request) => {
          const tree = pick(fixtures.trees);
          return {
            ...request,
            path: `/api/people?tree=${tree.id}`,
            headers: { ...request.headers, authorization: bearer(tree.owner) },
          };
        }),
    },
    {
      name: "published",
      kind: "read",
      describe: "GET /api/published/{id}: a random published tree (2,000), anonymous",
      options: () =>
        get((request) => ({ ...request, path: `/api/published/${pick(fixtures.published)}` })),
    },
    {
      name: "avatar",
      kind: "read",
      describe:
        "GET /api/upload/200x200/{avatar}: a random avatar's 200x200 variant, already made (cached on disk)",
      options: () =>
        get((request) => ({ ...request, path: `/api/upload/200x200/${pick(fixtures.avatars)}` })),
    },
    {
      name: "signin",
      kind: "signin",
      describe:
        "POST /api/account/signin: a random seeded user with the right password, from a random client address (X-Forwarded-For, TRUST_PROXY=true) so the per-address limit of 100 per 15 minutes does not answer 429",
      options: () => ({
        requests: [
          {
            method: "POST",
            setupRequest: (request) => ({
              ...request,
              path: "/api/account/signin",
              headers: { "content-type": "application/json", "x-forwarded-for": randomIp() },
              body: JSON.stringify({
                username: pick(fixtures.signinUsers),
                password: SEED_PASSWORD,
              }),
            }),
          },
        ],
      }),
    },
  ];

  const readVersions = async () => {
    const { rows } = await pool.query<{ id: string; version: number }>(
      `SELECT "id", "version" FROM "Tree" WHERE "id" = ANY($1::text[])`,
      [fixtures.autosave.map((tree) => tree.id)],
    );
    return rows.map((row) => `${row.id}:${row.version}`).join(",");
  };
  /**
   * Each autosave run starts from the stored versions, so its first saves are not conflicts:
   * saves still in flight when the previous run stopped are waited for (versions stable for 1 s).
   */
  const refreshVersions = async () => {
    let before = await readVersions();
    for (let tries = 0; tries < 30; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const now = await readVersions();
      if (now === before) break;
      before = now;
    }
    for (const pair of before.split(",")) {
      const [id, version] = pair.split(":");
      if (id) versions.set(id, Number(version));
    }
  };
  return { list, refreshVersions };
}

function cannon(
  target: Target,
  scenario: Scenario,
  seconds: number,
  connections: number,
): Promise<CannonResult> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: target.url,
        connections,
        duration: seconds,
        timeout: 30,
        ...scenario.options(target),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** One request of each scenario through the same options, to fail fast on a broken setup. */
async function sanityCheck(target: Target, list: Scenario[]) {
  for (const scenario of list) {
    const result = await new Promise<CannonResult>((resolve, reject) => {
      autocannon(
        {
          url: target.url,
          connections: 1,
          amount: 1,
          timeout: 30,
          ...scenario.options(target),
        },
        (error, value) => (error ? reject(error) : resolve(value)),
      );
    });
    const codes = Object.keys(result.statusCodeStats ?? {});
    if (result.non2xx > 0 || result.errors > 0 || codes.length === 0) {
      throw new Error(
        `${target.name} ${scenario.name}: the first request answered ${codes.join(",") || "nothing"}; see ${LOG_DIR}`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------

function readPreviousResult(file = OUT): {
  startedAt?: unknown;
  goals?: Record<string, unknown>;
  scenarios?: Record<string, unknown>;
  signinInterference?: unknown;
  cpuPerRequest?: unknown;
} | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as ReturnType<typeof readPreviousResult>;
  } catch {
    return null;
  }
}

async function main() {
  const startedAt = new Date().toISOString();
  const machine = {
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus()[0]?.model ?? "unknown",
    cores: os.cpus().length,
    memoryGb: round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverageAtStart: os.loadavg().map((value) => round(value, 2)),
  };
  const { meta, seededNow } = await ensureSeeded();

  if (args["reuse-build"]) {
    // Marks the existing build as current, so start.ts does not rebuild for others' edits.
    process.env.HEIRLOOM_DIST_DIR = DIST_DIR;
    const { recordBuild } = await import("../../scripts/lib/build-state");
    if (fs.existsSync(path.join(root, DIST_DIR, "BUILD_ID"))) recordBuild(root);
  }

  const secretText = randomBytes(48).toString("base64url");
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  // An idle connection dropped by a PostgreSQL restart must not end the run.
  pool.on("error", (error) => log(`pg pool: ${error.message}`));
  let app: Target | undefined;
  let router: Target | undefined;
  let baseline: Target | undefined;
  const stopAll = () => {
    stopTarget(app);
    stopTarget(router);
    stopTarget(baseline);
  };
  process.on("SIGINT", () => {
    stopAll();
    process.exit(130);
  });
  try {
    const postmasterStart = async () =>
      (
        await pool.query<{ t: Date }>("SELECT pg_postmaster_start_time() AS t")
      ).rows[0]!.t.toISOString();
    const pgStartedAt = await postmasterStart();
    const only = args.only?.split(",");
    const autosaving = !only || only.some((name) => name.startsWith("autosave"));
    log("Loading fixtures…");
    const fixtures = await loadFixtures({
      pool,
      meta,
      secret: new TextEncoder().encode(secretText),
      uploadsDir: path.join(DATA_DIR, "uploads"),
      autosaveTrees: autosaving ? CONNECTIONS : 0,
    });
    log(`Fixtures: ${JSON.stringify(fixtures.stats)}`);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL,
      JWT_SECRET: secretText,
      DATA_DIR,
      HEIRLOOM_DIST_DIR: DIST_DIR,
      TRUST_PROXY: "true",
      LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
    };
    // One PostgreSQL for every instance: the Redis option is not part of this benchmark.
    delete env.REDIS_URL;
    log("Starting the app (a production build comes first when the sources changed)…");
    // The app first: it builds when the sources changed, and the second instance reuses the build.
    app = await startTarget("app", Number(args.port), ["tsx", ...startArgs(root)], env);
    [router, baseline] = await Promise.all([
      startTarget("router", Number(args["router-port"]), ["tsx", ...startArgs(root)], {
        ...env,
        FAST_READS: "false",
      }),
      startTarget("baseline", Number(args["baseline-port"]), ["tsx", "bench/api/baseline.ts"], {
        ...env,
        UPLOADS_DIR: path.join(DATA_DIR, "uploads"),
      }),
    ]);
    const targets = [app, router, baseline];
    const { list, refreshVersions } = scenarios(fixtures, pool);
    const chosen = only ? list.filter((s) => only.includes(s.name)) : list;
    // Without autosave fixtures (a read-only --only run) the autosave scenarios cannot be checked.
    const checked = autosaving ? list : list.filter((s) => s.kind !== "autosave");

    log("Sanity check and warming the avatar variants…");
    await refreshVersions();
    for (const target of targets) await sanityCheck(target, checked);
    for (const name of fixtures.avatars) {
      await fetch(`${app.url}/api/upload/200x200/${name}`).then((r) => r.arrayBuffer());
    }

    const results: Record<string, Record<string, Figures>> = {};
    for (const scenario of chosen) {
      results[scenario.name] = {};
      // The router instance differs from the app only in the fast reads.
      for (const target of targets.filter((t) => t.name !== "router" || scenario.kind === "read")) {
        if (scenario.kind === "autosave") await refreshVersions();
        if (WARMUP > 0) await cannon(target, scenario, WARMUP, CONNECTIONS);
        if (scenario.kind === "autosave") await refreshVersions();
        const figures = toFigures(await cannon(target, scenario, DURATION, CONNECTIONS));
        results[scenario.name]![target.name] = figures;
        log(
          `${scenario.name.padEnd(10)} ${target.name.padEnd(8)} ${String(figures.rps).padStart(8)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms  errors ${figures.errors}  non2xx ${figures.non2xx} (409: ${figures.conflicts})`,
        );
      }
    }

    // Sign-in must never block other requests: reads alone, then reads during a sign-in load.
    const readTree = list.find((s) => s.name === "readTree")!;
    const signin = list.find((s) => s.name === "signin")!;
    const interference: Record<string, unknown> = {};
    if (!only || only.includes("interference")) {
      for (const target of [app, baseline]) {
        const alone = toFigures(await cannon(target, readTree, DURATION, CONNECTIONS));
        const [during, signins] = await Promise.all([
          cannon(target, readTree, DURATION, CONNECTIONS).then(toFigures),
          cannon(target, signin, DURATION, SIGNIN_CONNECTIONS).then(toFigures),
        ]);
        interference[target.name] = {
          readsAlone: alone,
          readsDuringSignins: during,
          signins: signins,
          p50Increase: ratio(during.p50, alone.p50),
          p99Increase: ratio(during.p99, alone.p99),
        };
        log(
          `interference ${target.name}: reads p50/p99 ${alone.p50}/${alone.p99} ms alone, ${during.p50}/${during.p99} ms during ${signins.rps} sign-ins/s`,
        );
      }
    }

    const scenarioReport = Object.fromEntries(
      chosen.map((scenario) => {
        const app = results[scenario.name]!.app!;
        const base = results[scenario.name]!.baseline ?? null;
        const viaRouter = results[scenario.name]!.router ?? null;
        return [
          scenario.name,
          {
            describe: scenario.describe,
            startedAt,
            app: app,
            baseline: base,
            ratio: base ? ratio(app.rps, base.rps) : null,
            ...(viaRouter && {
              viaNextRouter: viaRouter,
              viaNextRouterRatio: base ? ratio(viaRouter.rps, base.rps) : null,
              fastReadsGain: ratio(app.rps, viaRouter.rps),
            }),
            goals: checkGoals(scenario.kind, app, base),
          },
        ];
      }),
    );
    const appInterference = interference.app as
      { readsAlone: Figures; readsDuringSignins: Figures; signins: Figures } | undefined;
    const goals = {
      ...Object.fromEntries(
        Object.entries(scenarioReport).map(([name, s]) => [name, s.goals.every((g) => g.met)]),
      ),
      ...(appInterference && {
        signinDoesNotBlockReads:
          appInterference.readsDuringSignins.errors + appInterference.readsDuringSignins.non2xx ===
            0 && appInterference.readsDuringSignins.p99 < 50,
      }),
    };
    const pgRestarted = (await postmasterStart()) !== pgStartedAt;
    if (pgRestarted) log("WARNING: PostgreSQL restarted during the run; the figures are not valid");
    // A run of some scenarios (--only) keeps the others' figures from the previous file.
    const previous = only ? readPreviousResult() : null;
    const result = {
      startedAt,
      ...(previous && {
        partialRun: {
          only,
          note: "scenarios not in only (and their goals) are kept from earlier runs; each scenario's startedAt names its run",
        },
      }),
      postgresRestartedDuringRun: pgRestarted,
      database: EXISTING_URL ? redact(EXISTING_URL) : args.database,
      finishedAt: new Date().toISOString(),
      machine: { ...machine, loadAverageAtEnd: os.loadavg().map((v) => round(v, 2)) },
      scale: {
        users: meta.users,
        trees: meta.trees,
        people: meta.people,
        published: meta.published,
        avatarUploads: meta.uploads,
        treeSizes: meta.sizes,
        treesPerUser: meta.treesPerUser,
        password: meta.passwordNote,
      },
      seed: {
        seconds: meta.seconds,
        rowsPerSecond: meta.rowsPerSecond,
        seededAt: meta.seededAt,
        seededThisRun: seededNow,
      },
      method: {
        tool: "autocannon 9, in the benchmark process",
        connections: CONNECTIONS,
        durationSeconds: DURATION,
        warmupSeconds: WARMUP,
        order:
          "per scenario: app warm-up + run, then (reads only) the router instance's, then the baseline's",
        app: `npm start (scripts/start.ts) production build in ${DIST_DIR}, NODE_ENV=production, LOG_LEVEL=info (request logs to a file), TRUST_PROXY=true; the hot reads on the fast path (ADR 010), everything else through Next's router; one pg pool of 10 shared by both`,
        viaNextRouter:
          "the same build and settings with FAST_READS=false: every request through Next's router and a route handler, for the reads",
        baseline:
          "bench/api/baseline.ts: node:http + pg (pool of 10), same SQL shapes (reads: JSON text built by PostgreSQL, sent as is), same API security headers, jose HS256 check + session query, zod tree validation, argon2 verify; no logs",
        fixtures: fixtures.stats,
        latencyUnit: "ms",
        rps: "completed requests / measured seconds",
      },
      goals: { ...previous?.goals, ...goals },
      scenarios: { ...previous?.scenarios, ...scenarioReport },
      cpuPerRequest: (previous ?? readPreviousResult(path.join(root, "bench/results/api.json")))
        ?.cpuPerRequest,
      signinInterference:
        only?.includes("interference") || !previous
          ? {
              describe: `read-tree at ${CONNECTIONS} connections for ${DURATION} s alone, then for ${DURATION} s while ${SIGNIN_CONNECTIONS} connections sign in (argon2id verify) against the same server`,
              goal: "reads keep answering, without errors and with p99 < 50 ms, while sign-ins run",
              startedAt,
              ...interference,
            }
          : previous.signinInterference,
    };
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    fs.writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
    log(`Wrote ${path.relative(root, OUT)}; goals: ${JSON.stringify(goals)}`);
  } finally {
    stopAll();
    await pool.end();
  }
}

await main();
