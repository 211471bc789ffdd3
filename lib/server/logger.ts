import "server-only";
import { processLogger } from "./front/process-logger";

/** Structured JSON logs on stdout (one logger per process: see process-logger.ts). */
export const logger = processLogger();
