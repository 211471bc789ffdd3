// The Gallery in front of Next on PostgreSQL (tests/helpers/gallery-front-suite.ts; the same suite
// runs on the embedded default in tests/pglite/gallery-front.test.ts).
import { getEnv } from "@/lib/env";
import { pgFrontDb } from "@/lib/server/front/front-db";
import { getPgPool } from "@/lib/server/front/pg-pool";
import { describeGalleryFront } from "../helpers/gallery-front-suite";

describeGalleryFront(() => pgFrontDb(getPgPool(getEnv().DATABASE_URL!)));
