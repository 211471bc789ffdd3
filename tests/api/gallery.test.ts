// The Gallery (issue 25) on PostgreSQL; the same suite runs on PGlite (tests/pglite/gallery.test.ts).
import { gallerySuite } from "../helpers/gallery-suite";

gallerySuite();
