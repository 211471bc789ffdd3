// Issue 23, structures stored in chunks on the embedded default (the cases: tests/helpers/tree-chunks-suite.ts).
import { describeTreeChunks } from "../helpers/tree-chunks-suite";

describeTreeChunks("embedded PGlite");
