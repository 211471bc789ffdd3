/**
 * `npx tsx bench/seed/sizes.ts --database-url URL [--database-url URL …] [--out FILE]`
 *
 * What databases seeded by `npm run seed:scale` hold and weigh: the seed's metadata (time, rows a
 * second, users, trees, people), exact row counts, pg_database_size, each table's size (heap,
 * indexes, TOAST) and the bytes per 1,000 users and per 1,000 trees. Writes
 * bench/results/seed-scale.json (or --out).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { readSeedMeta } from "../../scripts/lib/seed/meta";

const root = path.resolve(import.meta.dirname, "../..");
const { values: args } = parseArgs({
  options: {
    "database-url": { type: "string", multiple: true },
    out: { type: "string", default: "bench/results/seed-scale.json" },
  },
});
const urls = args["database-url"] ?? [];
if (urls.length === 0) {
  console.error("Pass --database-url URL (a database seeded by npm run seed:scale), once or more");
  process.exit(2);
}
const MB = 1024 * 1024;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");

async function measure(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const meta = await readSeedMeta(client);
    if (!meta) throw new Error(`${redact(url)} has no seed metadata`);
    const database = await client.query<{ bytes: string }>(
      "SELECT pg_database_size(current_database())::text AS bytes",
    );
    const tables = await client.query<{
      name: string;
      total: string;
      heap: string;
      indexes: string;
      toast: string;
    }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid)::text AS total,
         pg_relation_size(c.oid)::text AS heap, pg_indexes_size(c.oid)::text AS indexes,
         COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0)::text AS toast
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind = 'r' AND n.nspname = 'public'
       ORDER BY pg_total_relation_size(c.oid) DESC`,
    );
    const rows: Record<string, number> = {};
    for (const { name } of tables.rows) {
      const { rows: counted } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${name}"`,
      );
      rows[name] = counted[0]?.n ?? 0;
    }
    const bytes = Number(database.rows[0]?.bytes ?? 0);
    return {
      database: redact(url),
      seed: {
        users: meta.users,
        trees: meta.trees,
        people: meta.people,
        published: meta.published,
        avatars: meta.uploads,
        seconds: meta.seconds,
        minutes: round(meta.seconds / 60),
        rowsPerSecond: meta.rowsPerSecond,
        seededAt: meta.seededAt,
        treeSizes: meta.sizes,
        treesPerUser: meta.treesPerUser,
      },
      rows,
      databaseBytes: bytes,
      databaseGb: round(bytes / 1024 ** 3, 2),
      perThousandUsersMb: round(bytes / MB / (meta.users / 1000), 2),
      perThousandTreesMb: round(bytes / MB / (meta.trees / 1000), 2),
      perThousandPeopleMb: round(bytes / MB / (meta.people / 1000), 3),
      tables: Object.fromEntries(
        tables.rows.map((t) => [
          t.name,
          {
            totalMb: round(Number(t.total) / MB),
            heapMb: round(Number(t.heap) / MB),
            indexesMb: round(Number(t.indexes) / MB),
            toastMb: round(Number(t.toast) / MB),
          },
        ]),
      ),
    };
  } finally {
    await client.end();
  }
}

const databases = [];
for (const url of urls) databases.push(await measure(url));
const result = {
  benchmark: "seed:scale sizes",
  measuredAt: new Date().toISOString(),
  loadAverage: os.loadavg().map((l) => round(l, 2)),
  method:
    "pg_database_size and pg_total_relation_size (heap + indexes + TOAST) after the seed's ANALYZE, without VACUUM FULL; rows by count(*). seed.seconds is the seed's own wall time (migrations, inserts, avatars, ANALYZE) on a shared 2-core VM.",
  databases,
};
const out = path.resolve(root, args.out);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(
  JSON.stringify(result, (key, value: unknown) => (key === "treeSizes" ? undefined : value), 2),
);
