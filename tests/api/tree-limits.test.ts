// Issue 22, findings 1, 2 and 7 on PostgreSQL (the cases: tests/helpers/tree-limits-suite.ts).
import { describeTreeLimits } from "../helpers/tree-limits-suite";

describeTreeLimits("PostgreSQL");
