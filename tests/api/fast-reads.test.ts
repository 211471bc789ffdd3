// The fast reads in front of Next on PostgreSQL (tests/helpers/fast-reads-suite.ts; the same
// suite runs on the embedded default in tests/pglite/fast-reads.test.ts).
import { getEnv } from "@/lib/env";
import { pgFrontDb } from "@/lib/server/front/front-db";
import { getPgPool } from "@/lib/server/front/pg-pool";
import { describeFastReads } from "../helpers/fast-reads-suite";

describeFastReads(() => pgFrontDb(getPgPool(getEnv().DATABASE_URL!)));
