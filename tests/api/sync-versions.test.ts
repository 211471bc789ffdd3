// Issue 34, versions of a tree, on PostgreSQL (the cases: tests/helpers/sync-versions-suite.ts).
import { describeSyncVersions } from "../helpers/sync-versions-suite";

describeSyncVersions("PostgreSQL");
