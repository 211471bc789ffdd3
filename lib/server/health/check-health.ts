import "server-only";
import { db } from "@/lib/server/db";

export interface Health {
  status: "ok" | "unavailable";
  database: "ok" | "unreachable";
  /** Round trip of the database check, in milliseconds. */
  databaseMs: number;
}

/** Checks that the database answers a trivial query within `timeoutMs`. */
export async function checkHealth(timeoutMs = 2_000): Promise<Health> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("database check timed out")), timeoutMs);
  });
  try {
    await Promise.race([db.$queryRaw`SELECT 1`, timeout]);
    return { status: "ok", database: "ok", databaseMs: Math.round(performance.now() - started) };
  } catch {
    return {
      status: "unavailable",
      database: "unreachable",
      databaseMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
  }
}
