// Issue 32, finding 4, on the embedded default (the cases: tests/helpers/large-writes-suite.ts).
import { describeLargeWrites } from "../helpers/large-writes-suite";

describeLargeWrites("embedded PGlite");
