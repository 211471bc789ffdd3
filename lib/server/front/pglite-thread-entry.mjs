// The entry of the thread that holds the embedded database (pglite-thread.ts, ADR 036). A plain
// ES module Node loads from the project's files, outside Next's bundle, under `npm start`,
// `next dev` and vitest alike: it registers tsx in this thread so that the TypeScript worker
// compiles as it loads (as the worker pool's entry does, lib/server/workers/worker-entry.mjs).
import { register } from "tsx/esm/api";

register();
await import("./pglite-thread-worker.ts");
