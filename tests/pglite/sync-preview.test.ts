// Issue 34, a sync you can preview, on the embedded default (the cases:
// tests/helpers/sync-preview-suite.ts).
import { describeSyncPreview } from "../helpers/sync-preview-suite";

describeSyncPreview("embedded PGlite");
