// npm run db:generate (and npm install's postinstall): generates the Prisma client and records
// which schema it was made from, so that `npm start` knows when to generate it again
// (scripts/lib/prisma-client.ts).
import { generateClient, runPrismaGenerate } from "./lib/prisma-client";

try {
  generateClient(process.cwd(), (root) => {
    runPrismaGenerate(root);
    console.log("Generated the Prisma client from prisma/schema.prisma.");
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
