// A transaction that outlives its timeout answers 503 on PostgreSQL (tests/helpers/server-busy-suite.ts).
import { describeServerBusy } from "../helpers/server-busy-suite";

describeServerBusy("PostgreSQL");
