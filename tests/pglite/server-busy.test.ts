// A transaction that outlives its timeout answers 503 on the embedded default (tests/helpers/server-busy-suite.ts).
import { describeServerBusy } from "../helpers/server-busy-suite";

describeServerBusy("embedded PGlite");
