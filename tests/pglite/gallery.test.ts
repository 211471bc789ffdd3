// The Gallery (issue 25) on the embedded PGlite; the same suite runs on PostgreSQL
// (tests/api/gallery.test.ts).
import { gallerySuite } from "../helpers/gallery-suite";

gallerySuite();
