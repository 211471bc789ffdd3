// The entry of every thread of the worker pool (pool.ts). A plain ES module that Node loads from
// the project's files, outside Next's bundle, under `npm start`, `next dev` and vitest alike: it
// registers tsx in this thread, so the task modules (TypeScript with "@/" paths) compile as they
// load. The pool starts the thread with `--conditions=react-server`, as the scripts run, so that
// "server-only" resolves to its empty module here.
import { register } from "tsx/esm/api";

register();
const { runTask } = await import("./tasks.ts");

export default runTask;
