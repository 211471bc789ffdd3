// Stops and starts this machine's PostgreSQL cluster (Debian's pg_ctlcluster). A stop disrupts
// every database on it, so callers keep the outage short and always start it again.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import pg from "pg";
import { POSTGRES_URL } from "./server";

const CLUSTER_ROOT = "/etc/postgresql";

/** The cluster to restart: RELIABILITY_PG_CLUSTER ("15/main"), else the only version installed. */
function cluster(): [version: string, name: string] {
  const configured = process.env.RELIABILITY_PG_CLUSTER;
  if (configured) {
    const [version, name] = configured.split("/");
    if (version && name) return [version, name];
  }
  const versions = fs.readdirSync(CLUSTER_ROOT);
  if (versions.length !== 1 || !versions[0]) {
    throw new Error(`set RELIABILITY_PG_CLUSTER (found ${versions.join(", ") || "no"} clusters)`);
  }
  return [versions[0], "main"];
}

function pgCtl(action: "stop" | "start", extra: string[] = []): void {
  const [version, name] = cluster();
  execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, name, action, ...extra], {
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
}

/** Fast shutdown: sessions are ended at once (as in a restart for a minor upgrade). */
export function stopPostgres(): void {
  pgCtl("stop", ["-m", "fast"]);
}

export function startPostgres(): void {
  pgCtl("start");
}

/** True when a new connection can run a query. */
export async function postgresAccepts(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: `${POSTGRES_URL}/postgres`,
    connectionTimeoutMillis: 1_000,
  });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Starts PostgreSQL if it is not answering (for finally blocks); waits until it accepts. */
export async function ensurePostgresRunning(): Promise<void> {
  if (await postgresAccepts()) return;
  try {
    startPostgres();
  } catch {
    // already starting, or started by someone else; wait below
  }
  const deadline = Date.now() + 60_000;
  while (!(await postgresAccepts())) {
    if (Date.now() > deadline) throw new Error("PostgreSQL did not start again");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
