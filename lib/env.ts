import path from "node:path";
import { z } from "zod";
import { parseTrustProxy, type TrustProxy } from "./client-address";

/**
 * The only reader of process.env. Every variable is optional: with nothing set, Heirloom runs on
 * embedded PGlite in DATA_DIR, writes mail to the dev outbox and keeps uploads on local disk.
 */
const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyAsUndefined, z.url().optional());

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_URL: optionalUrl,
  DATABASE_URL: optionalUrl,
  /** When set, rate-limit counters live in Redis instead of PostgreSQL. */
  REDIS_URL: optionalUrl,
  JWT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32).optional()),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.preprocess(
    emptyAsUndefined,
    z.string().default("Heirloom <no-reply@heirloom.local>"),
  ),
  DEPLOY_COLOR: z.preprocess(emptyAsUndefined, z.string().default("unknown")),
  BLOB_READ_WRITE_TOKEN: optionalString,
  /** When set, uploads live in this S3-compatible bucket (ADR 018); the other S3_* tell how. */
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.preprocess(emptyAsUndefined, z.string().default("us-east-1")),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z.preprocess(
    emptyAsUndefined,
    z.enum(["true", "false", "1", "0"]).optional(),
  ),
  S3_DIRECT_UPLOADS: z.preprocess(emptyAsUndefined, z.enum(["true", "false", "1", "0"]).optional()),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default(".data")),
  /**
   * Which X-Forwarded-For hop is the client (lib/client-address.ts): unset/false/0 the
   * socket, a number the proxies in front, a list their addresses and CIDRs, true the left-most.
   */
  TRUST_PROXY: z
    .preprocess(emptyAsUndefined, z.string().optional())
    .transform((value, ctx): TrustProxy => {
      try {
        return parseTrustProxy(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /** "false" sends every request through Next's router (lib/server/fast-reads.ts). */
  FAST_READS: z.preprocess(emptyAsUndefined, z.enum(["true", "false", "1", "0"]).optional()),
  /** Imports one process runs at once, and the bytes their files may add up to (ADR 013). */
  IMPORT_CONCURRENCY: z.coerce.number().int().min(1).default(3),
  IMPORT_BUDGET_MB: z.coerce.number().int().min(1).default(400),
  /** Sign-ups one client address may make per hour and per day (issue 22.6); tests raise them. */
  SIGNUPS_PER_ADDRESS_HOUR: z.coerce.number().int().min(1).default(5),
  SIGNUPS_PER_ADDRESS_DAY: z.coerce.number().int().min(1).default(20),
  TREES_PER_ACCOUNT_HOUR: z.coerce.number().int().min(1).default(60),
  /** Seconds of worker time one account's imports may use per hour (issue 32; worker-budget.ts). */
  IMPORT_WORKER_SECONDS_HOUR: z.coerce.number().int().min(1).default(300),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

function parseEnv() {
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  const raw = parsed.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  return {
    ...raw,
    APP_URL: (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ""),
    DATA_DIR: dataDir,
    PGLITE_DIR: path.join(dataDir, "pglite"),
    UPLOADS_DIR: path.join(dataDir, "uploads"),
    OUTBOX_DIR: path.join(dataDir, "outbox"),
    FAST_READS: raw.FAST_READS !== "false" && raw.FAST_READS !== "0",
    S3_FORCE_PATH_STYLE: raw.S3_FORCE_PATH_STYLE === "true" || raw.S3_FORCE_PATH_STYLE === "1",
    S3_DIRECT_UPLOADS: raw.S3_DIRECT_UPLOADS !== "false" && raw.S3_DIRECT_UPLOADS !== "0",
  };
}

export type Env = ReturnType<typeof parseEnv>;

let cached: Env | undefined;

/** The validated environment, parsed on first use. */
export function getEnv(): Env {
  cached ??= parseEnv();
  return cached;
}

/** Forget the parsed environment (tests that change process.env call this). */
export function resetEnvForTests(): void {
  cached = undefined;
}
