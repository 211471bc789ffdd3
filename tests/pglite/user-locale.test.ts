// The account's language (issue 36) on the embedded PGlite; the same suite runs on
// PostgreSQL (tests/api/user-locale.test.ts).
import { userLocaleSuite } from "../helpers/user-locale-suite";

userLocaleSuite();
