import "server-only";
import pino from "pino";
import { getEnv } from "@/lib/env";

/** Structured JSON logs on stdout. */
export const logger = pino({
  level: getEnv().NODE_ENV === "test" ? "silent" : getEnv().LOG_LEVEL,
  base: undefined,
});
