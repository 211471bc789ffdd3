// The owner's public copies and a deleted tree's copy (issue 25) on the embedded PGlite; the same
// suite runs on PostgreSQL (tests/api/gallery-orphans.test.ts).
import { galleryOrphansSuite } from "../helpers/gallery-orphans-suite";

galleryOrphansSuite();
