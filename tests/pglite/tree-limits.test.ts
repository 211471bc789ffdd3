// Issue 22, findings 1, 2 and 7 on the embedded default (the cases: tests/helpers/tree-limits-suite.ts).
import { describeTreeLimits } from "../helpers/tree-limits-suite";

describeTreeLimits("embedded PGlite");
