// Issue 32, finding 5 on PostgreSQL (the cases: tests/helpers/current-password-lockout-suite.ts).
import { describeCurrentPasswordLockout } from "../helpers/current-password-lockout-suite";

describeCurrentPasswordLockout("PostgreSQL");
