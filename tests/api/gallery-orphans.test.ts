// The owner's public copies and a deleted tree's copy (issue 25) on PostgreSQL; the same suite runs
// on PGlite (tests/pglite/gallery-orphans.test.ts).
import { galleryOrphansSuite } from "../helpers/gallery-orphans-suite";

galleryOrphansSuite();
