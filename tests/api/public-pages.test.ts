// The public pages in front of Next on PostgreSQL (tests/helpers/public-pages-suite.ts; the same
// suite runs on the embedded default in tests/pglite/public-pages.test.ts).
import { getEnv } from "@/lib/env";
import { pgFrontDb } from "@/lib/server/front/front-db";
import { getPgPool } from "@/lib/server/front/pg-pool";
import { describePublicPages } from "../helpers/public-pages-suite";

describePublicPages(() => pgFrontDb(getPgPool(getEnv().DATABASE_URL!)));
