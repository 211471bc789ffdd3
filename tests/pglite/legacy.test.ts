// Issue 33, the legacy, on the embedded default (the cases: tests/helpers/legacy-suite.ts).
import { describeLegacy } from "../helpers/legacy-suite";

describeLegacy("embedded PGlite");
