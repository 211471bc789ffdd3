// Issue 32, a sync after a burst of syncs, on the embedded default (the cases:
// tests/helpers/sync-burst-suite.ts).
import { describeSyncBurst } from "../helpers/sync-burst-suite";

describeSyncBurst("embedded PGlite");
