// npm start - build if needed, apply pending migrations, then serve on PORT.
import fs from "node:fs/promises";
import { getEnv } from "../lib/env";
import { ensureBuild } from "./ensure-build";
import { applyMigrations, targetFromEnv } from "./lib/schema-engine";
import { startServer } from "./server";

Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? "production" });
ensureBuild();
const env = getEnv();
const target = targetFromEnv(env);
if ("pgliteDir" in target) await fs.mkdir(target.pgliteDir, { recursive: true });
const applied = await applyMigrations({
  target,
  migrationsDir: "prisma/migrations",
  schemaPath: "prisma/schema.prisma",
});
if (applied.length > 0) console.log(`Applied migrations: ${applied.join(", ")}`);
await startServer();
