import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

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
);
