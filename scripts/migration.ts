// npm run db:migration NAME - write prisma/migrations/<timestamp>_NAME from the schema's changes.
import { createMigration } from "./lib/schema-engine";

const name = process.argv[2];
if (!name) {
  console.error("Usage: npm run db:migration NAME");
  process.exit(2);
}
const created = await createMigration({
  name,
  migrationsDir: "prisma/migrations",
  schemaPath: "prisma/schema.prisma",
});
console.log(created ? `Created prisma/migrations/${created}/migration.sql` : "No schema changes.");
