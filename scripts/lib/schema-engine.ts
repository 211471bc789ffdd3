// Applies and creates Prisma migrations with @prisma/schema-engine-wasm, because the native
// schema-engine binary cannot be downloaded here. Works on PostgreSQL (DATABASE_URL) and PGlite.
// See docs/decisions/002-wasm-migration-runner.md.
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  type ErrorRegistry,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  bindMigrationAwareSqlAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type * as Wasm from "@prisma/schema-engine-wasm";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { lockDataFolder, unlockDataFolder } from "../../lib/server/data-lock";
import { asAdapterClient, type EmbeddedDatabase } from "../../lib/server/front/pglite";

const require = createRequire(import.meta.url);
const noFilters = { externalTables: [], externalEnums: [] };
const LOCKFILE = "migration_lock.toml";
/** Any constant works; it only has to be the same for every instance that migrates. */
const ADVISORY_LOCK_ID = 4_232_017;

/** `pglite`: an open embedded database, the server's (on its own thread, ADR 036) or a PGlite. */
export type Target = { databaseUrl: string } | { pgliteDir: string } | { pglite: EmbeddedDatabase };

let wasmModule: Promise<typeof Wasm> | undefined;

/** Instantiates the wasm schema engine once per process (Node cannot import .wasm as ESM). */
function loadWasm(): Promise<typeof Wasm> {
  wasmModule ??= (async () => {
    const bgPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const bg = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as typeof Wasm & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    const bytes = await fs.readFile(bgPath.replace(/\.js$/, ".wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": bg });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
    return bg;
  })();
  return wasmModule;
}

export async function readMigrationList(migrationsDir: string): Promise<Wasm.MigrationList> {
  const baseDir = path.resolve(migrationsDir);
  const lockContent = await fs.readFile(path.join(baseDir, LOCKFILE), "utf8").catch(() => null);
  const entries = await fs.readdir(baseDir, { withFileTypes: true }).catch(() => []);
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  dirs.sort((a, b) => a.localeCompare(b));
  const migrationDirectories = await Promise.all(
    dirs.map(async (name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: await fs
          .readFile(path.join(baseDir, name, "migration.sql"), "utf8")
          .then((value): Wasm.JsResult<string, string> => ({ tag: "ok", value }))
          .catch((error: Error): Wasm.JsResult<string, string> => ({
            tag: "error",
            value: error.message,
          })),
      },
    })),
  );
  return {
    baseDir,
    lockfile: { path: LOCKFILE, content: lockContent },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

/**
 * Both adapters mishandle a migration script. adapter-pg cuts it at every ";", which breaks a
 * DO block, a function body or a string holding a semicolon. pglite-prisma-adapter does not
 * await it, so a failing migration would be recorded as applied. Each script is sent whole
 * (PostgreSQL's simple query protocol runs several statements) and awaited.
 */
function sendScriptsWhole(
  factory: SqlMigrationAwareDriverAdapterFactory,
): SqlMigrationAwareDriverAdapterFactory {
  const patch = (adapter: SqlDriverAdapter): SqlDriverAdapter => {
    // Both adapters keep their driver (a pg.Pool, or a PGlite or its thread's stand-in) as `client`.
    const driver = (adapter as unknown as { client: pg.Pool | EmbeddedDatabase }).client;
    adapter.executeScript = async (script) => {
      if ("exec" in driver) await driver.exec(script);
      else await driver.query(script);
    };
    return adapter;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => patch(await factory.connect()),
    connectToShadowDb: async () => patch(await factory.connectToShadowDb()),
  };
}

interface Connection {
  engine: Wasm.SchemaEngine;
  errors: ErrorRegistry;
  close(): Promise<void>;
}

async function connect(target: Target, schema: string): Promise<Connection> {
  const wasm = await loadWasm();
  let ownPglite: PGlite | undefined;
  let factory;
  if ("databaseUrl" in target) {
    factory = new PrismaPg({ connectionString: target.databaseUrl });
  } else if ("pglite" in target) {
    factory = new PrismaPGlite(asAdapterClient(target.pglite));
  } else {
    // Held until close (or longer, when the caller took it first, as npm start does).
    lockDataFolder(target.pgliteDir);
    ownPglite = new PGlite(target.pgliteDir);
    factory = new PrismaPGlite(ownPglite);
  }
  const bound = bindMigrationAwareSqlAdapterFactory(sendScriptsWhole(factory));
  const close = async () => {
    try {
      await ownPglite?.close();
    } finally {
      if ("pgliteDir" in target) unlockDataFolder(target.pgliteDir);
    }
  };
  let engine: Wasm.SchemaEngine;
  try {
    engine = await wasm.SchemaEngine.new(
      { datamodels: [["schema.prisma", schema]] },
      () => undefined,
      bound,
    );
  } catch (error) {
    await close().catch(() => undefined);
    throw explainEngineError(error, bound.errorRegistry, target);
  }
  return {
    engine,
    errors: bound.errorRegistry,
    async close() {
      engine.free();
      await close();
    },
  };
}

/** Where a target is, for messages. */
function describeTarget(target: Target): string {
  if ("databaseUrl" in target) {
    const url = new URL(target.databaseUrl);
    return `the PostgreSQL database ${url.pathname.slice(1)} on ${url.host}`;
  }
  return "pgliteDir" in target
    ? `the embedded database in ${path.resolve(target.pgliteDir)}`
    : "an in-memory database";
}

/**
 * The engine reports a failure of the database driver as "External error id#N", which says
 * nothing; the driver's own error waits in the adapter's registry under that id. Answers an Error
 * whose message says what failed, where, and why.
 */
export function explainEngineError(error: unknown, registry: ErrorRegistry, target: Target): Error {
  const raw = error instanceof Error ? error.message : String(error);
  const id = /External error id#(\d+)/.exec(raw)?.[1];
  const record = id === undefined ? undefined : registry.consumeError(Number(id));
  const cause = (record?.error ?? error) as { message?: unknown; kind?: unknown; cause?: unknown };
  const reason =
    typeof cause.message === "string" && cause.message
      ? cause.message
      : typeof cause.cause === "string"
        ? cause.cause
        : record
          ? JSON.stringify(record.error)
          : raw;
  return new Error(`Could not open or migrate ${describeTarget(target)}: ${reason}`, {
    cause: record?.error ?? error,
  });
}

/** Holds a PostgreSQL advisory lock so that two instances starting together migrate one at a time. */
async function withMigrationLock<T>(target: Target, work: () => Promise<T>): Promise<T> {
  if (!("databaseUrl" in target)) return work();
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_ID]);
    return await work();
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
}

/** Applies every migration in `migrationsDir` not yet recorded in the database; returns their names. */
export async function applyMigrations(options: {
  target: Target;
  migrationsDir: string;
  schemaPath: string;
}): Promise<string[]> {
  const schema = await fs.readFile(options.schemaPath, "utf8");
  const migrationsList = await readMigrationList(options.migrationsDir);
  return withMigrationLock(options.target, async () => {
    const connection = await connect(options.target, schema);
    try {
      const result = await connection.engine.applyMigrations({
        migrationsList,
        filters: noFilters,
      });
      return result.appliedMigrationNames;
    } catch (error) {
      throw explainEngineError(error, connection.errors, options.target);
    } finally {
      await connection.close();
    }
  });
}

/**
 * Writes a new migration that takes the schema from the state of the existing migrations to
 * `schemaPath`. The existing migrations are replayed on a throwaway in-memory PGlite (the shadow
 * database), so no server is needed. Returns the new directory name, or null when nothing changed.
 */
export async function createMigration(options: {
  name: string;
  migrationsDir: string;
  schemaPath: string;
  now?: Date;
}): Promise<string | null> {
  const schema = await fs.readFile(options.schemaPath, "utf8");
  const migrationsList = await readMigrationList(options.migrationsDir);
  const shadow = new PGlite();
  const connection = await connect({ pglite: shadow }, schema);
  try {
    await connection.engine.applyMigrations({ migrationsList, filters: noFilters });
    const files = [{ path: "schema.prisma", content: schema }];
    const diff = await connection.engine.diff({
      from: {
        tag: "schemaDatasource",
        files,
        configDir: path.dirname(path.resolve(options.schemaPath)),
      },
      to: { tag: "schemaDatamodel", files },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    const script = diff.stdout ?? "";
    if (!/\b(CREATE|ALTER|DROP|INSERT|UPDATE|DELETE|COMMENT)\b/i.test(script)) return null;
    const stamp = (options.now ?? new Date()).toISOString().replace(/\D/g, "").slice(0, 14);
    const slug = options.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_|_$/g, "");
    const dirName = `${stamp}_${slug || "migration"}`;
    const baseDir = path.resolve(options.migrationsDir);
    await fs.mkdir(path.join(baseDir, dirName), { recursive: true });
    await fs.writeFile(path.join(baseDir, dirName, "migration.sql"), script);
    const lock = '# Please do not edit this file manually\nprovider = "postgresql"\n';
    await fs.writeFile(path.join(baseDir, LOCKFILE), lock);
    return dirName;
  } finally {
    await connection.close();
    await shadow.close();
  }
}

/** The target named by the environment: PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
export function targetFromEnv(env: { DATABASE_URL?: string; PGLITE_DIR: string }): Target {
  return env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR };
}
