// Test-only (lib/boundaries.test.ts): Next-bundled server code that imports the server in front of
// Next (refused) and a module both worlds load (allowed). Ignored by `npm run lint` itself.
import { createFastReads } from "@/lib/server/front/fast-reads";
import { getPgPool } from "@/lib/server/front/pg-pool";

export const intoFront = [createFastReads, getPgPool];
