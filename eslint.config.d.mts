// Types of what eslint.config.mjs exports besides the config, for lib/boundaries.test.ts.
import type { Linter } from "eslint";

export const BOTH_WORLDS: string[];
export const BOUNDARIES: Linter.Config;
declare const config: Linter.Config[];
export default config;
