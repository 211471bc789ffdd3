/**
 * `npx tsx bench/api/cpu.ts [--requests 300] [--port 3330] [--reuse-build]`
 *
 * CPU time the production app spends per request, independent of the machine's load: starts the
 * build in .next-bench (scripts/start.ts) on the bench database (heirloom_bench_api, seeded by
 * `npm run bench:api`), sends each path sequentially and reads the utime+stime of every process
 * in the server's process group from /proc before and after (after 50 warm-up requests). Prints
 * ms of CPU per request and keeps them as `cpuPerRequest` in bench/results/api.json.
 * With --reuse-build the existing build is marked current (no rebuild for changed sources);
 * --profile <dir> writes the server's V8 CPU profile there.
 */
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { SignJWT } from "jose";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "../..");
const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "300" },
    port: { type: "string", default: "3330" },
    database: { type: "string", default: "heirloom_bench_api" },
    "reuse-build": { type: "boolean", default: false },
    /** Writes a V8 CPU profile of the server to this directory (node --cpu-prof). */
    profile: { type: "string" },
  },
});
const REQUESTS = Number(args.requests);
const PG_BASE = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
const DATABASE_URL = `${PG_BASE}/${args.database}`;
const DIST_DIR = ".next-bench";
const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/** utime + stime (ticks) of every process whose process group is `pgid`. */
function groupTicks(pgid: number): number {
  let ticks = 0;
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue;
    }
    // fields after "(comm)": state ppid pgrp … utime(14) stime(15)
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks;
}

async function main() {
  const secretText = randomBytes(48).toString("base64url");
  const secret = new TextEncoder().encode(secretText);
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  // A tree near the median size (14 people) with a published copy of similar size.
  const tree = (
    await pool.query<{ id: string; ownerId: string; aid: string }>(
      `SELECT t."id", t."ownerId", u."accountId" AS aid FROM "Tree" t
       JOIN "User" u ON u."id" = t."ownerId"
       WHERE t."deletedAt" IS NULL AND (SELECT count(*) FROM "Person" p WHERE p."treeId" = t."id") = 14
       LIMIT 1`,
    )
  ).rows[0]!;
  const published = (
    await pool.query<{ treeId: string }>(
      `SELECT "treeId" FROM "PublishedTree" WHERE jsonb_array_length("people") = 14 LIMIT 1`,
    )
  ).rows[0]!.treeId;
  const sid = randomUUID();
  await pool.query(`INSERT INTO "Session" ("id", "userId") VALUES ($1, $2)`, [sid, tree.ownerId]);
  await pool.end();
  const token = await new SignJWT({ username: tree.ownerId, aid: tree.aid, sid })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(secret);

  if (args["reuse-build"]) {
    process.env.HEIRLOOM_DIST_DIR = DIST_DIR;
    const { recordBuild } = await import("../../scripts/lib/build-state");
    if (fs.existsSync(path.join(root, DIST_DIR, "BUILD_ID"))) recordBuild(root);
  }
  const logFile = path.join(os.tmpdir(), "heirloom-bench-cpu.log");
  const out = fs.openSync(logFile, "w");
  const argv = args.profile
    ? ["--cpu-prof", `--cpu-prof-dir=${args.profile}`, "--import", "tsx", "scripts/start.ts"]
    : [path.join(root, "node_modules/.bin/tsx"), "scripts/start.ts"];
  const child = spawn(process.execPath, argv, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL,
      JWT_SECRET: secretText,
      DATA_DIR: path.join(root, ".data/bench-api"),
      HEIRLOOM_DIST_DIR: DIST_DIR,
      TRUST_PROXY: "true",
      LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
      REDIS_URL: "",
      PORT: args.port,
    },
    stdio: ["ignore", out, out],
    detached: true,
  });
  const pgid = child.pid!;
  const url = `http://127.0.0.1:${args.port}`;
  const stop = () => {
    try {
      process.kill(-pgid, "SIGTERM");
    } catch {
      // gone
    }
  };
  process.on("SIGINT", () => {
    stop();
    process.exit(130);
  });
  try {
    for (let i = 0; ; i += 1) {
      if (child.exitCode !== null) throw new Error(`the app exited; see ${logFile}`);
      if (i > 1200) throw new Error(`the app did not start; see ${logFile}`);
      const ok = await fetch(`${url}/api/version`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const figures: Record<string, number> = {};
    const auth = { authorization: `Bearer ${token}` };
    const cases: [string, Record<string, string>][] = [
      ["/api/version", {}],
      ["/api/no-such-thing", {}],
      [`/api/trees/${tree.id}`, auth],
      [`/api/people?tree=${tree.id}`, auth],
      [`/api/published/${published}`, {}],
    ];
    for (const [pathname, headers] of cases) {
      const send = async () => {
        // no compression, as autocannon in bench:api (fetch would ask for gzip)
        const response = await fetch(`${url}${pathname}`, {
          headers: { ...headers, "accept-encoding": "identity" },
        });
        await response.arrayBuffer();
        return response.status;
      };
      for (let i = 0; i < 50; i += 1) await send(); // warm-up (JIT, pools)
      const before = groupTicks(pgid);
      let status = 0;
      for (let i = 0; i < REQUESTS; i += 1) status = await send();
      const ms = ((groupTicks(pgid) - before) * TICK_MS) / REQUESTS;
      console.log(`${pathname.padEnd(60)} ${status}  ${ms.toFixed(2)} ms CPU/request`);
      figures[
        `${pathname.replace(tree.id, "{14-person tree}").replace(published, "{14-person tree}")} ${status}`
      ] = Math.round(ms * 100) / 100;
    }
    const file = path.join(root, "bench/results/api.json");
    const result = fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>)
      : {};
    result.cpuPerRequest = {
      measuredAt: new Date().toISOString(),
      describe: `ms of CPU (utime+stime of the server's processes, /proc) per request, ${REQUESTS} sequential requests per path after 50 warm-up ones, without compression`,
      loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
      ms: figures,
    };
    fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    stop();
  }
}

await main();
