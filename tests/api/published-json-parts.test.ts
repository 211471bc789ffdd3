// GET /api/published/{id} of a large publication in bounded parts, on PostgreSQL
// (tests/helpers/published-json-parts-suite.ts; tests/pglite/published-json-parts.test.ts runs it
// on the embedded default).
import { getEnv } from "@/lib/env";
import { pgFrontDb } from "@/lib/server/front/front-db";
import { getPgPool } from "@/lib/server/front/pg-pool";
import { describePublishedJsonParts } from "../helpers/published-json-parts-suite";

describePublishedJsonParts(() => pgFrontDb(getPgPool(getEnv().DATABASE_URL!)));
