// Test-only (lib/boundaries.test.ts): a component that imports server code, which the boundaries
// lint must refuse. Ignored by `npm run lint` itself.
import { db } from "@/lib/server/db";

export const brokenArrow = db;
