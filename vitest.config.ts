import path from "node:path";
import { defineConfig } from "vitest/config";

// Vitest 4.1's reporter calls Map.groupBy, which Node 20 lacks (Node 21+ has it).
const mapWithGroupBy = Map as unknown as { groupBy?: unknown };
mapWithGroupBy.groupBy ??= <K, V>(items: Iterable<V>, key: (item: V, index: number) => K) => {
  const groups = new Map<K, V[]>();
  let index = 0;
  for (const item of items) {
    const k = key(item, index++);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
};

const root = import.meta.dirname;
const alias = {
  "@": root,
  // Server modules import "server-only", which only resolves inside Next's server bundle.
  "server-only": path.join(root, "tests/helpers/server-only.ts"),
};
/** Each run gets its own database (dropped afterwards), so parallel runs never collide. */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ??
  `postgres://postgres@127.0.0.1:5432/heirloom_test_${process.pid}`;

/** The AWS SDK warns once per process that its 2027 releases need Node 22 (see ADR 018). */
const QUIET_AWS_SDK = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" };

export default defineConfig({
  resolve: { alias },
  test: {
    // Two files at a time, not Vitest's default of one fewer than the cores (one, on the 2-core
    // machines this runs on): the API files wait on PostgreSQL most of their time, and with two
    // the API suite took 185 s instead of 281 s here. The reliability project still runs one
    // file at a time (fileParallelism).
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          environment: "node",
          include: [
            "lib/**/*.test.ts",
            "components/**/*.test.{ts,tsx}",
            "scripts/**/*.test.ts",
            "bench/**/*.test.ts",
          ],
          env: { NODE_ENV: "test", ...QUIET_AWS_SDK },
          testTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "api",
          environment: "node",
          include: ["tests/api/**/*.test.ts"],
          // PostgreSQL (a database of the run's own) and an S3 server (s3rver) for the S3 tests.
          globalSetup: ["tests/helpers/setup-postgres.ts", "tests/helpers/setup-s3rver.ts"],
          setupFiles: ["tests/helpers/fail-on-console-error.ts"],
          env: {
            NODE_ENV: "test",
            DATABASE_URL: TEST_DATABASE_URL,
            JWT_SECRET: "test-secret-that-is-at-least-32-characters-long",
            ...QUIET_AWS_SDK,
          },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "pglite",
          environment: "node",
          include: ["tests/pglite/**/*.test.ts"],
          globalSetup: ["tests/helpers/setup-pglite.ts"],
          // One PGlite directory may be opened by one process only: each file has a DATA_DIR of
          // its own, a copy of the migrated one (pglite-data-dir.ts sets it, before all else).
          setupFiles: ["tests/helpers/pglite-data-dir.ts", "tests/helpers/pglite-file-close.ts"],
          env: { NODE_ENV: "test" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "reliability",
          environment: "node",
          include: ["tests/reliability/**/*.test.ts"],
          // Each file starts real servers and may restart PostgreSQL: one at a time.
          fileParallelism: false,
          env: { NODE_ENV: "test" },
          testTimeout: 900_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
