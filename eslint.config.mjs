import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import boundaries from "eslint-plugin-boundaries";
import tseslint from "typescript-eslint";
import { NO_LITERAL_STRINGS } from "./eslint.i18n.mjs";

/**
 * The rooms of the house and the arrows between them (docs/architecture.md,
 * lib/server/front/README.md). The first pattern a file matches names its room.
 */
export const ROOMS = [
  { type: "front", pattern: "lib/server/front", partialMatch: false },
  { type: "server", pattern: "lib/server", partialMatch: false },
  { type: "client", pattern: "lib/client", partialMatch: false },
  { type: "tree-image", pattern: "lib/tree-image", partialMatch: false },
  { type: "shared", pattern: "lib", partialMatch: false },
  { type: "components", pattern: "components", partialMatch: false },
  { type: "app", pattern: "app", partialMatch: false },
];

/**
 * The modules under lib/server that both server worlds load: Next's bundle and the server in front
 * of it (lib/server/front/, run by tsx outside the bundle). They import no "server-only" module;
 * every other file under lib/server outside front/ starts with `import "server-only"`
 * (lib/boundaries.test.ts holds this list to that).
 */
export const BOTH_WORLDS = [
  "lib/server/front/pg-pool.ts",
  "lib/server/front/pglite.ts",
  "lib/server/front/process-logger.ts",
  "lib/server/front/process-singletons.ts",
  "lib/server/auth/verify.ts",
  "lib/server/backup/archive.ts",
  "lib/server/backup/database.ts",
  "lib/server/backup/tar.ts",
  "lib/server/concurrency.ts",
  "lib/server/data-lock.ts",
  "lib/server/private-files.ts",
  "lib/server/gallery/gallery-cache.ts",
  "lib/server/gallery/gallery-pages-secret.ts",
  "lib/server/gallery/gallery-read.ts",
  "lib/server/gallery/http-cache.ts",
  "lib/server/gallery/terms.ts",
  "lib/server/http/request-id.ts",
  "lib/server/published/published-json-parts.ts",
  "lib/server/published/snapshot-url.ts",
  "lib/server/published/view-counter.ts",
  "lib/server/sql/publish.ts",
  "lib/server/sql/reads.ts",
  "lib/server/sql/tree-data.ts",
  "lib/server/storable.ts",
  "lib/server/storage/content-type.ts",
  "lib/server/trees/chunk-text.ts",
  "lib/server/trees/etag.ts",
  "lib/server/trees/ref-names.ts",
  "lib/server/uploads/image-files.ts",
  "lib/server/uploads/lean-image.ts",
];

/** The parts of lib/tree-image that run only in the browser (they fetch through lib/client). */
const BROWSER_ONLY = ["lib/tree-image/embed.ts", "lib/tree-image/export-image.ts"];

const to = (...types) => ({ to: { element: { types: { anyOf: types } } } });
const bothWorlds = { to: { file: { categories: "both-worlds" } } };

/** app -> components -> lib; UI never imports lib/server; nothing in Next's bundle imports front. */
export const ARROWS = [
  {
    from: { element: { type: "app" } },
    allow: to("app", "components", "client", "tree-image", "shared", "server"),
  },
  { from: { element: { type: "app" } }, allow: bothWorlds },
  {
    from: { element: { type: "components" } },
    allow: to("components", "client", "tree-image", "shared"),
  },
  { from: { element: { type: "client" } }, allow: to("client", "shared") },
  { from: { element: { type: "tree-image" } }, allow: to("tree-image", "client", "shared") },
  { from: { element: { type: "shared" } }, allow: to("shared") },
  { from: { element: { type: "server" } }, allow: to("server", "shared", "tree-image") },
  { from: { element: { type: "server" } }, allow: bothWorlds },
  {
    from: { element: { type: "server" } },
    disallow: { to: { file: { categories: "browser-only" } } },
  },
  { from: { element: { type: "front" } }, allow: to("front", "shared") },
  { from: { element: { type: "front" } }, allow: bothWorlds },
];

/** The rooms and arrows as one config block (lib/boundaries.test.ts lints with it alone). */
export const BOUNDARIES = {
  files: ["**/*.{ts,tsx}"],
  plugins: { boundaries },
  settings: {
    "import/resolver": { typescript: { alwaysTryTypes: true } },
    "boundaries/elements": ROOMS,
    "boundaries/files": [
      { category: "both-worlds", pattern: BOTH_WORLDS },
      { category: "browser-only", pattern: BROWSER_ONLY },
    ],
  },
  rules: {
    "boundaries/dependencies": ["error", { default: "disallow", policies: ARROWS }],
    // "import/no-cycle" costs minutes a run on this code base with the TypeScript resolver.
  },
};

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      "node_modules/**",
      "lib/generated/**",
      ".data/**",
      "bench/results/**",
      "test-results/**",
      "test-results-*/**",
      ".vitest/**",
      "playwright-report/**",
      "next-env.d.ts",
      "**/*.mjs",
    ],
  },
  ...nextVitals,
  ...nextTs,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Route handlers and wrappers are async by contract even when a body awaits nothing.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-misused-promises": [
        "error",
        { checksVoidReturn: { attributes: false } },
      ],
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read the environment through lib/env.ts." },
      ],
      "no-restricted-imports": [
        "error",
        {
          name: "next/link",
          message:
            "Use IntentLink (components/ui/intent-link.tsx): it prefetches on intent (ADR 011).",
        },
      ],
    },
  },
  BOUNDARIES,
  NO_LITERAL_STRINGS,
  {
    files: ["components/ui/intent-link.tsx"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    files: [
      "lib/env.ts",
      "tests/**",
      "bench/**",
      "scripts/**",
      // The custom server reads Next's build directory (HEIRLOOM_DIST_DIR) as next.config.ts does.
      "lib/server/front/server.ts",
      "playwright.config.ts",
      "vitest.config.ts",
      // Build-time configuration: Next inlines NODE_ENV and reads the config before lib/env.ts exists.
      "next.config.ts",
      "proxy.ts",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  // The editor's service worker is plain JavaScript served as it is (ADR 042): linted without
  // the type information the TypeScript project gives the rest.
  { files: ["public/**/*.js"], ...tseslint.configs.disableTypeChecked },
);
