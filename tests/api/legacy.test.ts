// Issue 33, the legacy, on PostgreSQL (the cases: tests/helpers/legacy-suite.ts).
import { describeLegacy } from "../helpers/legacy-suite";

describeLegacy("PostgreSQL");
