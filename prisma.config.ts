import { defineConfig } from "prisma/config";

// Migrations are applied and created by scripts/migrate.ts and scripts/migration.ts
// (the wasm schema engine); the CLI is only used for generate, validate and format.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
