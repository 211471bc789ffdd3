// npm run seed:scale -- --users N --trees N [--database-url URL] [--seed N] [--avatars N]
//   [--append | --reset | --resume]
// Seeds PostgreSQL (DATABASE_URL, or --database-url) with realistic data at scale for the API
// benchmark: users sharing one password, trees with long-tailed sizes, people, published copies
// and avatar files (under DATA_DIR/uploads). Refuses PGlite, and a database with users in it
// unless --append or --reset says what to do. --resume finishes a seed that was stopped (run it
// with the same options): the rows already there are skipped. A PostgreSQL restart or a cut
// connection during the seed is waited out (up to 3 minutes) and the write retried.
import { parseArgs } from "node:util";
import { getEnv } from "../lib/env";
import { SEED_PASSWORD, seedScale } from "./lib/seed/seed";

const { values } = parseArgs({
  options: {
    users: { type: "string" },
    trees: { type: "string" },
    "database-url": { type: "string" },
    seed: { type: "string", default: "1" },
    avatars: { type: "string", default: "200" },
    append: { type: "boolean", default: false },
    reset: { type: "boolean", default: false },
    resume: { type: "boolean", default: false },
  },
});

const count = (name: string, raw: string | undefined): number => {
  const value = Number(raw);
  if (raw === undefined || !Number.isInteger(value) || value < 0) {
    console.error(
      `--${name} must be a whole number (usage: npm run seed:scale -- --users N --trees N)`,
    );
    process.exit(2);
  }
  return value;
};

const env = getEnv();
const databaseUrl = values["database-url"] ?? env.DATABASE_URL;
if (!databaseUrl) {
  console.error(
    "seed:scale writes to PostgreSQL only: set DATABASE_URL or pass --database-url (it refuses the embedded PGlite).",
  );
  process.exit(2);
}
if ([values.append, values.reset, values.resume].filter(Boolean).length > 1) {
  console.error("Pass one of --append, --reset and --resume.");
  process.exit(2);
}

const meta = await seedScale({
  databaseUrl,
  users: count("users", values.users),
  trees: count("trees", values.trees),
  seed: count("seed", values.seed),
  avatars: count("avatars", values.avatars),
  mode: values.append ? "append" : values.reset ? "reset" : values.resume ? "resume" : "refuse",
  uploadsDir: env.UPLOADS_DIR,
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
console.log(`Tree sizes (Sims): ${JSON.stringify(meta.sizes)}`);
console.log(`Trees per user: ${JSON.stringify(meta.treesPerUser)}`);
console.log(
  `Sign in as any seeded user (e.g. ${"BellaGoth_0"}) with the password "${SEED_PASSWORD}".`,
);
