// The account's language (issue 36) on PostgreSQL; the same suite runs on PGlite
// (tests/pglite/user-locale.test.ts).
import { userLocaleSuite } from "../helpers/user-locale-suite";

userLocaleSuite();
